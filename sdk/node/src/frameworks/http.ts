/**
 * Guards for plain node:http: `http.createServer(requireAuth()((req, res, auth) => ...))`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authorize, entitlementRequirement, permissionsRequirement, resolveGuardOptions, type GuardOptions, type Requirement } from '../authorize.js';
import { errorBody, isGatehouseAuthError } from '../errors.js';
import type { AccessTokenClaims } from '../verify/verify-access-token.js';

export type AuthedHandler = (req: IncomingMessage, res: ServerResponse, auth: AccessTokenClaims) => void | Promise<void>;
export type NodeGuard = (handler: AuthedHandler) => (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Writes a refusal with the Gatehouse error body. */
export function sendRefusal(res: ServerResponse, err: unknown): void {
  if (!isGatehouseAuthError(err)) throw err;
  const body = JSON.stringify(errorBody(err));
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (err.status === 401) headers['www-authenticate'] = 'Bearer';
  res.writeHead(err.status, headers).end(body);
}

function guard(requirement: Requirement, options?: GuardOptions): NodeGuard {
  const resolved = resolveGuardOptions(options);
  return (handler) => async (req, res) => {
    let claims: AccessTokenClaims;
    try {
      claims = await authorize(req.headers.authorization, requirement, resolved);
    } catch (err) {
      sendRefusal(res, err);
      return;
    }
    await handler(req, res, claims);
  };
}

/** Lets the request through with a valid access token (401 otherwise). */
export const requireAuth = (options?: GuardOptions): NodeGuard => guard({ kind: 'auth' }, options);
/** Needs every permission (wildcards match; super users pass): 401 without a valid token, 403 without the permissions. */
export const requirePermissions = (permissions: readonly string[], options?: GuardOptions): NodeGuard => guard(permissionsRequirement(permissions), options);
/** Needs the feature in the token's entitlements (super users pass): 401 or 403. */
export const requireEntitlement = (entitlement: { featureKey: string }, options?: GuardOptions): NodeGuard => guard(entitlementRequirement(entitlement), options);
