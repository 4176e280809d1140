/**
 * @gatehouse/node: verify Gatehouse access tokens, guard routes (node:http, Express, Hono,
 * Next.js), check the environment at start-up, and get machine-to-machine tokens.
 */
export { verifyAccessToken, type AccessTokenClaims, type VerifyOptions } from './verify/verify-access-token.js';
export { JWKS_CACHE_MS, JWKS_COOLDOWN_MS, JWKS_FETCH_TIMEOUT_MS, MIN_RSA_BITS, type FetchLike } from './verify/key-set.js';
export { GatehouseAuthError, isGatehouseAuthError, NodeErrorCodes, type NodeErrorCode } from './errors.js';
export { hasEntitlement, hasPermissions, permissionMatches } from './permissions.js';
export { authorize, bearerToken, type GuardOptions, type Requirement } from './authorize.js';
export { checkEnvironment, EnvVars, GatehouseEnvironmentError, type EnvironmentCheckOptions, type GatehouseEnvironment } from './env.js';
export { ClientCredentialsError, createClientCredentialsClient, type ClientCredentialsClient, type ClientCredentialsOptions } from './m2m.js';
export * as http from './frameworks/http.js';
export * as express from './frameworks/express.js';
export * as hono from './frameworks/hono.js';
export * as next from './frameworks/next.js';
// The sealed session cookie (iron format 2) and the API proxy.
export * from './session/index.js';
export * from './proxy/index.js';
