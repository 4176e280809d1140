import { decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { GatehouseAuthError } from '../errors.js';
import { ACCEPTED_ALGS, KeySet, type FetchLike } from './key-set.js';

/** The claims of a Gatehouse access token (the server's `services/auth/auth.ts`). */
export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  tenantId: string;
  tenantIds?: string[];
  email?: string;
  email_verified?: boolean;
  name?: string;
  roles?: string[];
  permissions?: string[];
  superUser?: boolean;
  /** Compact entitlements: `{ f: { [featureKey]: expireTime } }`, -1 = no expiry. */
  entitlements?: { f?: Record<string, number> };
  amr?: string[];
  acr?: string;
  auth_time?: number;
  sid?: string;
  /** Set on a client-credentials token: the API token's client id. */
  azp?: string;
  /** Set while impersonating (RFC 8693): the impersonator. */
  act?: { sub: string; email?: string };
}

export interface VerifyOptions {
  /** The Gatehouse server's public URL (its GATEHOUSE_PUBLIC_URL): the tokens' issuer and where its key set is. */
  baseUrl: string;
  /** The Gatehouse server's client id (its GATEHOUSE_CLIENT_ID): the audience of every access token it signs. */
  clientId: string;
  /** Replaces the global fetch for the key set (a proxy agent, a test). */
  fetch?: FetchLike;
  /** Milliseconds since the epoch, for expiry and the key-set timings; replaceable in tests. */
  now?: () => number;
}

/** Tolerance for clocks that disagree, on `exp`, `nbf` and `iat`. */
const CLOCK_TOLERANCE_S = 5;

/** Stands for the global fetch in `keySets`. */
const GLOBAL_FETCH = {};
/** Key sets by fetch function, then by URL: one per server and fetch, for the whole process. */
const keySets = new WeakMap<object, Map<string, KeySet>>();

/** The issuer a base URL stands for: the server's public URL has no trailing slash. */
export function issuerOf(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/**
 * The key set of one server, shared by every verification in the process for that server (and
 * that fetch), so its cache and cooldown hold across requests.
 */
export function keySetFor(options: Pick<VerifyOptions, 'baseUrl' | 'fetch' | 'now'>): KeySet {
  const url = `${issuerOf(options.baseUrl)}/.well-known/jwks.json`;
  const owner = options.fetch ?? GLOBAL_FETCH;
  let byUrl = keySets.get(owner);
  if (!byUrl) keySets.set(owner, (byUrl = new Map()));
  let set = byUrl.get(url);
  if (!set) byUrl.set(url, (set = new KeySet({ url, fetch: options.fetch, now: options.now })));
  return set;
}

/**
 * Verifies a Gatehouse access token: signature by a key of the server's key set (by `kid`, ES256 or
 * RS256 with at least 2048 bits), issuer `baseUrl`, audience `clientId`, not expired, and an access
 * token (it names a tenant), not an ID token. Resolves to its claims; rejects with a
 * GatehouseAuthError whose `status` is 401.
 */
export async function verifyAccessToken(token: string, options: VerifyOptions): Promise<AccessTokenClaims> {
  if (typeof options?.baseUrl !== 'string' || !options.baseUrl) throw new TypeError('verifyAccessToken: baseUrl (the Gatehouse server URL) is required.');
  if (typeof options.clientId !== 'string' || !options.clientId) throw new TypeError('verifyAccessToken: clientId (the Gatehouse client id) is required.');
  if (typeof token !== 'string' || token.length === 0) throw new GatehouseAuthError(401, 'No access token was sent.');
  const keySet = keySetFor(options);
  let payload: JWTPayload;
  try {
    const header = decodeProtectedHeader(token);
    if (typeof header.kid !== 'string' || typeof header.alg !== 'string') throw new Error('The token header has no kid or alg.');
    const key = await keySet.keyFor(header.kid, header.alg);
    if (!key) throw new Error('The token was signed by a key the server does not publish.');
    ({ payload } = await jwtVerify(token, key, {
      issuer: issuerOf(options.baseUrl),
      audience: options.clientId,
      algorithms: [...ACCEPTED_ALGS],
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ['exp', 'sub'],
      ...(options.now ? { currentDate: new Date(options.now()) } : {}),
    }));
  } catch (err) {
    throw new GatehouseAuthError(401, 'The access token is not valid.', { cause: err });
  }
  // An ID token carries the same issuer and key, and the application's client id as audience; only
  // access tokens name a tenant.
  if (typeof payload.tenantId !== 'string') throw new GatehouseAuthError(401, 'The token is not an access token.');
  return payload as AccessTokenClaims;
}
