/**
 * Captcha at sign-in (seed 000 section 7.2 `recaptchaToken`), against a real reCAPTCHA-compatible
 * verify server on loopback (server/src/test/fake-recaptcha.ts), on both dialects.
 */
import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { GatehouseServer } from '../../app';
import { call, describeDialects, PASSWORD, signUpAndActivate, uniqueEmail, type CallResult } from '../../test/harness';
import { startFakeRecaptcha, type FakeRecaptcha } from '../../test/fake-recaptcha';

const WRONG = 'not the password at all';
// Every call comes from the one unknown client IP of app.fetch; the per-IP limits are not the subject here.
const NO_IP_LIMITS = { RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_CAPTCHA_PER_IP: '1000/600' };

let fake: FakeRecaptcha;
beforeAll(async () => {
  fake = await startFakeRecaptcha();
});
afterAll(async () => {
  await fake?.stop();
});
beforeEach(() => {
  fake.behave({ score: 0.9, verify: 'normal', script: 'ok' });
  fake.verifyCalls.length = 0;
});

const login = (server: GatehouseServer, body: Record<string, unknown>, headers: Record<string, string> = {}) => call(server, 'POST', ApiPaths.login, { body, headers });

function expectRefused(res: CallResult, errorCode: string, reason?: string): void {
  expect(res.status).toBe(400);
  expect(res.body.errorCode).toBe(errorCode);
  if (reason) expect(res.body.errorContext).toEqual({ reason });
  expect(res.refreshCookie).toBeUndefined();
}

