import { GatehouseAuthError } from './errors.js';
import { hasEntitlement, hasPermissions } from './permissions.js';
import { verifyAccessToken, type AccessTokenClaims, type VerifyOptions } from './verify/verify-access-token.js';

/** What a guard asks of a request beyond a valid access token. */
export type Requirement =
  | { kind: 'auth' }
  | { kind: 'permissions'; permissions: readonly string[] }
  | { kind: 'entitlement'; featureKey: string };

/** Where the middleware finds the server: options, else GATEHOUSE_BASE_URL and GATEHOUSE_CLIENT_ID. */
export type GuardOptions = Partial<VerifyOptions>;

/** The server options of a guard, read once when the guard is built so misconfiguration fails at start. */
export function resolveGuardOptions(options: GuardOptions = {}, env: Record<string, string | undefined> = process.env): VerifyOptions {
  const baseUrl = options.baseUrl ?? env.GATEHOUSE_BASE_URL;
  const clientId = options.clientId ?? env.GATEHOUSE_CLIENT_ID;
  if (!baseUrl) throw new Error('Gatehouse middleware: set GATEHOUSE_BASE_URL (the Gatehouse server URL) or pass baseUrl.');
  if (!clientId) throw new Error('Gatehouse middleware: set GATEHOUSE_CLIENT_ID (the Gatehouse client id) or pass clientId.');
  return { ...options, baseUrl, clientId };
}

/** The bearer token of an Authorization header value, or '' when there is none. */
export function bearerToken(authorization: string | string[] | null | undefined): string {
  const value = Array.isArray(authorization) ? authorization[0] : authorization;
  const match = typeof value === 'string' ? /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)[ ]*$/i.exec(value) : null;
  return match ? match[1]! : '';
}

/** Checks a request's Authorization header against a requirement: the claims, or a GatehouseAuthError (401 or 403). */
export async function authorize(authorization: string | string[] | null | undefined, requirement: Requirement, options: VerifyOptions): Promise<AccessTokenClaims> {
  const token = bearerToken(authorization);
  if (!token) throw new GatehouseAuthError(401, 'Sign in first: send an access token as Authorization: Bearer <token>.');
  const claims = await verifyAccessToken(token, options);
  if (requirement.kind === 'permissions' && !hasPermissions(claims, requirement.permissions)) {
    throw new GatehouseAuthError(403, 'You do not have the permission this needs.');
  }
  if (requirement.kind === 'entitlement' && !hasEntitlement(claims, requirement.featureKey, options.now?.())) {
    throw new GatehouseAuthError(403, 'Your plan does not include this feature.');
  }
  return claims;
}

/** Checks the arguments of requirePermissions when it is called, not at the first request. */
export function permissionsRequirement(permissions: readonly string[]): Requirement {
  if (!Array.isArray(permissions) || permissions.length === 0 || permissions.some((p) => typeof p !== 'string' || !p)) {
    throw new TypeError('requirePermissions: pass a non-empty array of permission keys, e.g. ["fe.secure.read.users"].');
  }
  return { kind: 'permissions', permissions: [...permissions] };
}

/** Checks the arguments of requireEntitlement when it is called. */
export function entitlementRequirement(options: { featureKey: string }): Requirement {
  if (typeof options?.featureKey !== 'string' || !options.featureKey) throw new TypeError('requireEntitlement: pass { featureKey }.');
  return { kind: 'entitlement', featureKey: options.featureKey };
}
