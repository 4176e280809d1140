import { createPrivateKey, createPublicKey, sign as signWith, type JsonWebKey as NodeJwk, type KeyObject } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload } from 'jose';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { decrypt, encrypt, newId } from '../../crypto';
import type { Db } from '../../db';
import { insertSigningKey, listPublishedKeys, retireActiveKeys, type SigningKeyRow } from '../../db/queries/signing-keys';
import { JwtRejected, verifyJwt } from './jwt-verify';
import { createSignerThread, type SignerThread, type ThreadSigningKey } from './signer-thread';
import { AUTHORIZATION_CACHE_MAX_TTL_MS, createTtlCache } from './ttl-cache';

/** Access tokens are verified only with these algorithms, never with what a token header claims. */
const ACCEPTED_ALGS = ['ES256', 'RS256'];
/** Other processes sharing the database pick up a rotation within this time. */
const CACHE_MS = 60_000;
/** Key ids are newId() values: 32 lowercase hex characters. */
const KID_FORMAT = /^[0-9a-f]{32}$/;
/** How often a token with an unknown kid may force a re-read of the key set. */
const FORCED_RELOAD_INTERVAL_MS = 5_000;
/** How many verified tokens one process remembers (each at most AUTHORIZATION_CACHE_MAX_TTL_MS). */
const VERIFIED_KEPT = 5_000;
/** Seed 000 section 9: relying parties cache the key set for up to 10 minutes. */
const JWKS_CLIENT_CACHE_MS = 10 * 60_000;

export interface KeyService {
  /** Creates the first key (or one for a newly configured algorithm); called at start. */
  ensureKeys(): Promise<void>;
  /** Makes a new active key; the previous ones stay published until their tokens have expired. */
  rotateKeys(): Promise<string>;
  /** Signs with the active key; `audience` defaults to the API's client id (an ID token names the application). */
  sign(claims: JWTPayload, expiresAt: number, audience?: string): Promise<string>;
  verify(token: string): Promise<JWTPayload>;
  jwks(): Promise<{ keys: JWK[] }>;
}

interface LoadedKey {
  row: SigningKeyRow;
  publicKey: KeyObject;
}

/** The active key, as node:crypto signs with it (jose's WebCrypto path cost several times more per token). */
interface Signer extends ThreadSigningKey {
  alg: string;
}

/** A JWS header {alg, kid, typ}, base64url: the same bytes jose's SignJWT makes, once per key. */
function jwsHeader(alg: string, kid: string): string {
  return Buffer.from(JSON.stringify({ alg, kid, typ: 'JWT' })).toString('base64url');
}

/**
 * On libuv's thread pool (node:crypto's callback form), not on the event loop: under load the main
 * thread is what limits a process, and an ES256 signature cost it about 50 µs of the 250 µs of a
 * token grant (issue 17; an RS256 one about a millisecond).
 */
function signOnPool(signer: Pick<Signer, 'key' | 'header'> & { alg?: string }, payload: string): Promise<string> {
  const input = `${signer.header}.${Buffer.from(payload).toString('base64url')}`;
  return new Promise((resolve, reject) => {
    signWith('sha256', Buffer.from(input), signer.alg === 'RS256' ? signer.key : { key: signer.key, dsaEncoding: 'ieee-p1363' }, (error, signature) => {
      if (error) reject(error);
      else resolve(`${input}.${signature.toString('base64url')}`);
    });
  });
}

/** One signer thread per process, shared by every key service in it (signer-thread.ts); started at the first ES256 token. */
let thread: SignerThread | null = null;

/**
 * A compact JWS (RFC 7515) over `payload` (its JSON text), the same bytes jose's SignJWT makes:
 * the header, the payload, base64url, signed with SHA-256 (ES256 as the raw r||s pair JWS requires).
 * ES256 tokens are signed in batches on the process's signer thread; RS256 ones on the thread pool.
 */
export function signJws(signer: Signer, payload: string): Promise<string> {
  if (signer.alg !== 'ES256') return signOnPool(signer, payload);
  thread ??= createSignerThread(signOnPool);
  return thread.sign(signer, payload);
}

/** What the process's signer thread was given so far (null before its first token). */
export function signerThreadCounts(): ReturnType<SignerThread['counts']> | null {
  return thread?.counts() ?? null;
}

/** Claims every token gets from the key service; a caller's claims of these names are replaced. */
const REGISTERED = ['iss', 'aud', 'iat', 'exp'] as const;

/**
 * The payload's JSON: the caller's claims, then iss, aud, iat and exp, as `JSON.stringify({ ...claims,
 * iss, aud, iat, exp })` writes it. Spreading claims of every shape into a new object took the
 * engine's slow path (3% of a token grant); the caller's claims are serialized as they are and the
 * four appended, unless they hold one of those names.
 */
