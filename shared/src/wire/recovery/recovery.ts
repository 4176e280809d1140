import { z } from 'zod';
import { LoginResponse } from '../auth/auth';

const email = z.string().trim().toLowerCase().email().max(320);
const password = z.string().min(1).max(1024);

/** POST /identity/resources/users/v1/passwords/reset (always 200; a link is emailed only to a known user) */
export const ResetPasswordRequest = z.object({ email, recaptchaToken: z.string().max(4096).optional() });
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;

/** POST /identity/resources/users/v1/passwords/reset/verify: sets the new password and signs the user in (see ResetPasswordVerifyResponse). */
export const ResetPasswordVerifyRequest = z.object({
  userId: z.string().min(1).max(64),
  token: z.string().min(1).max(512),
  password,
});
export type ResetPasswordVerifyRequest = z.infer<typeof ResetPasswordVerifyRequest>;

/**
 * Answer of passwords/reset/verify: a login response as a password sign-in gives it (accessToken and
 * the refresh cookie; or mfaRequired with an mfaToken when MFA is enrolled or enforced), or `{}` when
 * nobody is signed in (the login policy allows no local sign-in, or the account has no tenant to act in).
 */
export const ResetPasswordVerifyResponse = z.union([LoginResponse.passthrough(), z.object({}).strict()]);
export type ResetPasswordVerifyResponse = z.infer<typeof ResetPasswordVerifyResponse>;

/** What the identifier of a v2 recovery request is. */
export const RecoveryIdentifierType = z.enum(['email', 'username', 'phoneNumber']);
export type RecoveryIdentifierType = z.infer<typeof RecoveryIdentifierType>;

/** POST /identity/resources/users/v2/passwords/reset/email and .../reset/sms */
export const ResetPasswordV2Request = z.object({
  identifier: z.string().trim().min(1).max(320),
  identifierType: RecoveryIdentifierType.default('email'),
  recaptchaToken: z.string().max(4096).optional(),
});
export type ResetPasswordV2Request = z.input<typeof ResetPasswordV2Request>;

/**
 * Answer of POST .../v2/passwords/reset/sms. A session id comes back for every identifier, known or
 * not, so the answer never tells whether an account (or its phone number) exists.
 */
export const ResetPasswordSmsResponse = z.object({ sessionId: z.string() });
export type ResetPasswordSmsResponse = z.infer<typeof ResetPasswordSmsResponse>;

/** POST /identity/resources/users/v2/passwords/reset/sms/verify */
export const ResetPasswordSmsVerifyRequest = z.object({
  otcToken: z.string().trim().regex(/^\d{6}$/, 'otcToken must be the 6-digit code'),
  sessionId: z.string().min(1).max(128),
});
export type ResetPasswordSmsVerifyRequest = z.infer<typeof ResetPasswordSmsVerifyRequest>;

/** The right SMS code yields a reset token for POST .../v1/passwords/reset/verify. */
export const ResetPasswordSmsVerifyResponse = z.object({ userId: z.string(), token: z.string() });
export type ResetPasswordSmsVerifyResponse = z.infer<typeof ResetPasswordSmsVerifyResponse>;

/** A password-recovery channel. */
export const RecoveryStrategyName = z.enum(['email', 'sms']);
export type RecoveryStrategyName = z.infer<typeof RecoveryStrategyName>;

/** GET /identity/resources/users/v1/passwords/recovery/strategies (the same for every user, by design). */
export const PasswordRecoveryStrategiesResponse = z.object({
  strategies: z.array(z.object({ strategy: RecoveryStrategyName, isActive: z.boolean() })),
});
export type PasswordRecoveryStrategiesResponse = z.infer<typeof PasswordRecoveryStrategiesResponse>;

/** POST /identity/resources/users/v1/passwords/change (signed in): current and new password. */
export const ChangePasswordRequest = z.object({ password, newPassword: password });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;
