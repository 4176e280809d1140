/**
 * Fresh-authentication rules for security changes (adding or removing a second factor, adding a
 * passkey): a stolen or long-lived session alone must not be enough to change how the account is
 * protected. Read from the caller's access-token claims (auth_time, acr, amr), so no SQL here.
 */
import { ErrorCodes, isSteppedUp } from '@gatehouse/shared/wire';
import { AppError } from '../../errors';
import type { AuthContext } from './auth';

/** How old (seconds) the sign-in or step-up behind a security change may be. */
export const RECENT_AUTH_MAX_AGE_SECONDS = 600;

/** True when the token is stepped up within the window, or its sign-in (auth_time) is. */
export function isRecentlyAuthenticated(ctx: Pick<AuthContext, 'claims'>, now: number): boolean {
  if (isSteppedUp(ctx.claims, { maxAge: RECENT_AUTH_MAX_AGE_SECONDS, now })) return true;
  const authTime = ctx.claims.auth_time;
  return typeof authTime === 'number' && Math.floor(now / 1000) - authTime <= RECENT_AUTH_MAX_AGE_SECONDS;
}

/**
 * A second factor proven within the window. Seed 4.9's step-up (otp, sms or hwk) counts, and so
 * does any other verified factor ('mfa' in amr, e.g. an emailed code): otherwise a user whose only
 * factor is email codes could never add a stronger one.
 */
export function isRecentlySteppedUp(ctx: Pick<AuthContext, 'claims'>, now: number): boolean {
  const { auth_time: authTime, amr } = ctx.claims;
  if (typeof authTime !== 'number' || Math.floor(now / 1000) - authTime > RECENT_AUTH_MAX_AGE_SECONDS) return false;
  return isSteppedUp(ctx.claims, { maxAge: RECENT_AUTH_MAX_AGE_SECONDS, now }) || (Array.isArray(amr) && amr.includes('mfa'));
}

/** An impersonator acts as the user but never changes how the account is protected (no factor or passkey of their own). */
function refuseImpersonation(ctx: Pick<AuthContext, 'claims'>): void {
  if (ctx.claims.act) throw new AppError(ErrorCodes.notWhileImpersonating, 403, 'Not available while impersonating a user');
}

export function requireRecentAuth(ctx: Pick<AuthContext, 'claims'>, now: number): void {
  refuseImpersonation(ctx);
  if (!isRecentlyAuthenticated(ctx, now)) {
    throw new AppError(ErrorCodes.recentAuthRequired, 403, 'Please sign in again to change your security settings', { maxAge: RECENT_AUTH_MAX_AGE_SECONDS });
  }
}

export function requireRecentStepUp(ctx: Pick<AuthContext, 'claims'>, now: number): void {
  refuseImpersonation(ctx);
  if (!isRecentlySteppedUp(ctx, now)) {
    throw new AppError(ErrorCodes.stepUpRequired, 403, 'Please verify with your second factor to change your security settings', { maxAge: RECENT_AUTH_MAX_AGE_SECONDS });
  }
}

/** Adding a factor: recent sign-in for the first one; a recent step-up once the account already has one. */
export function requireFreshAuthForNewFactor(ctx: Pick<AuthContext, 'claims'>, now: number, hasSecondFactor: boolean): void {
  if (hasSecondFactor) requireRecentStepUp(ctx, now);
  else requireRecentAuth(ctx, now);
}