export function payloadJson(claims: JWTPayload, registered: { iss: string; aud: string | string[]; iat: number; exp: number }): string {
  if (REGISTERED.some((name) => Object.hasOwn(claims, name))) return JSON.stringify({ ...claims, ...registered });
  const own = JSON.stringify(claims);
  const tail = `"iss":${JSON.stringify(registered.iss)},"aud":${JSON.stringify(registered.aud)},"iat":${registered.iat},"exp":${registered.exp}}`;
  return own === '{}' ? `{${tail}` : `${own.slice(0, -1)},${tail}`;
}

export function createKeyService(deps: { db: Db; clock: Clock; config: Pick<Config, 'signingAlg' | 'keyEncryptionKey' | 'publicUrl' | 'clientId' | 'accessTokenTtl'> }): KeyService {
  const { db, clock, config } = deps;
  let lastForcedReload = Number.NEGATIVE_INFINITY;
  let cache: { at: number; keys: LoadedKey[]; signer: Signer | null } | null = null;
  // A token string whose signature and claims passed, for at most 1 s (issue 17): the same token
  // comes back with every call of a page, and its signature check is a quarter of such a call's CPU.
  // The exact string is the key, so nothing but those bytes can hit; the time claims are checked
  // again at every use. Sessions, users and roles behind the token are still read on every call.
  const verified = createTtlCache<string, JWTPayload>({ clock, ttlMs: AUTHORIZATION_CACHE_MAX_TTL_MS, max: VERIFIED_KEPT });

  async function load(force = false) {
    if (!force && cache && clock.now() - cache.at < CACHE_MS) return cache;
    const rows = await listPublishedKeys(db, clock.now());
    const keys = rows.map((row) => ({ row, publicKey: createPublicKey({ key: JSON.parse(row.public_jwk) as NodeJwk, format: 'jwk' }) }));
    const active = rows.find((r) => r.status === 'active' && r.alg === config.signingAlg) ?? rows.find((r) => r.status === 'active');
    const signer = active
      ? {
          kid: active.kid,
          alg: active.alg,
          header: jwsHeader(active.alg, active.kid),
          key: createPrivateKey({ key: JSON.parse(decrypt(active.private_jwk, config.keyEncryptionKey)) as NodeJwk, format: 'jwk' }),
        }
      : null;
    cache = { at: clock.now(), keys, signer };
    return cache;
  }

  async function rotateKeys(): Promise<string> {
    const alg = config.signingAlg;
    const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
    const kid = newId();
    const pub = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
    const priv = JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg });
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      await insertSigningKey(trx, {
        kid,
        alg,
        public_jwk: JSON.stringify(pub),
        private_jwk: config.keyEncryptionKey ? encrypt(priv, config.keyEncryptionKey) : priv,
        status: 'active',
        created_at: now,
        not_after: null,
      });
      // Keep old keys verifiable for as long as a token they signed can live, plus client caching.
      await retireActiveKeys(trx, kid, now + config.accessTokenTtl * 1000 + JWKS_CLIENT_CACHE_MS);
    });
    await load(true);
    return kid;
  }

  return {
    async ensureKeys() {
      const { signer } = await load(true);
      if (!signer || signer.alg !== config.signingAlg) await rotateKeys();
    },
    rotateKeys,
    async sign(claims, expiresAt, audience) {
      let { signer } = await load();
      if (!signer) signer = (await load(true)).signer;
      if (!signer) throw new Error('No active signing key; ensureKeys() was not called.');
      const payload = payloadJson(claims, { iss: config.publicUrl, aud: audience ?? config.clientId, iat: Math.floor(clock.now() / 1000), exp: Math.floor(expiresAt / 1000) });
      return signJws(signer, payload);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        const now = Math.floor(clock.now() / 1000);
        if ((known.exp as number) <= now) throw new JwtRejected('expired ("exp")');
        if (typeof known.nbf === 'number' && known.nbf > now) throw new JwtRejected('not valid yet ("nbf")');
        return known;
      }
      const claims = await verifyJwt(
        token,
        async (header) => {
          if (typeof header.kid !== 'string' || !KID_FORMAT.test(header.kid)) throw new Error('malformed kid');
          const find = (c: Awaited<ReturnType<typeof load>>) => c.keys.find((k) => k.row.kid === header.kid && k.row.alg === header.alg);
          // An unknown kid may be a key another process just created, so the key set is re-read;
          // at most once per interval, or forged kids would make every request hit the database.
          let hit = find(await load());
          if (!hit && clock.now() - lastForcedReload >= FORCED_RELOAD_INTERVAL_MS) {
            lastForcedReload = clock.now();
            hit = find(await load(true));
          }
          if (!hit) throw new Error('unknown kid');
          return hit.publicKey;
        },
        { issuer: config.publicUrl, audience: config.clientId, algorithms: ACCEPTED_ALGS, now: clock.now() },
      );
      verified.set(token, Object.freeze(claims));
      return claims;
    },
    async jwks() {
      const { keys } = await load();
      return { keys: keys.map((k) => JSON.parse(k.row.public_jwk) as JWK) };
    },
  };
}
