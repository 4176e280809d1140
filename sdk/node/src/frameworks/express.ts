/**
 * Express middleware: `app.get('/reports', requirePermissions(['reports.read']), handler)`; the
 * handler finds the claims at `req.auth`. Typed structurally, so Express 4 and 5 both fit and the
 * package does not depend on Express.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authorize, entitlementRequirement, permissionsRequirement, resolveGuardOptions, type GuardOptions, type Requirement } from '../authorize.js';
import type { AccessTokenClaims } from '../verify/verify-access-token.js';
import { sendRefusal } from './http.js';

export type ExpressMiddleware = (req: IncomingMessage & { auth?: AccessTokenClaims }, res: ServerResponse, next: (err?: unknown) => void) => Promise<void>;

function guard(requirement: Requirement, options?: GuardOptions): ExpressMiddleware {
  const resolved = resolveGuardOptions(options);
  return async (req, res, next) => {
    try {
      req.auth = await authorize(req.headers.authorization, requirement, resolved);
    } catch (err) {
      try {
        sendRefusal(res, err);
      } catch (other) {
        next(other);
      }
      return;
    }
    next();
  };
}

/** Lets the request through with a valid access token (401 otherwise); the claims are at `req.auth`. */
export const requireAuth = (options?: GuardOptions): ExpressMiddleware => guard({ kind: 'auth' }, options);
/** Needs every permission (wildcards match; super users pass): 401 or 403. */
export const requirePermissions = (permissions: readonly string[], options?: GuardOptions): ExpressMiddleware => guard(permissionsRequirement(permissions), options);
/** Needs the feature in the token's entitlements (super users pass): 401 or 403. */
export const requireEntitlement = (entitlement: { featureKey: string }, options?: GuardOptions): ExpressMiddleware => guard(entitlementRequirement(entitlement), options);
