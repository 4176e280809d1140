import { importJWK, type CryptoKey, type JWK } from 'jose';

/** Seed 000 section 9: key-set fetch timeout. */
export const JWKS_FETCH_TIMEOUT_MS = 5000;
/** Seed 000 section 9: a token with an unknown `kid` may cause a fetch at most this often. */
export const JWKS_COOLDOWN_MS = 30_000;
/** Seed 000 section 9: the key set is fetched again after this long. */
export const JWKS_CACHE_MS = 10 * 60_000;
/** Seed 000 section 9: RSA keys smaller than this are refused. */
export const MIN_RSA_BITS = 2048;

/** Algorithms the Gatehouse server signs access tokens with; a token header naming another is refused. */
export const ACCEPTED_ALGS = ['ES256', 'RS256'] as const;

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface KeySetOptions {
  /** Where the key set is: `${baseUrl}/.well-known/jwks.json`. */
  url: string;
  /** Replaces the global fetch (a proxy agent, a test counting requests). */
  fetch?: FetchLike;
  /** Milliseconds since the epoch; replaceable in tests. */
  now?: () => number;
}

interface Loaded {
  at: number;
  keys: Map<string, { alg: string; key: CryptoKey }>;
}

/**
 * The server's published keys, by `kid`. The set is read at the first verification, again once
 * it is 10 minutes old, and again for a `kid` it does not hold, but such reads happen at most
 * once per 30 s, so a flood of tokens with made-up `kid`s cannot turn into a flood of fetches.
 * The cooldown counts from the last read an unknown `kid` caused, not from the scheduled reads:
 * a key the server made just after a scheduled read is still picked up by its first token.
 * Concurrent callers share one read.
 */
export class KeySet {
  private loaded: Loaded | null = null;
  private inflight: Promise<Loaded> | null = null;
  private lastUnknownKidFetch = Number.NEGATIVE_INFINITY;
  /** After a failed scheduled re-read: the held keys are used until then. */
  private retryAt = Number.NEGATIVE_INFINITY;
  /** Number of key-set requests made (successful or not). */
  fetches = 0;

  constructor(private readonly options: KeySetOptions) {}

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  /** The key for a token header, or null when the server does not publish it. */
  async keyFor(kid: string, alg: string): Promise<CryptoKey | null> {
    let set = this.loaded && (this.now() - this.loaded.at < JWKS_CACHE_MS || this.now() < this.retryAt) ? this.loaded : await this.refresh();
    let hit = set.keys.get(kid);
    // A read under way (another caller's unknown kid, the same new key) or just finished may hold it.
    if (!hit && this.inflight) hit = (set = await this.inflight).keys.get(kid);
    if (!hit && this.loaded && this.loaded !== set) hit = (set = this.loaded).keys.get(kid);
    if (!hit && this.now() - this.lastUnknownKidFetch >= JWKS_COOLDOWN_MS) {
      this.lastUnknownKidFetch = this.now();
      hit = (await this.load()).keys.get(kid);
    }
    return hit && hit.alg === alg ? hit.key : null;
  }

  /**
   * The scheduled re-read. If it fails while keys are held (the server briefly unreachable), the
   * keys it held go on verifying and the read is tried again after the cooldown, rather than every
   * token failing, or waiting on a fetch, until the server is back.
   */
  private async refresh(): Promise<Loaded> {
    try {
      return await this.load();
    } catch (err) {
      if (!this.loaded) throw err;
      this.retryAt = this.now() + JWKS_COOLDOWN_MS;
      return this.loaded;
    }
  }

  /** Reads the key set; callers during a read share it. */
  private load(): Promise<Loaded> {
    this.inflight ??= this.read()
      .then((loaded) => (this.loaded = loaded))
      .finally(() => (this.inflight = null));
    return this.inflight;
  }

  private async read(): Promise<Loaded> {
    this.fetches += 1;
    const fetchImpl = this.options.fetch ?? fetch;
    const res = await fetchImpl(this.options.url, { headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(JWKS_FETCH_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`The key set at ${this.options.url} answered ${res.status}.`);
    const body = (await res.json()) as { keys?: unknown };
    if (!Array.isArray(body.keys)) throw new Error(`The key set at ${this.options.url} has no keys array.`);
    const keys = new Map<string, { alg: string; key: CryptoKey }>();
    for (const jwk of body.keys as JWK[]) {
      if (typeof jwk !== 'object' || jwk === null || typeof jwk.kid !== 'string' || typeof jwk.alg !== 'string') continue;
      if (!(ACCEPTED_ALGS as readonly string[]).includes(jwk.alg) || (jwk.use !== undefined && jwk.use !== 'sig')) continue;
      // A weak RSA key is left out of the set, so a token it signed is refused as unknown.
      if (jwk.kty === 'RSA' && rsaBits(jwk) < MIN_RSA_BITS) continue;
      try {
        const key = await importJWK(jwk, jwk.alg);
        if (typeof key === 'object' && 'type' in key) keys.set(jwk.kid, { alg: jwk.alg, key });
      } catch {
        // A key this runtime cannot import cannot verify anything: skip it, keep the others.
      }
    }
    return { at: this.now(), keys };
  }
}

/** The modulus size of an RSA JWK in bits (leading zero bits not counted). */
export function rsaBits(jwk: JWK): number {
  if (typeof jwk.n !== 'string') return 0;
  const n = Buffer.from(jwk.n, 'base64url');
  let i = 0;
  while (i < n.length && n[i] === 0) i++;
  if (i === n.length) return 0;
  return (n.length - i - 1) * 8 + (32 - Math.clz32(n[i]!));
}
