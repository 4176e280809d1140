import type { CompiledQuery } from 'kysely';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { isWrite, observeStatements } from '../../db/statement-observer';
import { AUTHORIZATION_CACHE_MAX_TTL_MS, createTtlCache } from './ttl-cache';

/**
 * A per-process cache of what a few tables say, for data that many requests read and few change
 * (the vendor's plans and flags, a tenant's plan, a role's permissions). Issue 17.
 *
 * - An entry lives at most 1,000 ms (AUTHORIZATION_CACHE_MAX_TTL_MS), so a change made by another
 *   process takes effect here within a second.
 * - A change made by this process takes effect at once: every statement that writes to one of
 *   `tables` (on the server's Db, in or out of a transaction) empties the cache. A load that was
 *   under way when such a write ran is answered but not kept.
 * - Loads of one key at once share one read.
 * - Values are frozen (the value and, for arrays, each element), so no caller can change what the
 *   next one reads.
 */
export interface TableCache<K, V> {
  /** The cached value of `key`, else what `load` answers (kept unless one of the tables was written meanwhile). */
  get(key: K, load: () => Promise<V>): Promise<V>;
  /** Forgets every entry. */
  clear(): void;
  readonly size: number;
  /** Stops watching the Db's writes. */
  close(): void;
}

export function createTableCache<K, V>(options: { db: Db; clock: Clock; tables: readonly string[]; max: number; ttlMs?: number }): TableCache<K, V> {
  const { db, clock, tables, max } = options;
  const entries = createTtlCache<K, V>({ clock, ttlMs: options.ttlMs ?? AUTHORIZATION_CACHE_MAX_TTL_MS, max });
  const loading = new Map<K, Promise<V>>();
  // Raised by every write to the tables: a load that began before it is not kept.
  let generation = 0;
  const mentions = new RegExp(`(?:^|[^a-z0-9_])(?:${tables.map((t) => t.replace(/[^a-z0-9_]/gi, '')).join('|')})(?:[^a-z0-9_]|$)`, 'i');
  const stop = observeStatements(db, (query: CompiledQuery) => {
    if (query.query.kind === 'SelectQueryNode' || !isWrite(query) || !mentions.test(query.sql)) return;
    generation += 1;
    entries.clear();
    loading.clear();
  });

  return {
    get(key, load) {
      const hit = entries.get(key);
      if (hit !== undefined) return Promise.resolve(hit);
      const pending = loading.get(key);
      if (pending) return pending;
      const started = generation;
      const promise = load().then(
        (value) => {
          if (loading.get(key) === promise) loading.delete(key);
          const frozen = freeze(value);
          if (started === generation) entries.set(key, frozen);
          return frozen;
        },
        (err: unknown) => {
          if (loading.get(key) === promise) loading.delete(key);
          throw err;
        },
      );
      loading.set(key, promise);
      return promise;
    },
    clear() {
      entries.clear();
      loading.clear();
    },
    get size() {
      return entries.size;
    },
    close: stop,
  };
}

/** Freezes `value`, and each element of an array or each value of a Map, one level down. */
function freeze<V>(value: V): V {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) for (const item of value) if (item !== null && typeof item === 'object') Object.freeze(item);
  return Object.freeze(value);
}
