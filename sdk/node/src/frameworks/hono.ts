/**
 * Hono middleware: `app.use('/api/*', requireAuth())`; the claims are `c.get('auth')`. Hono is
 * typed structurally, so the package does not depend on it.
 */
import { authorize, entitlementRequirement, permissionsRequirement, resolveGuardOptions, type GuardOptions, type Requirement } from '../authorize.js';
import type { AccessTokenClaims } from '../verify/verify-access-token.js';
import { refusalResponse } from './web.js';

/** What the Hono middleware uses of Hono's context. */
export interface HonoContextLike {
  req: { raw: Request };
  set(key: 'auth', value: AccessTokenClaims): void;
}
export type HonoMiddleware = (c: HonoContextLike, next: () => Promise<void>) => Promise<Response | void>;

function honoGuard(requirement: Requirement, options?: GuardOptions): HonoMiddleware {
  const resolved = resolveGuardOptions(options);
  return async (c, nextHandler) => {
    try {
      c.set('auth', await authorize(c.req.raw.headers.get('authorization'), requirement, resolved));
    } catch (err) {
      return refusalResponse(err);
    }
    await nextHandler();
  };
}

/** Lets the request through with a valid access token (401 otherwise). */
export const requireAuth = (options?: GuardOptions): HonoMiddleware => honoGuard({ kind: 'auth' }, options);
/** Needs every permission (wildcards match; super users pass): 401 or 403. */
export const requirePermissions = (permissions: readonly string[], options?: GuardOptions): HonoMiddleware => honoGuard(permissionsRequirement(permissions), options);
/** Needs the feature in the token's entitlements (super users pass): 401 or 403. */
export const requireEntitlement = (entitlement: { featureKey: string }, options?: GuardOptions): HonoMiddleware => honoGuard(entitlementRequirement(entitlement), options);
