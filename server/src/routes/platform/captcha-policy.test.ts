/**
 * The public captcha policy and the captcha gate of the other unauthenticated calls that send
 * credentials or trigger mail (sign-up, passwordless prelogin, password-reset requests), against a
 * real reCAPTCHA-compatible verify server on loopback, on both dialects.
 */
import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { call, describeDialects, mailbox, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { startFakeRecaptcha, type FakeRecaptcha } from '../../test/fake-recaptcha';
import { captchaFrameSources } from './captcha-policy';

const NO_IP_LIMITS = {
  RATE_LIMIT_SIGNUP_PER_IP: '1000/3600',
  RATE_LIMIT_CAPTCHA_PER_IP: '1000/600',
  RATE_LIMIT_PASSWORD_RESET_PER_IP: '1000/3600',
  RATE_LIMIT_PASSWORD_RESET_PER_IDENTIFIER: '1000/3600',
  RATE_LIMIT_PASSWORDLESS_PER_IP: '1000/600',
};

let fake: FakeRecaptcha;
beforeAll(async () => {
  fake = await startFakeRecaptcha();
});
afterAll(async () => {
  await fake?.stop();
});
beforeEach(() => fake.behave({ score: 0.9, verify: 'normal', script: 'ok' }));

const mailTo = async (server: GatehouseServer, to: string) => {
  await server.recovery.idle();
  await server.passwordless.idle();
  return (await mailbox(server)).filter((m) => m.to === to);
};

describe('captcha frame sources for a strict CSP', () => {
  it("allow Google's reCAPTCHA frames for Google's script, the script's origin otherwise, nothing without a policy", () => {
    expect(captchaFrameSources({ scriptUrl: 'https://www.google.com/recaptcha/api.js' })).toEqual(['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/']);
    expect(captchaFrameSources({ scriptUrl: 'https://www.recaptcha.net/recaptcha/api.js' })).toEqual(['https://www.recaptcha.net']);
    expect(captchaFrameSources(null)).toEqual([]);
  });
});

describeDialects('captcha policy', (h) => {
  it('is public and off by default: enabled false, no site key, no script', async () => {
    const server = await h.start();
    const res = await call(server, 'GET', ApiPaths.captchaPolicyPublic);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: false, siteKey: null, minScore: 0.5, scriptUrl: null });
  });

  it('when set, serves the site key, minimum score and script URL, and never the secret or the ignored emails', async () => {
    const server = await h.start(fake.env({ CAPTCHA_MIN_SCORE: '0.3', CAPTCHA_IGNORED_EMAILS: 'qa-robot@example.com' }));
    const res = await call(server, 'GET', ApiPaths.captchaPolicyPublic);
    expect(res.body).toEqual({ enabled: true, siteKey: fake.siteKey, minScore: 0.3, scriptUrl: fake.scriptUrl });
    for (const path of [ApiPaths.captchaPolicyPublic, ApiPaths.vendorPublic, ApiPaths.openapi]) {
      const text = JSON.stringify((await call(server, 'GET', path)).body);
      expect(text).not.toContain(fake.secret);
      expect(text).not.toContain('qa-robot');
    }
  });

  it('sign-up needs a signup token: refused without one or with a login token (nothing created, no mail), accepted with one', async () => {
    const server = await h.start({ ...NO_IP_LIMITS, ...fake.env() });
    const email = uniqueEmail('signup');
    const body = { email, password: PASSWORD, name: 'Ada Lovelace' };
    const missing = await call(server, 'POST', ApiPaths.signUp, { body });
    expect(missing.status).toBe(400);
    expect(missing.body.errorCode).toBe(ErrorCodes.captchaRequired);
    const wrongAction = await call(server, 'POST', ApiPaths.signUp, { body: { ...body, recaptchaToken: fake.issueToken('login') } });
    expect(wrongAction.body).toMatchObject({ errorCode: ErrorCodes.captchaFailed, errorContext: { reason: 'action-mismatch' } });
    expect(await mailTo(server, email)).toEqual([]);
    expect(missing.setCookie).toBeNull();

    const ok = await call(server, 'POST', ApiPaths.signUp, { body: { ...body, recaptchaToken: fake.issueToken('signup') } });
    expect(ok.status).toBe(200);
    expect((await mailTo(server, email)).length).toBe(1);
  });

  it('passwordless prelogin needs a passwordless_login token before any link is emailed', async () => {
    const server = await h.start({ ...NO_IP_LIMITS, ...fake.env(), LOGIN_STRATEGY: 'MagicLink' });
    const { email } = await signUpAndActivate(server, uniqueEmail('link'), { recaptchaToken: fake.issueToken('signup') });
    const path = ApiPaths.passwordlessPreLogin.replace('{type}', 'magiclink');
    const missing = await call(server, 'POST', path, { body: { email } });
    expect(missing.status).toBe(400);
    expect(missing.body.errorCode).toBe(ErrorCodes.captchaRequired);
    fake.behave({ score: 0.1 });
    expect((await call(server, 'POST', path, { body: { email, recaptchaToken: fake.issueToken('passwordless_login') } })).body.errorContext).toEqual({ reason: 'low-score' });
    expect((await mailTo(server, email)).filter((m) => /sign-in link/i.test(m.subject))).toEqual([]);

    fake.behave({ score: 0.9 });
    expect((await call(server, 'POST', path, { body: { email, recaptchaToken: fake.issueToken('passwordless_login') } })).status).toBe(200);
    expect((await mailTo(server, email)).filter((m) => /sign-in link/i.test(m.subject)).length).toBe(1);
  });

  it('password-reset requests (v1 email, v2 email and SMS) need a forgot_password token before anything is sent', async () => {
    const server = await h.start({ ...NO_IP_LIMITS, ...fake.env() });
    const { email } = await signUpAndActivate(server, uniqueEmail('reset'), { recaptchaToken: fake.issueToken('signup') });
    const calls = [
      [ApiPaths.passwordsReset, { email }],
      [ApiPaths.passwordsResetEmailV2, { identifier: email, identifierType: 'email' }],
      [ApiPaths.passwordsResetSmsV2, { identifier: email, identifierType: 'email' }],
    ] as const;
    for (const [path, body] of calls) {
      const missing = await call(server, 'POST', path, { body });
      expect(missing.status, path).toBe(400);
      expect(missing.body.errorCode, path).toBe(ErrorCodes.captchaRequired);
      const signUpToken = await call(server, 'POST', path, { body: { ...body, recaptchaToken: fake.issueToken('signup') } });
      expect(signUpToken.body.errorContext, path).toEqual({ reason: 'action-mismatch' });
    }
    expect((await mailTo(server, email)).filter((m) => /reset/i.test(m.subject))).toEqual([]);

    for (const [path, body] of calls) {
      expect((await call(server, 'POST', path, { body: { ...body, recaptchaToken: fake.issueToken('forgot_password') } })).status, path).toBe(200);
    }
    expect((await mailTo(server, email)).filter((m) => /reset/i.test(m.subject)).length).toBe(2);
  });

  it('an outage of the verify URL refuses sign-up and reset requests with 503 (fails closed)', async () => {
    const server = await h.start({ ...NO_IP_LIMITS, ...fake.env() });
    fake.behave({ verify: 'http-500' });
    const signUp = await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail(), password: PASSWORD, recaptchaToken: fake.issueToken('signup') } });
    expect(signUp.status).toBe(503);
    expect(signUp.body.errorCode).toBe(ErrorCodes.captchaUnavailable);
    const reset = await call(server, 'POST', ApiPaths.passwordsResetEmailV2, { body: { identifier: uniqueEmail(), recaptchaToken: fake.issueToken('forgot_password') } });
    expect(reset.status).toBe(503);
  });

  it('ignored emails skip the check for v2 reset by email, but a username or phone identifier never matches them', async () => {
    const email = uniqueEmail('qa');
    const server = await h.start({ ...NO_IP_LIMITS, ...fake.env({ CAPTCHA_IGNORED_EMAILS: email }) });
    expect((await call(server, 'POST', ApiPaths.passwordsResetEmailV2, { body: { identifier: email, identifierType: 'email' } })).status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.passwordsResetEmailV2, { body: { identifier: email, identifierType: 'username' } })).body.errorCode).toBe(ErrorCodes.captchaRequired);
  });

  it('without a policy, sign-up, passwordless and reset requests need no token', async () => {
    const server = await h.start({ ...NO_IP_LIMITS, LOGIN_STRATEGY: 'Code' });
    const { email } = await signUpAndActivate(server);
    expect((await call(server, 'POST', ApiPaths.passwordlessPreLogin.replace('{type}', 'code'), { body: { email } })).status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.passwordsResetEmailV2, { body: { identifier: email } })).status).toBe(200);
  });
});
