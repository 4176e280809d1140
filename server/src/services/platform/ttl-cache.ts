import type { Clock } from '../../clock';

/**
 * The longest an entry of an authorization cache may live: a revoked API token, a removed role or a
 * disabled user takes effect in every process within this time (issue 17). Caches of such data
 * must not be built with a longer lifetime; `createTtlCache` refuses one.
 */
export const AUTHORIZATION_CACHE_MAX_TTL_MS = 1_000;

/** A bounded, short-lived, per-process cache. */
export interface TtlCache<K, V> {
  /** The value stored for `key` if it is younger than the cache's lifetime, else undefined. */
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  delete(key: K): void;
  clear(): void;
  readonly size: number;
}

/**
 * A map whose entries expire `ttlMs` after they were set (by `clock`), holding at most `max`
 * entries: setting one more evicts the oldest. Reading an entry does not extend its life.
 */
export function createTtlCache<K, V>(options: { clock: Clock; ttlMs: number; max: number }): TtlCache<K, V> {
  const { clock, ttlMs, max } = options;
  if (!(ttlMs > 0 && ttlMs <= AUTHORIZATION_CACHE_MAX_TTL_MS)) throw new RangeError(`A cache lifetime must be between 1 and ${AUTHORIZATION_CACHE_MAX_TTL_MS} ms, not ${ttlMs}.`);
  if (!(Number.isInteger(max) && max > 0)) throw new RangeError(`A cache must hold at least one entry, not ${max}.`);
  // A Map iterates in insertion order; re-inserting on set keeps the oldest entry first.
  const entries = new Map<K, { value: V; expiresAt: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (clock.now() >= entry.expiresAt) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, { value, expiresAt: clock.now() + ttlMs });
      while (entries.size > max) entries.delete(entries.keys().next().value as K);
    },
    delete(key) {
      entries.delete(key);
    },
    clear() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
