/**
 * Regression tests of the security review of the captcha gate: CAPTCHA_IGNORED_EMAILS must only
 * spare calls about those addresses, never a call that names one and acts on another identifier.
 */
import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { call, describeDialects, mailbox, uniqueEmail } from '../../test/harness';
import { startFakeRecaptcha, type FakeRecaptcha } from '../../test/fake-recaptcha';

const NO_IP_LIMITS = { RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_CAPTCHA_PER_IP: '1000/600', RATE_LIMIT_PASSWORDLESS_PER_IP: '1000/600' };
const pre = (type: string) => ApiPaths.passwordlessPreLogin.replace('{type}', type);

let fake: FakeRecaptcha;
beforeAll(async () => {
  fake = await startFakeRecaptcha();
});
afterAll(async () => {
  await fake?.stop();
});
beforeEach(() => fake.behave({ score: 0.9, verify: 'normal', script: 'ok' }));

describeDialects('captcha gate: security review', (h) => {
  it('bug: an ignored email next to a phone number let a passwordless SMS prelogin text any number without a captcha token', async () => {
    const ignored = uniqueEmail('qa');
    const server = await h.start({ ...NO_IP_LIMITS, ...fake.env({ CAPTCHA_IGNORED_EMAILS: ignored }), LOGIN_STRATEGY: 'SmsCodeV2' });
    const res = await call(server, 'POST', pre('smscode'), { body: { email: ignored, phoneNumber: '+447700900123' } });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe(ErrorCodes.captchaRequired);
    await server.smsLogin.idle();
    expect((await mailbox(server)).filter((m) => m.channel === 'sms')).toEqual([]);
  });

  it('bug: an ignored email next to a username let a passwordless prelogin reach that username without a captcha token', async () => {
    const ignored = uniqueEmail('qa');
    const server = await h.start({ ...NO_IP_LIMITS, ...fake.env({ CAPTCHA_IGNORED_EMAILS: ignored }), LOGIN_STRATEGY: 'UsernameAndCode' });
    const res = await call(server, 'POST', pre('code'), { body: { email: ignored, username: 'someone-else' } });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe(ErrorCodes.captchaRequired);
  });

  it('the ignored email alone still skips the check, and a sign-up with a phone number as profile field keeps it', async () => {
    const ignored = uniqueEmail('qa');
    const server = await h.start({ ...NO_IP_LIMITS, ...fake.env({ CAPTCHA_IGNORED_EMAILS: ignored }), LOGIN_STRATEGY: 'Code' });
    expect((await call(server, 'POST', pre('code'), { body: { email: ignored } })).status).toBe(200);
    const signUp = await call(server, 'POST', ApiPaths.signUp, { body: { email: ignored, password: 'correct horse battery', phoneNumber: '+447700900124' } });
    expect(signUp.body.errorCode).not.toBe(ErrorCodes.captchaRequired);
    expect(signUp.status).toBe(200);
  });
});
