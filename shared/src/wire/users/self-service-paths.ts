/**
 * Paths and error codes of the account self-service calls (issue 11; seed 000 sections 2.1, 7.3),
 * without zod: the login box, the admin portal's profile and privacy sections and the server's
 * routes share them. Apart from ApiPaths and ErrorCodes so the first load of the login box does
 * not carry them.
 */
export const SelfServicePaths = {
  /** POST { email }: asks to change the signed-in user's email; the new address gets a link and a code. */
  changeEmail: '/identity/resources/users/v1/email/me',
  /** POST { token } (the emailed link, signed in or not) or { code } (signed in): the new address replaces the old one. */
  verifyEmailChange: '/identity/resources/users/v1/email/me/verify',
  /** POST { email or userId, code, password? }: activation by the code printed in the activation email (activateWithOTCUrl). */
  activateWithCode: '/identity/resources/users/v1/activate/code',
  /** POST: a new set of recovery codes (needs MFA enrolled and a recent step-up). */
  regenerateRecoveryCodes: '/identity/resources/users/v1/mfa/recovery-codes',
} as const;

/** The login-box route the email-change link opens (with ?token=). */
export const VERIFY_EMAIL_CHANGE_ROUTE = '/account/email/verify';

/** Error codes of the self-service calls (ER-027xx, a range of their own). */
export const SelfServiceErrorCodes = {
  /** The new address belongs to another account (which one is never said). */
  emailTaken: 'ER-02701',
  /** The email-change link or code is wrong, used, expired or out of attempts. */
  invalidEmailChange: 'ER-02702',
  /** The new address is the account's current one. */
  sameEmail: 'ER-02703',
  /** The activation code is wrong, used, expired or out of attempts (no answer tells which). */
  invalidActivationCode: 'ER-02704',
} as const;

export type SelfServiceErrorCode = (typeof SelfServiceErrorCodes)[keyof typeof SelfServiceErrorCodes];
