/**
 * Error codes of the identity API. Defined once here; the server maps them to the error body
 * `{ errors, errorCode, errorContext }` and the browser shows the message it receives.
 * Plain data, no zod: the browser may import this file.
 */
import type { AdminErrorCode } from './admin/error-codes';
import type { PhoneErrorCode } from './recovery/error-codes';
import type { SecurityErrorCode } from './security/paths';
import type { SelfServiceErrorCode } from './users/self-service-paths';
import type { BillingErrorCode } from './billing/paths';
import type { OperatorErrorCode } from './operator/paths';
import type { ApplicationErrorCode } from './applications/paths';
import type { ProvisioningErrorCode } from './provisioning/paths';
import type { ChannelErrorCode } from './connectivity/channel-paths';

export const ErrorCodes = {
  generic: 'ER-ADMIN-PORTAL-GENERIC-ERROR',
  validation: 'ER-01001',
  notFound: 'ER-01002',
  payloadTooLarge: 'ER-01003',
  unauthorized: 'ER-01004',
  forbidden: 'ER-01005',
  invalidCredentials: 'ER-01006',
  userNotVerified: 'ER-01007',
  userAlreadyExists: 'ER-01008',
  invalidActivationToken: 'ER-01009',
  passwordPolicy: 'ER-01010',
  invalidRefreshToken: 'ER-01011',
  refreshTokenReused: 'ER-01012',
  originNotAllowed: 'ER-01013',
  tenantNotFound: 'ER-01014',
  signUpDisabled: 'ER-01015',
  metadataNotFound: 'ER-01016',
  invalidImage: 'ER-01017',
  userDisabled: 'ER-01018',
  rateLimited: 'ER-01019',
  /** A unique rule refused the write (e.g. two identical creates at once) and no more specific code applies. */
  alreadyExists: 'ER-01020',
  // Passkeys (WebAuthn): numbered apart so parallel additions above never collide.
  passkeyVerificationFailed: 'ER-01201',
  passkeyChallengeInvalid: 'ER-01202',
  passkeyNotFound: 'ER-01203',
  // MFA and step-up (a range of their own, so parallel additions never collide)
  invalidMfaCode: 'ER-01301',
  invalidMfaToken: 'ER-01302',
  noMfaEnrolled: 'ER-01303',
  mfaAlreadyEnrolled: 'ER-01304',
  invalidRecoveryCode: 'ER-01305',
  /** A security change (enrolling or removing a factor, adding a passkey) needs a sign-in within the last 10 minutes. */
  recentAuthRequired: 'ER-01306',
  /** A security change on an account that already has a second factor needs a recent step-up with it. */
  stepUpRequired: 'ER-01307',
  /** The MFA method is turned off in the vendor's MFA strategies config. */
  mfaStrategyNotActive: 'ER-01308',
  /** Reset phone number and phone change: a wrong, expired or used code. */
  invalidPhoneCode: 'ER-01309',
  // Password recovery and change (a range of their own, so parallel additions never collide)
  invalidResetToken: 'ER-01401',
  invalidResetCode: 'ER-01402',
  invalidCurrentPassword: 'ER-01403',
  // Password policies: lockout, rotation, breached passwords (a range of their own)
  accountLocked: 'ER-01601',
  invalidUnlockToken: 'ER-01602',
  breachedPassword: 'ER-01603',
  // Passwordless sign-in and the login policy (a range of their own, so parallel additions never collide)
  invalidMagicLink: 'ER-01501',
  invalidPasswordlessCode: 'ER-01502',
  localLoginDisabled: 'ER-01503',
  passwordlessNotEnabled: 'ER-01504',
  // Invitations and impersonation (ER-011xx, after migration 011, so parallel additions never collide)
  invalidInvitation: 'ER-01101',
  invalidInvitationCode: 'ER-01102',
  invitationCodeRequired: 'ER-01103',
  alreadyTenantMember: 'ER-01104',
  roleNotGrantable: 'ER-01105',
  invalidImpersonationToken: 'ER-01106',
  impersonationRefused: 'ER-01107',
  notWhileImpersonating: 'ER-01108',
  // SMS sign-in and sign-up strategies (ER-009xx, after migration 009, so parallel additions never collide)
  /** Sign-up by email or by phone number is turned off (SIGNUP_EMAIL / SIGNUP_PHONE_NUMBER). */
  signUpStrategyDisabled: 'ER-00901',
  // Captcha policy (ER-019xx: 012xx is the passkeys' range, so parallel additions never collide)
  /** A captcha policy is set and the call carried no recaptchaToken. */
  captchaRequired: 'ER-01901',
  /** The token was refused: invalid, expired or reused, a low score, another action or another site. */
  captchaFailed: 'ER-01902',
  /** The captcha verify URL could not answer; the call is refused (fails closed). */
  captchaUnavailable: 'ER-01903',
  // Social login (ER-022xx: the 014xx range is password recovery's, so parallel additions never collide)
  /** The provider's answer failed a check (state, nonce, PKCE, ID token, replay) or the exchange failed: 'Failed to authenticate'. */
  socialLoginFailed: 'ER-02201',
  /** The provider is not configured or is turned off. */
  socialProviderNotEnabled: 'ER-02202',
  /** The provider does not vouch for the email address, so it neither signs in to an account nor creates one. */
  socialEmailNotVerified: 'ER-02203',
  /** The provider shared no email address. */
  socialEmailMissing: 'ER-02204',
  /** redirectUri is not an http(s) URL on an allowed origin. */
  invalidSocialRedirectUri: 'ER-02205',
  // Enterprise SSO (ER-021xx, a range of its own for migration 015, so parallel additions never collide)
  /** No SSO applies to the identifier (preLogin goes on to the password step). */
  ssoNotConfigured: 'ER-02101',
  /** An SSO sign-in was refused ('Failed to authenticate', seed 000 section 8); the reason is only logged. */
  ssoFailed: 'ER-02102',
  /** Domain validation: the DNS TXT record was not found. */
  ssoDomainNotVerified: 'ER-02103',
  /** Another SSO configuration already owns this validated domain. */
  ssoDomainTaken: 'ER-02104',
  /** The IdP's SAML metadata (file or URL) could not be read or lacks what sign-in needs. */
  ssoInvalidMetadata: 'ER-02105',
  /** The configuration is not ready for this (e.g. signRequest without an SP signing key). */
  ssoConfigurationInvalid: 'ER-02106',
  // Hosted login, the OAuth 2.0 / OIDC authorization server (ER-023xx, a range of its own for migration 013)
  /** client_id is missing or not a registered application. */
  oauthInvalidClient: 'ER-02301',
  /** redirect_uri (or post_logout_redirect_uri) is not registered for the client: refused, never redirected to. */
  oauthInvalidRedirectUri: 'ER-02302',
  /** Silent authorization: the browser has no Gatehouse session (seed 4.10: hosted login then redirects to authorize). */
  oauthLoginRequired: 'ER-02303',
  /** The access token belongs to an application's grant, not to a browser session signed in on the hosted page. */
  oauthNotBrowserSession: 'ER-02304',
} as const;

/** Every code: the ones above, and the admin codes of admin/error-codes.ts and recovery/error-codes.ts (kept apart so the login box does not carry them). */
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes] | AdminErrorCode | PhoneErrorCode | SelfServiceErrorCode | SecurityErrorCode | BillingErrorCode | OperatorErrorCode | ProvisioningErrorCode | ApplicationErrorCode | ChannelErrorCode;

/** The error body every failed API call returns (DESIGN.md "Contracts"). */
export interface ErrorBody {
  errors: string[];
  errorCode?: string;
  errorContext?: Record<string, unknown>;
}

/** Name of the response header that carries the request's trace id. */
export const TRACE_ID_HEADER = 'x-trace-id';

/** The seeds' generic user-facing message. */
export const GENERIC_ERROR_MESSAGE = "We're facing some difficulties, Please try again";
