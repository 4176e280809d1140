/**
 * Business constants of seed 000 section 9, named once. Timings are in milliseconds unless the
 * name says otherwise.
 */

/** preLogin found an SSO address: redirect after this delay. */
export const SSO_REDIRECT_DELAY_MS = 2000;
/** Social/SSO post-login failure: go to the authenticated URL after this delay. */
export const SSO_FAILURE_REDIRECT_DELAY_MS = 1000;
/** Magic-link success step stays this long before navigating. */
export const MAGIC_LINK_SUCCESS_DELAY_MS = 5000;
/** Activation success: navigate after this delay (seed 4.5). */
export const ACTIVATION_REDIRECT_DELAY_MS = 5000;
/** MFA-required-after-activation and impersonation success delay. */
export const MFA_REDIRECT_DELAY_MS = 1000;
export const IMPERSONATION_REDIRECT_DELAY_MS = 1000;
/** Unlock account redirect delay. */
export const UNLOCK_REDIRECT_DELAY_MS = 5000;

/** Profile (me) load: attempts and the delay between them (seed 4.10). */
export const PROFILE_LOAD_RETRIES = 3;
export const PROFILE_LOAD_RETRY_DELAY_MS = 2000;

/** API client: failed fetches are tried this many times in all, this far apart (seed 7.3). */
export const FETCH_RETRY_ATTEMPTS = 3;
export const FETCH_RETRY_DELAY_MS = 500;

/** The loader polls a mounted renderer for its themeSetter this often, up to this long. */
export const THEME_SETTER_POLL_MS = 50;
export const THEME_SETTER_TIMEOUT_MS = 4000;
/** Every script or remote load times out after this long. */
export const ASSET_LOAD_TIMEOUT_MS = 3800;
/** Version of the bundles and of the SDK marker header. */
export const ASSET_VERSION = '7.78.0';
export const SDK_MARKER = `gatehouse-js@${ASSET_VERSION}`;

/** Name of the app `Gatehouse.initialize` and `getApp` use when none is given. */
export const DEFAULT_APP_NAME = 'default';

/** Stored keys (seed 9): after-auth redirect URL, hosted-login PKCE verifier. */
export const AFTER_AUTH_REDIRECT_KEY = 'GATEHOUSE_AFTER_AUTH_REDIRECT_URL';
export const HOSTED_LOGIN_VERIFIER_KEY = 'GATEHOUSE_HOSTED_LOGIN_VERIFIER';

/** Request headers the API client sets. */
export const SOURCE_HEADER = 'x-gatehouse-source';
export const SDK_HEADER = 'x-gatehouse-sdk';
export const CLIENT_ID_HEADER = 'x-gatehouse-client-id';
/** The host's `locale` option, so the emails a call causes are in the language the user reads. */
export const LOCALE_HEADER = 'x-gatehouse-locale';
/** Query parameter that scopes calls to a tenant (seed 7: "a scoped tenant can come from the tenantId query parameter"). */
export const SCOPED_TENANT_PARAM = 'tenantId';
/** Query parameter carrying the after-login target (seed 2.1). */
export const REDIRECT_URL_PARAM = 'redirectUrl';
/** Refresh the access token this long before it expires. */
export const TOKEN_REFRESH_MARGIN_MS = 30_000;

/**
 * Window event the checkout dispatches after a confirmed checkout (and after it is hidden), with
 * `detail: { planId }`; the admin portal's Subscription section listens and reloads.
 */
export const BILLING_CHANGED_EVENT = 'gatehouse:billing-changed';
