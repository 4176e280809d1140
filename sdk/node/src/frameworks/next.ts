/**
 * Next.js route handlers (App Router), or any Request → Response handler:
 * `export const GET = requireAuth()(async (req, auth) => Response.json({ user: auth.sub }))`.
 */
import { authorize, entitlementRequirement, permissionsRequirement, resolveGuardOptions, type GuardOptions, type Requirement } from '../authorize.js';
import type { AccessTokenClaims } from '../verify/verify-access-token.js';
import { refusalResponse } from './web.js';

/** A route handler that receives the claims: `export const GET = requireAuth()(async (req, auth) => Response.json(auth))`. */
export type AuthedRouteHandler<C> = (req: Request, auth: AccessTokenClaims, context: C) => Response | Promise<Response>;
export type RouteGuard = <C = unknown>(handler: AuthedRouteHandler<C>) => (req: Request, context: C) => Promise<Response>;

function routeGuard(requirement: Requirement, options?: GuardOptions): RouteGuard {
  const resolved = resolveGuardOptions(options);
  return (handler) => async (req, context) => {
    let claims: AccessTokenClaims;
    try {
      claims = await authorize(req.headers.get('authorization'), requirement, resolved);
    } catch (err) {
      return refusalResponse(err);
    }
    return handler(req, claims, context);
  };
}

/** Lets the request through with a valid access token (401 otherwise). */
export const requireAuth = (options?: GuardOptions): RouteGuard => routeGuard({ kind: 'auth' }, options);
/** Needs every permission (wildcards match; super users pass): 401 or 403. */
export const requirePermissions = (permissions: readonly string[], options?: GuardOptions): RouteGuard => routeGuard(permissionsRequirement(permissions), options);
/** Needs the feature in the token's entitlements (super users pass): 401 or 403. */
export const requireEntitlement = (entitlement: { featureKey: string }, options?: GuardOptions): RouteGuard => routeGuard(entitlementRequirement(entitlement), options);

