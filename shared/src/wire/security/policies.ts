/**
 * Wire schemas of per-tenant security policies (issue 12; seed 001 sections 3 "Security policies",
 * 5, 7 "Security policies GET/POST/PATCH"). Each policy is a body the tenant saves; the vendor's
 * configuration (environment variables) is its floor: a save may only tighten it.
 *
 * Shape of every endpoint:
 * - GET answers the effective policy (vendor floor merged with the tenant's own), with `id` when the
 *   tenant has its own row.
 * - POST and PATCH take the policy body (PATCH: any subset of it). Saving updates when the tenant
 *   has a row, otherwise creates it. `?dryRun=true` answers a PolicyDryRun and saves nothing.
 * - A body that would loosen the vendor's value is refused with 400 and errorCode
 *   SecurityErrorCodes.policyLooserThanVendor, the message naming the vendor's value.
 */
import { z } from 'zod';
import { EnforceMfaTypes, PASSWORD_HISTORY_MAX } from './paths';

export * from './paths';

const seconds = z.number().int().min(0).max(10 * 365 * 86_400);
const days = z.number().int().min(0).max(3650);
/** Present when the tenant has saved its own policy. */
const withId = { id: z.string().optional() };

export const MfaPolicyBody = z.object({
  enforceMFAType: z.enum(EnforceMfaTypes),
  allowRememberMyDevice: z.boolean(),
  /** How long a remembered device skips MFA, seconds. */
  mfaDeviceExpiration: seconds,
}).strict();
export type MfaPolicyBody = z.infer<typeof MfaPolicyBody>;
export const MfaPolicy = MfaPolicyBody.extend(withId);
export type MfaPolicy = z.infer<typeof MfaPolicy>;

export const LockoutPolicyBody = z.object({
  enabled: z.boolean(),
  /** Wrong passwords in a row that lock the account. */
  maxAttempts: z.number().int().min(1).max(100),
}).strict();
export type LockoutPolicyBody = z.infer<typeof LockoutPolicyBody>;
export const LockoutPolicy = LockoutPolicyBody.extend(withId);
export type LockoutPolicy = z.infer<typeof LockoutPolicy>;

export const PasswordHistoryPolicyBody = z.object({
  enabled: z.boolean(),
  /** How many previous passwords a new one may not repeat. */
  historySize: z.number().int().min(1).max(PASSWORD_HISTORY_MAX),
}).strict();
export type PasswordHistoryPolicyBody = z.infer<typeof PasswordHistoryPolicyBody>;
export const PasswordHistoryPolicy = PasswordHistoryPolicyBody.extend(withId);
export type PasswordHistoryPolicy = z.infer<typeof PasswordHistoryPolicy>;

export const PasswordPolicyBody = z.object({
  minLength: z.number().int().min(1).max(128),
  maxLength: z.number().int().min(1).max(1024),
  allowPassphrases: z.boolean(),
  minPhraseLength: z.number().int().min(1).max(128),
  /** How many of lowercase, uppercase, digit, symbol a password must contain (0..4). */
  minOptionalTestsToPass: z.number().int().min(0).max(4),
}).strict();
export type PasswordPolicyBody = z.infer<typeof PasswordPolicyBody>;
export const PasswordPolicy = PasswordPolicyBody.extend(withId);
export type PasswordPolicy = z.infer<typeof PasswordPolicy>;

export const PasswordRotationBody = z.object({
  /** Days a password stays valid; 0: no rotation. The effective period is the smaller non-zero of the vendor's and the tenant's. */
  passwordExpiresIn: days,
  /** Days before expiry from which sign-ins warn. */
  notificationPeriod: days,
}).strict();
export type PasswordRotationBody = z.infer<typeof PasswordRotationBody>;
export const PasswordRotation = PasswordRotationBody.extend(withId);
export type PasswordRotation = z.infer<typeof PasswordRotation>;

export const CaptchaPolicyBody = z.object({
  enabled: z.boolean(),
  /** Lowest reCAPTCHA v3 score accepted, 0.0..1.0. */
  minScore: z.number().min(0).max(1),
}).strict();
export type CaptchaPolicyBody = z.infer<typeof CaptchaPolicyBody>;
export const TenantCaptchaPolicy = CaptchaPolicyBody.extend(withId);
export type TenantCaptchaPolicy = z.infer<typeof TenantCaptchaPolicy>;

export const UserEmailsPolicyBody = z.object({
  allowEmailChange: z.boolean(),
  requireVerifiedEmailForLogin: z.boolean(),
}).strict();
export type UserEmailsPolicyBody = z.infer<typeof UserEmailsPolicyBody>;
export const UserEmailsPolicy = UserEmailsPolicyBody.extend(withId);
export type UserEmailsPolicy = z.infer<typeof UserEmailsPolicy>;

const timeoutSetting = z.object({ isActive: z.boolean(), timeout: z.number().int().min(60).max(365 * 86_400) }).strict();
export const SessionsPolicyBody = z.object({
  /** Ends a session that has not refreshed for `timeout` seconds. */
  sessionIdleTimeoutConfiguration: timeoutSetting,
  /** Forced re-login: ends any session older than `timeout` seconds. */
  sessionTimeoutConfiguration: timeoutSetting,
  /** Revokes the oldest session when a new one would exceed `maxSessions`. */
  sessionConcurrentConfiguration: z.object({ isActive: z.boolean(), maxSessions: z.number().int().min(1).max(100) }).strict(),
}).strict();
export type SessionsPolicyBody = z.infer<typeof SessionsPolicyBody>;
export const SessionsPolicy = SessionsPolicyBody.extend(withId);
export type SessionsPolicy = z.infer<typeof SessionsPolicy>;

/** `?dryRun=true` on every POST/PATCH above. */
export const DryRunQuery = z.object({ dryRun: z.enum(['true', 'false']).optional() });

/** One effect a policy would have once saved, counted from the real data. */
export const PolicyEffect = z.object({
  /** e.g. MFA_ENROLMENT_REQUIRED, SESSIONS_SIGNED_OUT, PASSWORDS_EXPIRED, USERS_LOCKED_OUT. */
  code: z.string(),
  /** How many users or sessions it touches. */
  affected: z.number().int(),
  /** Out of how many (users of the tenant, live sessions), when that reads better. */
  total: z.number().int().optional(),
  /** A sentence for the admin, e.g. "Forcing MFA will ask 14 of 52 users to enrol at their next sign-in." */
  message: z.string(),
});
export type PolicyEffect = z.infer<typeof PolicyEffect>;

/** The answer of a dry run: what would be saved (effective) and what it would do; nothing is saved. */
export const PolicyDryRun = z.object({
  dryRun: z.literal(true),
  policy: z.record(z.string(), z.unknown()),
  effects: z.array(PolicyEffect),
});
export type PolicyDryRun = z.infer<typeof PolicyDryRun>;
