import { verify as verifySignature, type KeyObject } from 'node:crypto';
import type { JWTPayload } from 'jose';

/** A JWS protected header as it arrived: only `alg` is known to be a string. */
export interface JwsHeader {
  alg: string;
  kid?: unknown;
  [parameter: string]: unknown;
}

export interface JwtVerifyOptions {
  /** The algorithms accepted, whatever the header claims (ES256 and RS256 are known). */
  algorithms: readonly string[];
  issuer: string;
  audience: string;
  /** The current time, in milliseconds. */
  now: number;
}

/** Why a token was refused; callers answer every one the same way (401). */
export class JwtRejected extends Error {}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** The key type and curve each accepted algorithm needs. */
const KEY_FOR_ALG: Record<string, { type: string; curve?: string }> = { ES256: { type: 'ec', curve: 'prime256v1' }, RS256: { type: 'rsa' } };

function segment(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new JwtRejected(`${what} is not JSON`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new JwtRejected(`${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

function numericDate(claims: Record<string, unknown>, name: string, required: boolean): number | undefined {
  const value = claims[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new JwtRejected(`"${name}" must be a number`);
  return value;
}

/**
 * Checks the signature on libuv's thread pool (node:crypto's callback form), off the event loop, as
 * tokens are signed (keys.ts). A key or signature the library cannot work with counts as invalid.
 */
function signatureHolds(input: Buffer, key: KeyObject | { key: KeyObject; dsaEncoding: 'ieee-p1363' }, signature: Buffer): Promise<boolean> {
  return new Promise((resolve) => verifySignature('sha256', input, key, signature, (error, valid) => resolve(!error && valid)));
}

/**
 * Verifies a compact JWS JWT with node:crypto (jose's jwtVerify goes through WebCrypto, about twice
 * the CPU per token) and checks its claims as jose would, with no clock tolerance: an accepted
 * algorithm named by the header and matched by the key, no `crit` and no unencoded payload, a valid
 * signature, then `iss` equal to the issuer, `aud` naming the audience, a numeric `exp` in the
 * future (required: every token this server signs has one), `nbf` not in the future, a numeric `iat`.
 */
export async function verifyJwt(token: string, keyFor: (header: JwsHeader) => Promise<KeyObject>, options: JwtVerifyOptions): Promise<JWTPayload> {
  const parts = typeof token === 'string' ? token.split('.') : [];
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) throw new JwtRejected('not a compact JWS');
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];

  const header = segment(encodedHeader, 'header');
  const alg = header.alg;
  if (typeof alg !== 'string' || !options.algorithms.includes(alg) || !KEY_FOR_ALG[alg]) throw new JwtRejected('algorithm not accepted');
  if (header.crit !== undefined) throw new JwtRejected('no critical header parameter is understood');
  if (header.b64 !== undefined && header.b64 !== true) throw new JwtRejected('unencoded payloads are not accepted');

  const key = await keyFor(header as JwsHeader);
  const needed = KEY_FOR_ALG[alg];
  if (key.type !== 'public' || key.asymmetricKeyType !== needed.type || (needed.curve && key.asymmetricKeyDetails?.namedCurve !== needed.curve)) {
    throw new JwtRejected('key does not fit the algorithm');
  }
  const signature = Buffer.from(encodedSignature, 'base64url');
  const input = Buffer.from(`${encodedHeader}.${encodedPayload}`);
  const valid = (alg !== 'ES256' || signature.length === 64) && (await signatureHolds(input, alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key, signature));
  if (!valid) throw new JwtRejected('signature verification failed');

  const claims = segment(encodedPayload, 'claims');
  if (claims.iss !== options.issuer) throw new JwtRejected('unexpected "iss"');
  const aud = claims.aud;
  if (!(aud === options.audience || (Array.isArray(aud) && aud.includes(options.audience)))) throw new JwtRejected('unexpected "aud"');
  const now = Math.floor(options.now / 1000);
  numericDate(claims, 'iat', false);
  const nbf = numericDate(claims, 'nbf', false);
  if (nbf !== undefined && nbf > now) throw new JwtRejected('not valid yet ("nbf")');
  const exp = numericDate(claims, 'exp', true)!;
  if (exp <= now) throw new JwtRejected('expired ("exp")');
  return claims as JWTPayload;
}
