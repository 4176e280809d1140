/**
 * Seed 000 section 4.9, read from the access token's claims: when a user counts as stepped up.
 * For what the page shows only: the server checks the token itself for anything it protects.
 * Written out here (the published SDK depends on no private package); step-up.test.ts checks it
 * answers as the browser core's rule does.
 */

/** The `acr` of a token signed in with a second factor (the "multi-factor policy identifier"). */
export const MULTI_FACTOR_ACR = 'urn:gatehouse:acr:mfa';
/** Second factors that count for step-up: one-time password, SMS, hardware key. */
export const STEP_UP_METHODS: readonly string[] = ['otp', 'sms', 'hwk'];

/** The claims the rule reads. */
export interface StepUpClaims {
  acr?: unknown;
  amr?: unknown;
  auth_time?: unknown;
}

/** The payload of a JWT, unverified; null for anything that is not one. */
export function tokenClaims(token: string | null | undefined): StepUpClaims | null {
  const part = token?.split('.')[1];
  if (!part) return null;
  try {
    const binary = atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '='));
    const claims: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims) ? (claims as StepUpClaims) : null;
  } catch {
    return null;
  }
}

/**
 * True when `acr` is the multi-factor identifier, `amr` has `mfa` and one of otp, sms or hwk, and
 * (with `maxAge` seconds, when `auth_time` is present) the authentication is no older than `maxAge`.
 */
export function isSteppedUp(claims: StepUpClaims | null | undefined, options: { maxAge?: number; now?: number } = {}): boolean {
  if (!claims || claims.acr !== MULTI_FACTOR_ACR || !Array.isArray(claims.amr)) return false;
  const amr = claims.amr as unknown[];
  if (!amr.includes('mfa') || !amr.some((m) => typeof m === 'string' && STEP_UP_METHODS.includes(m))) return false;
  if (options.maxAge !== undefined && typeof claims.auth_time === 'number') {
    const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
    if (nowSeconds - claims.auth_time > options.maxAge) return false;
  }
  return true;
}

/** When (epoch ms) a stepped-up token stops counting for `maxAge`, or null when it never does by age. */
export function stepUpExpiresAt(claims: StepUpClaims | null | undefined, maxAge: number | undefined): number | null {
  if (maxAge === undefined || typeof claims?.auth_time !== 'number') return null;
  return (claims.auth_time + maxAge + 1) * 1000;
}
