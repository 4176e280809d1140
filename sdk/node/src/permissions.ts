import type { AccessTokenClaims } from './verify/verify-access-token.js';

/**
 * Whether a granted permission key covers a required one; either may end in `*`
 * (`fe.subscriptions.*`), as on the server.
 */
export function permissionMatches(granted: string, required: string): boolean {
  if (granted === required) return true;
  if (granted.endsWith('*')) return required.startsWith(granted.slice(0, -1));
  if (required.endsWith('*')) return granted.startsWith(required.slice(0, -1));
  return false;
}

/** Whether the token holds every required permission; a super user holds them all. */
export function hasPermissions(claims: AccessTokenClaims, required: readonly string[]): boolean {
  if (claims.superUser === true) return true;
  const granted = Array.isArray(claims.permissions) ? claims.permissions.filter((p): p is string => typeof p === 'string') : [];
  return required.every((r) => granted.some((g) => permissionMatches(g, r)));
}

/**
 * Whether the token's compact entitlements claim grants `featureKey` at `now` (ms): its value is
 * the grant's expiry in ms since the epoch, or -1 for none. A super user is entitled to everything.
 */
export function hasEntitlement(claims: AccessTokenClaims, featureKey: string, now = Date.now()): boolean {
  if (claims.superUser === true) return true;
  const features = claims.entitlements?.f;
  if (typeof features !== 'object' || features === null || !Object.hasOwn(features, featureKey)) return false;
  const expiry = features[featureKey];
  return expiry === -1 || (typeof expiry === 'number' && expiry > now);
}
