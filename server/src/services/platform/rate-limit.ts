import { isIP } from 'node:net';
import { ErrorCodes } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config, RateLimitBucket } from '../../config';
import { sha256 } from '../../crypto';
import type { Db } from '../../db';
import { currentWindow, deleteExpiredRateLimits, findRateLimitWindow, hitRateLimit, resetRateLimit } from '../../db/queries/rate-limits';
import { AppError } from '../../errors';
import { log, reasonOf } from '../../log';

/** How often one process sweeps expired counters out of the table. */
const CLEANUP_INTERVAL_MS = 60_000;

/** The identifier used when a request's client IP is unknown (e.g. app.fetch in tests). */
export const UNKNOWN_CLIENT = 'unknown';

export interface RateLimiter {
  /**
   * Counts one hit of `id` in `bucket`; over the bucket's limit it throws a 429 AppError whose
   * context carries `retryAfterSeconds`.
   */
  consume(bucket: RateLimitBucket, id: string): Promise<RateLimitHit>;
  /** Counts one hit like consume, but answers false instead of throwing when over the limit. */
  tryConsume(bucket: RateLimitBucket, id: string): Promise<boolean>;
  /**
   * Reads the current window of `id` in `bucket` without counting anything, and throws the same 429
   * as consume when it already holds the bucket's limit or more: the success path of a bucket that
   * counts failures only (its failures go through consume before they are answered).
   */
  assertBelowLimit(bucket: RateLimitBucket, id: string): Promise<void>;
  /** Forgets the count of `id` in `bucket`. */
  reset(bucket: RateLimitBucket, id: string): Promise<void>;
  /**
   * assertBelowLimit's read, for a caller that reads the window itself in a statement of its own
   * (the refresh: one read with its token): the row's key in `rate_limits`, and the judgement of
   * the row it found (undefined: none), which throws the same 429.
   */
  windowKey(bucket: RateLimitBucket, id: string): string;
  assertWindowBelowLimit(bucket: RateLimitBucket, window: { count: number; window_start: number } | undefined): void;
}

/** A counted hit within the limit: how many hits the window holds now, and the bucket's limit. */
export interface RateLimitHit {
  count: number;
  limit: number;
}

/** The 429 every bucket raises; the HTTP layer turns `retryAfterSeconds` into a Retry-After header. */
export function rateLimitedError(retryAfterSeconds: number): AppError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new AppError(ErrorCodes.rateLimited, 429, `Too many attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`, { retryAfterSeconds });
}

/**
 * The client a per-IP counter belongs to: an IPv6 address counts as its /64 (one host usually holds
 * a whole /64, so counting single addresses would give it 2^64 counters), and an IPv4-mapped IPv6
 * address as its IPv4. Any other identifier (an email, a phone number, a user id) is itself.
 */
export function rateLimitSubject(id: string): string {
  const address = id.replace(/%.*$/, '').toLowerCase(); // no zone index (fe80::1%eth0)
  if (isIP(address) !== 6) return id;
  const hextets = (part: string): number[] =>
    part
      .split(':')
      .filter(Boolean)
      .flatMap((g) => {
        if (!g.includes('.')) return [parseInt(g, 16)];
        const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number]; // ::ffff:192.0.2.1
        return [a * 256 + b, c * 256 + d];
      });
  const [head = '', tail] = address.split('::');
  const left = hextets(head);
  const right = tail === undefined ? [] : hextets(tail);
  const groups = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/**
 * Fixed-window rate limits kept in the database, so every server process on it shares the counts.
 * Identifiers are stored only as `<bucket>:<sha-256>`: emails never sit in the table in clear text.
 */
export function createRateLimiter(deps: { db: Db; clock: Clock; config: Pick<Config, 'rateLimits'> }): RateLimiter {
  const { db, clock, config } = deps;
  let lastCleanup = Number.NEGATIVE_INFINITY;

  const keyOf = (bucket: RateLimitBucket, id: string) => `${bucket}:${sha256(rateLimitSubject(id))}`;

  /** At most once a minute per process: drops counters whose window ended more than a window ago. */
  async function cleanupIfDue(now: number): Promise<void> {
    if (now - lastCleanup < CLEANUP_INTERVAL_MS) return;
    lastCleanup = now;
    try {
      for (const [bucket, rule] of Object.entries(config.rateLimits)) {
        await deleteExpiredRateLimits(db, bucket, now - 2 * rule.windowSeconds * 1000);
      }
    } catch (err) {
      // Housekeeping only: a failed sweep must not fail the request; the next one retries.
      log.error('Rate-limit cleanup failed:', reasonOf(err));
    }
  }

  /** Throws the 429 of `bucket` when the window its counter's row (undefined: none) holds is full. */
  function assertWindowBelowLimit(bucket: RateLimitBucket, row: { count: number | string; window_start: number | string } | undefined): void {
    const rule = config.rateLimits[bucket];
    const now = clock.now();
    const windowMs = rule.windowSeconds * 1000;
    const { count, windowStart } = currentWindow(row, now, windowMs);
    if (count >= rule.limit && windowStart !== null) throw rateLimitedError(Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)));
  }

  /** Counts the hit; `wait` is the seconds to wait when it went over the limit, else null. */
  async function hit(bucket: RateLimitBucket, id: string): Promise<RateLimitHit & { wait: number | null }> {
    const rule = config.rateLimits[bucket];
    const now = clock.now();
    const windowMs = rule.windowSeconds * 1000;
    const { count, windowStart } = await hitRateLimit(db, keyOf(bucket, id), now, windowMs);
    await cleanupIfDue(now);
    const wait = count <= rule.limit ? null : Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
    return { count, limit: rule.limit, wait };
  }

  return {
    async consume(bucket, id) {
      const { count, limit, wait } = await hit(bucket, id);
      if (wait !== null) throw rateLimitedError(wait);
      return { count, limit };
    },
    async tryConsume(bucket, id) {
      return (await hit(bucket, id)).wait === null;
    },
    async assertBelowLimit(bucket, id) {
      assertWindowBelowLimit(bucket, await findRateLimitWindow(db, keyOf(bucket, id)));
    },
    windowKey: keyOf,
    assertWindowBelowLimit,
    async reset(bucket, id) {
      await resetRateLimit(db, keyOf(bucket, id));
    },
  };
}
