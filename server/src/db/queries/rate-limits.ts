import { sql } from 'kysely';
import type { Db } from '../index';
import { precompiled, type Params } from '../precompiled';

/** A counter after a hit: how many hits its current window has seen, and when that window began. */
export interface RateLimitHit {
  count: number;
  windowStart: number;
}

/**
 * Counts one hit on `key`, atomically, in a single statement (same SQL on SQLite and PostgreSQL):
 * a new key or an expired window starts over at 1, otherwise the count goes up by one. Concurrent
 * callers, in this process or others on the same database, never lose a count.
 */
export async function hitRateLimit(db: Db, key: string, now: number, windowMs: number): Promise<RateLimitHit> {
  const row = (await hit(db, { key, now, expiredBefore: now - windowMs })).rows[0]!;
  return { count: Number(row.count), windowStart: Number(row.window_start) };
}

const hit = precompiled((db, p: Params<{ key: string; now: number; expiredBefore: number }>) => {
  // In DO UPDATE SET, `rate_limits.*` is the row as it was before this statement on both dialects.
  const expired = sql<boolean>`${sql.ref('rate_limits.window_start')} <= ${p.expiredBefore}`;
  return db
    .insertInto('rate_limits')
    .values({ key: p.key, window_start: p.now, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        window_start: sql<number>`case when ${expired} then ${p.now} else ${sql.ref('rate_limits.window_start')} end`,
        count: sql<number>`case when ${expired} then 1 else ${sql.ref('rate_limits.count')} + 1 end`,
      }),
    )
    .returning(['count', 'window_start']);
});

/** The counter's row of `key` as stored (undefined: none), whatever its window. */
export async function findRateLimitWindow(db: Db, key: string): Promise<{ count: number | string; window_start: number | string } | undefined> {
  return (await rateLimitWindow(db, { key })).rows[0];
}

/**
 * What a counter's row (undefined: none) says of the current window: how many hits it holds (0 when
 * there is no counter or its window ended), and when it began (null when there is none).
 */
export function currentWindow(row: { count: number | string; window_start: number | string } | undefined, now: number, windowMs: number): { count: number; windowStart: number | null } {
  if (!row || Number(row.window_start) <= now - windowMs) return { count: 0, windowStart: null };
  return { count: Number(row.count), windowStart: Number(row.window_start) };
}

const rateLimitWindow = precompiled((db, p: Params<{ key: string }>) => db.selectFrom('rate_limits').select(['count', 'window_start']).where('key', '=', p.key));

/** Forgets a counter (e.g. an account's failures after a successful sign-in). */
export async function resetRateLimit(db: Db, key: string): Promise<void> {
  await forget(db, { key });
}

const forget = precompiled((db, p: Params<{ key: string }>) => db.deleteFrom('rate_limits').where('key', '=', p.key));

/** Deletes the counters of one bucket (keys starting `<bucket>:`) whose window began before `before`. */
export async function deleteExpiredRateLimits(db: Db, bucket: string, before: number): Promise<number> {
  const res = await db.deleteFrom('rate_limits').where('key', 'like', `${bucket}:%`).where('window_start', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}
