/**
 * Error codes of the identity API. Defined once here; the server maps them to the error body
 * `{ errors, errorCode, errorContext }` and the browser shows the message it receives.
 * Plain data, no zod: the browser may import this file.
 */
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
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

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
