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
/** Generic navigation delay. */
export const NAVIGATION_DELAY_MS = 200;
/** Silent logout callback default. */
export const SILENT_LOGOUT_CALLBACK_MS = 500;

/** Profile (me) load: attempts and the delay between them (seed 4.10). */
export const PROFILE_LOAD_RETRIES = 3;
export const PROFILE_LOAD_RETRY_DELAY_MS = 2000;

/** API client: failed fetches are tried this many times in all, this far apart (seed 7.3). */
export const FETCH_RETRY_ATTEMPTS = 3;
export const FETCH_RETRY_DELAY_MS = 500;

/** Default OAuth token lifetime, in seconds. */
export const DEFAULT_OAUTH_EXPIRES_IN_S = 300;

/** Session cookie: default lifetime 15 days in seconds, max age reduced by 60 s, size cap. */
export const SESSION_COOKIE_LIFETIME_S = 1_296_000;
export const SESSION_COOKIE_MAX_AGE_REDUCTION_S = 60;
export const SESSION_COOKIE_SIZE_CAP = 4096;
export const SESSION_COOKIE_SAME_SITE_DEFAULT = 'none';
export const SESSION_COOKIE_SAME_SITE_VALUES = ['lax', 'strict', 'none'] as const;
/** Sealed session: minimum password length, parts, skew and format version (seed 5). */
export const SEALED_COOKIE_MIN_PASSWORD_LENGTH = 32;
export const SEALED_COOKIE_PARTS = 8;
export const SEALED_COOKIE_SKEW_S = 60;
export const SEALED_COOKIE_FORMAT_VERSION = 2;

/** Key-set (JWKS) fetch: timeout, cooldown between refetches, cache lifetime. */
export const JWKS_FETCH_TIMEOUT_MS = 5000;
export const JWKS_COOLDOWN_MS = 30_000;
export const JWKS_CACHE_MS = 10 * 60_000;
/** Minimum RSA key size in bits. */
export const MIN_RSA_KEY_BITS = 2048;
/** PBES2 iteration count: base and default maximum. */
export const PBES2_ITERATIONS_BASE = 2048;
export const PBES2_ITERATIONS_MAX = 10_000;

/** The loader polls a mounted renderer for its themeSetter this often, up to this long. */
export const THEME_SETTER_POLL_MS = 50;
export const THEME_SETTER_TIMEOUT_MS = 4000;
/** Every script or remote load times out after this long. */
export const ASSET_LOAD_TIMEOUT_MS = 3800;
/** Version of the bundles and of the SDK marker header. */
export const ASSET_VERSION = '7.78.0';
export const SDK_MARKER = `gatehouse-js@${ASSET_VERSION}`;

export const DEFAULT_THEME_NAME = 'modern';
export const DEFAULT_APP_NAME = 'default';

/** Storage key kept verbatim from the seed (a data contract). */
export const SEPARATE_TABS_BY_TENANT_KEY = 'FRONTEGG_SEPARATE_TABS_BY_TENANT';
/** Stored keys (seed 9): after-auth redirect URL, hosted-login PKCE verifier, admin-portal auth-load flag. */
export const AFTER_AUTH_REDIRECT_KEY = 'GATEHOUSE_AFTER_AUTH_REDIRECT_URL';
export const HOSTED_LOGIN_VERIFIER_KEY = 'GATEHOUSE_HOSTED_LOGIN_VERIFIER';
export const ADMIN_PORTAL_AUTH_LOAD_FLAG_KEY = 'GATEHOUSE_ADMIN_PORTAL_AUTH_LOAD';

export const RANDOM_STRING_DEFAULT_LENGTH = 16;
export const BLOOM_FILTER_DEFAULT_ERROR_RATE = 1e-4;
/** Preview-mode simulated latencies. */
export const MOCK_DELAY_SHORT_MS = 200;
export const MOCK_DELAY_LONG_MS = 500;
/** Router data fetch retries on 5xx when server-rendered. */
export const ROUTER_FETCH_RETRIES = 3;
/** Mock password policy defaults. */
export const MOCK_PASSWORD_MIN_LENGTH = 6;
export const MOCK_PASSWORD_MAX_LENGTH = 128;

/** Request headers the API client sets. */
export const SOURCE_HEADER = 'x-gatehouse-source';
export const SDK_HEADER = 'x-gatehouse-sdk';
export const CLIENT_ID_HEADER = 'x-gatehouse-client-id';
/** Query parameter that scopes calls to a tenant (seed 7: "a scoped tenant can come from the tenantId query parameter"). */
export const SCOPED_TENANT_PARAM = 'tenantId';
/** Query parameter carrying the after-login target (seed 2.1). */
export const REDIRECT_URL_PARAM = 'redirectUrl';
/** Refresh the access token this long before it expires. */
export const TOKEN_REFRESH_MARGIN_MS = 30_000;
