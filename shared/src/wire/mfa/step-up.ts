/**
 * Seed 000 section 4.9: when a user counts as stepped up. Pure and plain (no zod), so the browser
 * store, the login box and the server all ask the same question the same way.
 */
import { AuthContextClasses, AuthMethods } from '../auth/claims';

/** The claims the rule reads (a subset of AccessTokenClaims). */
export interface StepUpClaims {
  acr?: string;
  amr?: readonly string[];
  auth_time?: number;
}

/** Second factors that count for step-up: one-time password, SMS, hardware key. */
export const STEP_UP_METHODS: readonly string[] = [AuthMethods.otp, AuthMethods.sms, AuthMethods.hardwareKey];

/**
 * True when `acr` is the multi-factor policy identifier, `amr` has `mfa` and one of otp/sms/hwk,
 * and (when `maxAge` seconds is given and `auth_time` is present) the authentication is no older than it.
 */
export function isSteppedUp(claims: StepUpClaims | null | undefined, options: { maxAge?: number; now?: number } = {}): boolean {
  if (!claims || claims.acr !== AuthContextClasses.mfa) return false;
  const amr = claims.amr ?? [];
  if (!amr.includes(AuthMethods.mfa) || !amr.some((m) => STEP_UP_METHODS.includes(m))) return false;
  if (options.maxAge !== undefined && typeof claims.auth_time === 'number') {
    const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
    if (nowSeconds - claims.auth_time > options.maxAge) return false;
  }
  return true;
}
