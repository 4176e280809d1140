import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { call, describeDialects, mailbox, PASSWORD, uniqueEmail, type CallResult } from '../../test/harness';

function expectRateLimited(res: CallResult): void {
  expect(res.status).toBe(429);
  expect(res.body.errorCode).toBe(ErrorCodes.rateLimited);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

/** One client address per test, so tests sharing this file's database do not share per-IP counters. */
let nextIp = 1;
const proxied = () => ({ 'x-forwarded-for': `192.0.2.${nextIp++}` });

describeDialects('sign-up and activation rate limits', (h) => {
  it('limits sign-ups per client IP, before any password hashing or mail', async () => {
    const server = await h.start({ TRUST_PROXY: 'true', RATE_LIMIT_SIGNUP_PER_IP: '3/3600' });
    const headers = proxied();
    for (let i = 1; i <= 3; i++) expect((await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail(), password: PASSWORD }, headers })).status).toBe(200);
    const refused = uniqueEmail('refused');
    expectRateLimited(await call(server, 'POST', ApiPaths.signUp, { body: { email: refused, password: PASSWORD }, headers }));
    expect((await mailbox(server)).some((m) => m.to === refused)).toBe(false);
    // Another client is not affected.
    expect((await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail(), password: PASSWORD }, headers: proxied() })).status).toBe(200);
  });

  it('the default sign-up limit is 20 per IP per hour', async () => {
    const server = await h.start({ TRUST_PROXY: 'true' });
    const headers = proxied();
    // Invalid bodies past validation count too (the bucket comes before the password policy).
    for (let i = 1; i <= 20; i++) expect((await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail(), password: 'short' }, headers })).status).toBe(400);
    expectRateLimited(await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail(), password: PASSWORD }, headers }));
  });

  it('over the per-email resend limit it still answers 200 but sends no more mail', async () => {
    const server = await h.start({ TRUST_PROXY: 'true' });
    const email = uniqueEmail('bombed');
    expect((await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD }, headers: proxied() })).status).toBe(200);
    const sent = async () => (await mailbox(server)).filter((m) => m.to === email).length;
    expect(await sent()).toBe(1);
    // From a different IP each time, so only the per-email bucket applies.
    for (let i = 1; i <= 3; i++) expect((await call(server, 'POST', ApiPaths.activateResend, { body: { email }, headers: proxied() })).status).toBe(200);
    expect(await sent()).toBe(4);
    for (let i = 1; i <= 3; i++) {
      const res = await call(server, 'POST', ApiPaths.activateResend, { body: { email: i === 1 ? email.toUpperCase() : email }, headers: proxied() });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
    }
    expect(await sent()).toBe(4);
  });

  it('limits resend calls per client IP with a 429', async () => {
    const server = await h.start({ TRUST_PROXY: 'true' });
    const headers = proxied();
    for (let i = 1; i <= 10; i++) expect((await call(server, 'POST', ApiPaths.activateResend, { body: { email: uniqueEmail('ghost') }, headers })).status).toBe(200);
    expectRateLimited(await call(server, 'POST', ApiPaths.activateResend, { body: { email: uniqueEmail('ghost') }, headers }));
  });

  it('limits activation attempts (strategy and activate together) per client IP', async () => {
    const server = await h.start({ TRUST_PROXY: 'true', RATE_LIMIT_ACTIVATION_PER_IP: '4/600' });
    const headers = proxied();
    const strategy = `${ApiPaths.activateStrategy}?userId=nobody&token=guess`;
    for (let i = 1; i <= 2; i++) expect((await call(server, 'GET', strategy, { headers })).status).toBe(400);
    for (let i = 1; i <= 2; i++) expect((await call(server, 'POST', ApiPaths.activate, { body: { userId: 'nobody', token: 'guess', password: PASSWORD }, headers })).status).toBe(400);
    expectRateLimited(await call(server, 'GET', strategy, { headers }));
    expectRateLimited(await call(server, 'POST', ApiPaths.activate, { body: { userId: 'nobody', token: 'guess', password: PASSWORD }, headers }));
  });
});