describeDialects('captcha at sign-in', (h) => {
  /** A server with the captcha policy on, and an activated user (signed up with a sign-up token). */
  async function setup(env: Record<string, string> = {}) {
    const server = await h.start({ ...NO_IP_LIMITS, ...fake.env(), ...env });
    const user = await signUpAndActivate(server, uniqueEmail('captcha'), { recaptchaToken: fake.issueToken('signup') });
    return { server, user };
  }

  it('signs in with a token the verify server accepts for the login action, sending secret, token and client IP', async () => {
    const { server, user } = await setup({ TRUST_PROXY: 'true' });
    const token = fake.issueToken('login');
    const res = await login(server, { email: user.email, password: PASSWORD, recaptchaToken: token }, { 'x-forwarded-for': '203.0.113.7' });
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toEqual(expect.any(String));
    expect(res.refreshCookie).toBeTruthy();
    expect(fake.verifyCalls.at(-1)).toEqual({ secret: fake.secret, response: token, remoteip: '203.0.113.7' });
  });

  it('refuses a sign-in without a token with 400 captchaRequired, without asking the verify server', async () => {
    const { server, user } = await setup();
    const before = fake.verifyCalls.length;
    const res = await login(server, { email: user.email, password: PASSWORD });
    expectRefused(res, ErrorCodes.captchaRequired);
    expect(res.body.errors).toEqual(['Captcha verification is required. Reload the page and try again.']);
    expect(fake.verifyCalls.length).toBe(before);
  });

  it('refuses a token the verify server does not know (forged), a reused one, and one made for another site key', async () => {
    const { server, user } = await setup();
    expectRefused(await login(server, { email: user.email, password: PASSWORD, recaptchaToken: 'forged-token' }), ErrorCodes.captchaFailed, 'invalid-input-response');
    const token = fake.issueToken('login');
    expect((await login(server, { email: user.email, password: PASSWORD, recaptchaToken: token })).status).toBe(200);
    expectRefused(await login(server, { email: user.email, password: PASSWORD, recaptchaToken: token }), ErrorCodes.captchaFailed, 'timeout-or-duplicate');
    const otherSite = fake.issueToken('login', 'localhost', 'another-site-key');
    expectRefused(await login(server, { email: user.email, password: PASSWORD, recaptchaToken: otherSite }), ErrorCodes.captchaFailed, 'invalid-input-response');
  });

  it('refuses a token the verify server rejects, with the message the login box shows', async () => {
    const { server, user } = await setup();
    fake.behave({ verify: 'reject' });
    const res = await login(server, { email: user.email, password: PASSWORD, recaptchaToken: fake.issueToken('login') });
    expectRefused(res, ErrorCodes.captchaFailed, 'invalid-input-response');
    expect(res.body.errors).toEqual(['The captcha check failed. Please try again.']);
  });

  it('refuses a score below CAPTCHA_MIN_SCORE and accepts one at it', async () => {
    const { server, user } = await setup({ CAPTCHA_MIN_SCORE: '0.7' });
    fake.behave({ score: 0.3 });
    expectRefused(await login(server, { email: user.email, password: PASSWORD, recaptchaToken: fake.issueToken('login') }), ErrorCodes.captchaFailed, 'low-score');
    fake.behave({ score: 0.7 });
    expect((await login(server, { email: user.email, password: PASSWORD, recaptchaToken: fake.issueToken('login') })).status).toBe(200);
  });

  it('refuses a token made for another action (a sign-up token cannot sign in) or on a page of a host that is not ours', async () => {
    const { server, user } = await setup();
    expectRefused(await login(server, { email: user.email, password: PASSWORD, recaptchaToken: fake.issueToken('signup') }), ErrorCodes.captchaFailed, 'action-mismatch');
    expectRefused(await login(server, { email: user.email, password: PASSWORD, recaptchaToken: fake.issueToken('login', 'evil.example') }), ErrorCodes.captchaFailed, 'hostname-mismatch');
    // app.test is an allowed origin of the test harness: its pages may sign in.
    expect((await login(server, { email: user.email, password: PASSWORD, recaptchaToken: fake.issueToken('login', 'app.test') })).status).toBe(200);
  });

  it('fails closed with 503 captchaUnavailable when the verify URL errs, answers garbage, hangs past the timeout, or is down', async () => {
    const { server, user } = await setup({ CAPTCHA_VERIFY_TIMEOUT_MS: '300' });
    const attempt = () => login(server, { email: user.email, password: PASSWORD, recaptchaToken: fake.issueToken('login') });
    const expectUnavailable = (res: CallResult) => {
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ errors: ['The captcha check could not be completed right now. Please try again in a moment.'], errorCode: ErrorCodes.captchaUnavailable });
      expect(res.refreshCookie).toBeUndefined();
    };
    fake.behave({ verify: 'http-500' });
    expectUnavailable(await attempt());
    fake.behave({ verify: 'not-json' });
    expectUnavailable(await attempt());
    fake.behave({ verify: 'hang' });
    const started = Date.now();
    expectUnavailable(await attempt());
    expect(Date.now() - started).toBeLessThan(5_000);

    const down = await h.start({ ...NO_IP_LIMITS, ...fake.env({ CAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/recaptcha/api/siteverify' }) });
    expectUnavailable(await login(down, { email: user.email, password: PASSWORD, recaptchaToken: fake.issueToken('login') }));
  });

  it('treats a secret the verify server refuses as an outage (503), never as the user failing', async () => {
    const server = await h.start({ ...NO_IP_LIMITS, ...fake.env({ CAPTCHA_SECRET_KEY: 'not-the-secret' }) });
    const res = await login(server, { email: uniqueEmail(), password: PASSWORD, recaptchaToken: fake.issueToken('login') });
    expect(res.status).toBe(503);
    expect(res.body.errorCode).toBe(ErrorCodes.captchaUnavailable);
  });

  it('checks the token before the password: refused tokens never count as failed passwords nor lock the account', async () => {
    const { server, user } = await setup({ RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT: '3/900', LOCKOUT_MAX_ATTEMPTS: '3' });
    for (let i = 0; i < 6; i++) expectRefused(await login(server, { email: user.email, password: WRONG, recaptchaToken: 'forged' }), ErrorCodes.captchaFailed);
    for (let i = 0; i < 6; i++) expectRefused(await login(server, { email: user.email, password: WRONG }), ErrorCodes.captchaRequired);
    // Neither the failure limit (3) nor the lockout (3) has moved: the right password still signs in.
    expect((await login(server, { email: user.email, password: PASSWORD, recaptchaToken: fake.issueToken('login') })).status).toBe(200);
    // With a valid token a wrong password is an ordinary 401.
    expect((await login(server, { email: user.email, password: WRONG, recaptchaToken: fake.issueToken('login') })).status).toBe(401);
  });

  it('limits verify calls per client IP (RATE_LIMIT_CAPTCHA_PER_IP) with 429', async () => {
    const { user } = await setup();
    // Counters live in the database: a client IP of its own keeps earlier tests' calls out of it.
    const server = await h.start({ ...NO_IP_LIMITS, ...fake.env(), RATE_LIMIT_CAPTCHA_PER_IP: '2/600', TRUST_PROXY: 'true' });
    const from = { 'x-forwarded-for': '198.51.100.23' };
    const before = fake.verifyCalls.length;
    for (let i = 0; i < 2; i++) expectRefused(await login(server, { email: user.email, password: PASSWORD, recaptchaToken: `forged-${i}` }, from), ErrorCodes.captchaFailed);
    const third = await login(server, { email: user.email, password: PASSWORD, recaptchaToken: fake.issueToken('login') }, from);
    expect(third.status).toBe(429);
    // Another client is not affected.
    expect((await login(server, { email: user.email, password: PASSWORD, recaptchaToken: fake.issueToken('login') }, { 'x-forwarded-for': '198.51.100.24' })).status).toBe(200);
    expect(third.headers.get('retry-after')).toBeTruthy();
    expect(fake.verifyCalls.length - before).toBe(3);
  });

  it('lets CAPTCHA_IGNORED_EMAILS sign in without a token; everyone else still needs one', async () => {
    const email = uniqueEmail('robot');
    const { server } = await setup({ CAPTCHA_IGNORED_EMAILS: ` other@example.com , ${email.toUpperCase()} ` });
    await signUpAndActivate(server, email);
    expect((await login(server, { email, password: PASSWORD })).status).toBe(200);
    expectRefused(await login(server, { email: uniqueEmail(), password: PASSWORD }), ErrorCodes.captchaRequired);
  });

  it('never logs the secret or the token, and never puts them in a response', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { server, user } = await setup({ CAPTCHA_VERIFY_TIMEOUT_MS: '200' });
      const token = fake.issueToken('login');
      const bodies: string[] = [];
      for (const verify of ['http-500', 'not-json', 'hang', 'reject'] as const) {
        fake.behave({ verify });
        bodies.push(JSON.stringify((await login(server, { email: user.email, password: PASSWORD, recaptchaToken: token })).body));
      }
      const wrongSecret = await h.start({ ...NO_IP_LIMITS, ...fake.env({ CAPTCHA_SECRET_KEY: 'a-wrong-secret-value' }) });
      fake.behave({ verify: 'normal' });
      bodies.push(JSON.stringify((await login(wrongSecret, { email: user.email, password: PASSWORD, recaptchaToken: token })).body));
      const logged = [...warn.mock.calls, ...error.mock.calls].map((args) => args.map(String).join(' ')).join('\n');
      expect(logged).toContain('captcha: verify URL');
      for (const text of [logged, ...bodies]) {
        expect(text).not.toContain(fake.secret);
        expect(text).not.toContain('a-wrong-secret-value');
        expect(text).not.toContain(token);
      }
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });

  it('with no captcha policy, signs in without a token and never calls a verify server', async () => {
    const server = await h.start(NO_IP_LIMITS);
    const user = await signUpAndActivate(server);
    const before = fake.verifyCalls.length;
    expect((await login(server, { email: user.email, password: PASSWORD })).status).toBe(200);
    // A token sent anyway is ignored.
    expect((await login(server, { email: user.email, password: PASSWORD, recaptchaToken: 'anything' })).status).toBe(200);
    expect(fake.verifyCalls.length).toBe(before);
  });
});
