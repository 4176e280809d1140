import { ErrorCodes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { sha256 } from '../../crypto';
import { isAppError } from '../../errors';
import { describeDialects, movableClock, uniqueEmail } from '../../test/harness';
import { createRateLimiter, rateLimitSubject } from './rate-limit';

/** Default limits with `overrides` (env format) applied. */
const limits = (env: Record<string, string> = {}) => ({ rateLimits: loadConfig(env).rateLimits });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err,
  );
}

describeDialects('rate limiter', (h) => {
  it('lets exactly the limit through when 50 hits on one key arrive at once', async () => {
    const { db } = await h.start();
    const limiter = createRateLimiter({ db, clock: movableClock(), config: limits({ RATE_LIMIT_SIGNUP_PER_IP: '20/600' }) });
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => limiter.consume('signUpPerIp', 'concurrent-client')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).toHaveLength(30);
    for (const r of rejected) expect(isAppError(r.reason) && r.reason.code === ErrorCodes.rateLimited && r.reason.status === 429).toBe(true);
  });

  it('two limiters (two processes) on one database count into the same window, also in parallel', async () => {
    const a = await h.start();
    const b = await h.start();
    const clock = movableClock();
    const config = limits({ RATE_LIMIT_RESEND_PER_IP: '10/600' });
    const onA = createRateLimiter({ db: a.db, clock, config });
    const onB = createRateLimiter({ db: b.db, clock, config });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? onA : onB).tryConsume('resendPerIp', 'shared-client')));
    expect(results.filter(Boolean)).toHaveLength(10);
  });

  it('says how long to wait, in seconds and in whole minutes rounded up, and starts over when the window ends', async () => {
    const { db } = await h.start();
    const clock = movableClock();
    const limiter = createRateLimiter({ db, clock, config: limits({ RATE_LIMIT_LOGIN_PER_IP: '2/600' }) });
    await limiter.consume('loginPerIp', '192.0.2.1');
    clock.advance(10_000);
    await limiter.consume('loginPerIp', '192.0.2.1');
    clock.advance(50_500);
    const err = await rejection(limiter.consume('loginPerIp', '192.0.2.1'));
    expect(isAppError(err)).toBe(true);
    if (!isAppError(err)) return;
    expect(err.status).toBe(429);
    expect(err.code).toBe(ErrorCodes.rateLimited);
    // The window began at the first hit: 600 s - 60.5 s = 539.5 s, rounded up.
    expect(err.context).toEqual({ retryAfterSeconds: 540 });
    expect(err.message).toBe('Too many attempts. Try again in 9 minutes.');
    // Other identifiers and buckets are independent.
    await limiter.consume('loginPerIp', '192.0.2.2');
    await limiter.consume('signUpPerIp', '192.0.2.1');

    clock.advance(539_500);
    await limiter.consume('loginPerIp', '192.0.2.1');
    await limiter.consume('loginPerIp', '192.0.2.1');
    await expect(limiter.consume('loginPerIp', '192.0.2.1')).rejects.toMatchObject({ message: 'Too many attempts. Try again in 10 minutes.' });
  });

  it('reset forgets a count, and tryConsume answers false instead of throwing', async () => {
    const { db } = await h.start();
    const limiter = createRateLimiter({ db, clock: movableClock(), config: limits({ RATE_LIMIT_RESEND_PER_EMAIL: '1/3600' }) });
    const email = uniqueEmail();
    expect(await limiter.tryConsume('resendPerEmail', email)).toBe(true);
    expect(await limiter.tryConsume('resendPerEmail', email)).toBe(false);
    await limiter.reset('resendPerEmail', email);
    expect(await limiter.tryConsume('resendPerEmail', email)).toBe(true);
  });

  it('assertBelowLimit reads without counting: it passes below the limit, throws the 429 of consume at the limit, and passes again once the window ended', async () => {
    const { db } = await h.start();
    const clock = movableClock();
    const limiter = createRateLimiter({ db, clock, config: limits({ RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT: '2/600' }) });
    const id = `user:${uniqueEmail()}`;
    const stored = async () => (await db.selectFrom('rate_limits').select('count').where('key', '=', `loginFailuresPerAccount:${sha256(id)}`).executeTakeFirst())?.count;
    // No counter yet: passes, and writes none.
    await limiter.assertBelowLimit('loginFailuresPerAccount', id);
    await limiter.assertBelowLimit('loginFailuresPerAccount', id);
    expect(await stored()).toBeUndefined();
    await limiter.consume('loginFailuresPerAccount', id);
    await limiter.assertBelowLimit('loginFailuresPerAccount', id);
    expect(Number(await stored())).toBe(1);
    clock.advance(100_000);
    await limiter.consume('loginFailuresPerAccount', id);
    // At the limit: consume would throw on the next hit, so assertBelowLimit throws now, with the same wait.
    const err = await rejection(limiter.assertBelowLimit('loginFailuresPerAccount', id));
    expect(isAppError(err) && err.status === 429 && err.code === ErrorCodes.rateLimited).toBe(true);
    if (!isAppError(err)) return;
    expect(err.context).toEqual({ retryAfterSeconds: 500 });
    expect(err.message).toBe('Too many attempts. Try again in 9 minutes.');
    expect(Number(await stored())).toBe(2);
    const consumed = await rejection(limiter.consume('loginFailuresPerAccount', id));
    expect(isAppError(consumed) && consumed.context).toEqual({ retryAfterSeconds: 500 });
    // The window began 600 s before: the old count no longer holds.
    clock.advance(500_000);
    await limiter.assertBelowLimit('loginFailuresPerAccount', id);
  });

  it('assertBelowLimit on one server refuses once failures counted through another server on the same database reach the limit', async () => {
    const a = await h.start();
    const b = await h.start();
    const clock = movableClock();
    const config = limits({ RATE_LIMIT_MFA_ATTEMPTS_PER_USER: '3/900' });
    const onA = createRateLimiter({ db: a.db, clock, config });
    const onB = createRateLimiter({ db: b.db, clock, config });
    const id = `user-${Math.random()}`;
    await Promise.all([onA.consume('mfaAttemptsPerUser', id), onA.consume('mfaAttemptsPerUser', id)]);
    await onB.assertBelowLimit('mfaAttemptsPerUser', id);
    await onA.consume('mfaAttemptsPerUser', id);
    await expect(onB.assertBelowLimit('mfaAttemptsPerUser', id)).rejects.toMatchObject({ status: 429, code: ErrorCodes.rateLimited });
    await onB.reset('mfaAttemptsPerUser', id);
    await onA.assertBelowLimit('mfaAttemptsPerUser', id);
  });

  it('stores identifiers only hashed, never an email in clear text', async () => {
    const { db } = await h.start();
    const limiter = createRateLimiter({ db, clock: movableClock(), config: limits() });
    const email = uniqueEmail('secret');
    await limiter.consume('resendPerEmail', email);
    const keys = (await db.selectFrom('rate_limits').select('key').execute()).map((r) => r.key);
    expect(keys.some((k) => k.includes(email) || k.includes(email.split('@')[0]!))).toBe(false);
    expect(keys).toContainEqual(expect.stringMatching(/^resendPerEmail:[0-9a-f]{64}$/));
  });

  it('sweeps out counters whose window ended more than a window ago, at most once a minute', async () => {
    const { db } = await h.start();
    const clock = movableClock();
    const limiter = createRateLimiter({ db, clock, config: limits({ RATE_LIMIT_REFRESH_PER_IP: '5/60' }) });
    // Other tests share this database, so rows are looked up by key rather than counted.
    const stored = async (bucket: string, id: string) => (await db.selectFrom('rate_limits').select('key').where('key', '=', `${bucket}:${sha256(id)}`).executeTakeFirst()) !== undefined;
    await limiter.consume('refreshPerIp', 'old-client'); // also runs (and spends) this minute's sweep
    await limiter.consume('loginPerIp', 'recent-client'); // 10-minute window: must survive
    clock.advance(90_000);
    await limiter.consume('refreshPerIp', 'trigger'); // 90 s later: old-client's window is not yet two windows old
    expect(await stored('refreshPerIp', 'old-client')).toBe(true);
    clock.advance(40_000);
    await limiter.consume('refreshPerIp', 'trigger'); // 130 s: old enough, but a sweep ran 40 s ago
    expect(await stored('refreshPerIp', 'old-client')).toBe(true);
    clock.advance(30_000);
    await limiter.consume('refreshPerIp', 'trigger'); // 160 s: swept
    expect(await stored('refreshPerIp', 'old-client')).toBe(false);
    expect(await stored('refreshPerIp', 'trigger')).toBe(true);
    expect(await stored('loginPerIp', 'recent-client')).toBe(true);
  });

  it('IPv6 address rotation (review M1c): every address of one /64 shares a per-IP counter; ::ffff:a.b.c.d counts as a.b.c.d', async () => {
    const { db } = await h.start();
    const limiter = createRateLimiter({ db, clock: movableClock(), config: limits({ RATE_LIMIT_SIGNUP_PER_IP: '2/3600' }) });
    const prefix = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:42`;
    expect(await limiter.tryConsume('signUpPerIp', `${prefix}::1`)).toBe(true);
    expect(await limiter.tryConsume('signUpPerIp', `${prefix}:dead:beef:0:7`)).toBe(true);
    expect(await limiter.tryConsume('signUpPerIp', `${prefix.toUpperCase()}:ffff:ffff:ffff:ffff`)).toBe(false);
    // The next /64 is another client.
    expect(await limiter.tryConsume('signUpPerIp', `${prefix.slice(0, -2)}43::1`)).toBe(true);

    const v4 = `198.51.100.${Math.floor(Math.random() * 250)}`;
    expect(await limiter.tryConsume('signUpPerIp', v4)).toBe(true);
    expect(await limiter.tryConsume('signUpPerIp', `::ffff:${v4}`)).toBe(true);
    expect(await limiter.tryConsume('signUpPerIp', `::FFFF:${v4}`)).toBe(false);
  });

  it('rateLimitSubject: IPv6 to its /64 (any spelling), IPv4-mapped to IPv4, everything else unchanged', () => {
    expect(rateLimitSubject('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(rateLimitSubject('2001:0DB8:0001:0002::9')).toBe('2001:db8:1:2::/64');
    expect(rateLimitSubject('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitSubject('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(rateLimitSubject('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitSubject('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(rateLimitSubject('::ffff:c000:207')).toBe('192.0.2.7');
    for (const id of ['192.0.2.7', 'user@example.com', 'phoneNumber:+447700900123', 'unknown', 'abc:def']) expect(rateLimitSubject(id)).toBe(id);
  });
});
