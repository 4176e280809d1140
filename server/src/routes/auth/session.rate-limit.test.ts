import { randomBytes } from 'node:crypto';
import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { sha256 } from '../../crypto';
import { call, describeDialects, movableClock, PASSWORD, signUpAndActivate, uniqueEmail, type CallResult } from '../../test/harness';

const WRONG = 'not the password at all';
// Every test in this file logs in from the one unknown client IP of app.fetch; the per-IP limit has
// its own test (with X-Forwarded-For), so the others lift it out of the way.
const NO_IP_LIMIT = { RATE_LIMIT_LOGIN_PER_IP: '1000/600' };

const login = (server: GatehouseServer, email: string, password: string, headers: Record<string, string> = {}) =>
  call(server, 'POST', ApiPaths.login, { body: { email, password }, headers });

function expectRateLimited(res: CallResult, maxWaitSeconds: number): void {
  expect(res.status).toBe(429);
  expect(res.body.errorCode).toBe(ErrorCodes.rateLimited);
  expect(res.body.errors[0]).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxWaitSeconds);
  expect(res.body.errorContext).toEqual({ retryAfterSeconds: retryAfter });
}

describeDialects('sign-in rate limits', (h) => {
  it('the 11th failed login for an account gets 429 with Retry-After, then even the right password does, until the window passes', async () => {
    const clock = movableClock();
    const server = await h.start(NO_IP_LIMIT, { clock });
    const { email } = await signUpAndActivate(server);

    for (let i = 1; i <= 10; i++) expect((await login(server, email, WRONG)).status, `failure ${i}`).toBe(401);
    const eleventh = await login(server, email, WRONG);
    expectRateLimited(eleventh, 900);
    expect(eleventh.headers.get('retry-after')).toBe('900');
    expect(eleventh.body.errors).toEqual(['Too many attempts. Try again in 15 minutes.']);

    clock.advance(14 * 60_000 + 30_000);
    const locked = await login(server, email, PASSWORD);
    expectRateLimited(locked, 30);
    expect(locked.body.errors).toEqual(['Too many attempts. Try again in 1 minute.']);

    clock.advance(31_000);
    expect((await login(server, email, PASSWORD)).status).toBe(200);
    // A success clears the count: nine failures, success, nine more and success again never lock.
    for (let round = 1; round <= 2; round++) {
      for (let i = 1; i <= 9; i++) expect((await login(server, email, WRONG)).status, `round ${round} failure ${i}`).toBe(401);
      expect((await login(server, email, PASSWORD)).status, `round ${round} success`).toBe(200);
    }
    // Ten failures lock the account: the next attempt is refused, right password or not.
    for (let i = 1; i <= 10; i++) expect((await login(server, email, WRONG)).status).toBe(401);
    expectRateLimited(await login(server, email, PASSWORD), 900);
  });

  it('locks unknown accounts exactly like real ones, so the answers do not reveal which exist', async () => {
    const server = await h.start(NO_IP_LIMIT);
    const ghost = uniqueEmail('ghost');
    for (let i = 1; i <= 10; i++) expect((await login(server, ghost, WRONG)).status).toBe(401);
    expectRateLimited(await login(server, ghost.toUpperCase(), WRONG), 900);
  });

  it('two server instances on one database share the counters: failures on A lock the account on B', async () => {
    const a = await h.start(NO_IP_LIMIT);
    const b = await h.start(NO_IP_LIMIT);
    const { email } = await signUpAndActivate(a);
    for (let i = 1; i <= 10; i++) expect((await login(a, email, WRONG)).status).toBe(401);
    expectRateLimited(await login(b, email, PASSWORD), 900);
    expectRateLimited(await login(a, email, PASSWORD), 900);
  });

  it('limits login attempts per client IP (X-Forwarded-For behind a trusted proxy), whatever the account', async () => {
    const server = await h.start({ TRUST_PROXY: 'true' });
    const ip = `198.51.100.${randomBytes(1)[0]! % 250}`;
    const otherIp = '203.0.113.7';
    const { email } = await signUpAndActivate(server);
    for (let i = 1; i <= 30; i++) {
      // A different (unknown) account each time, so only the per-IP bucket can trip.
      expect((await login(server, uniqueEmail('spray'), WRONG, { 'x-forwarded-for': `10.0.0.1, ${ip}` })).status, `attempt ${i}`).toBe(401);
    }
    expectRateLimited(await login(server, email, PASSWORD, { 'x-forwarded-for': ip }), 600);
    // Only the proxy-appended (last) address counts; another client is not affected.
    expect((await login(server, email, PASSWORD, { 'x-forwarded-for': `${ip}, ${otherIp}` })).status).toBe(200);
  });

  it('limits refreshes per client IP', async () => {
    const server = await h.start({ RATE_LIMIT_REFRESH_PER_IP: '3/60' });
    // Without a cookie each refresh is a 401, but still counted.
    for (let i = 1; i <= 3; i++) expect((await call(server, 'POST', ApiPaths.refresh)).status).toBe(401);
    expectRateLimited(await call(server, 'POST', ApiPaths.refresh), 60);
  });

  it('refuses a refresh over the limit from the window read with its token: a valid token is not spent, the refusal not counted, and it works once the window passes', async () => {
    const clock = movableClock();
    const server = await h.start({ RATE_LIMIT_REFRESH_PER_IP: '3/60', RATE_LIMIT_SIGNUP_PER_IP: '1000/60', TRUST_PROXY: 'true' }, { clock });
    const user = await signUpAndActivate(server);
    // A client of its own (the tests of this block share a database).
    const ip = `100.64.${randomBytes(1)[0]!}.${randomBytes(1)[0]!}`;
    const refresh = (cookie: string) => call(server, 'POST', ApiPaths.refresh, { cookie, headers: { 'x-forwarded-for': ip } });
    const counter = async () => Number((await server.db.selectFrom('rate_limits').select('count').where('key', '=', `refreshPerIp:${sha256(ip)}`).executeTakeFirst())?.count ?? 0);
    // Three refused refreshes (unknown tokens) fill the window.
    for (let i = 1; i <= 3; i++) expect((await refresh(`not-a-token-${i}`)).status).toBe(401);
    expect(await counter()).toBe(3);
    // Over the limit, with a token that works and with one that does not: 429, nothing counted.
    expectRateLimited(await refresh(user.cookie), 60);
    expectRateLimited(await refresh('not-a-token-4'), 60);
    expect(await counter()).toBe(3);
    // The window passes: the same token rotates (it was never spent), once.
    clock.advance(61_000);
    const rotated = await refresh(user.cookie);
    expect(rotated.status).toBe(200);
    expect(rotated.refreshCookie).toBeTruthy();
    expect((await refresh(user.cookie)).body.errorCode).toBe(ErrorCodes.refreshTokenReused);
  });
});
