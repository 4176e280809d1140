import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { loadConfig } from '../../config';
import { updateUser } from '../../db/queries/users';
import { CODE_TTL_MS, MAGIC_LINK_TTL_MS } from '../../services/passwordless/passwordless';
import { call, describeDialects, mailbox, movableClock, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { appCode } from '../../test/rfc6238';

const pre = (type: string) => ApiPaths.passwordlessPreLogin.replace('{type}', type);
const post = (type: string) => ApiPaths.passwordlessPostLogin.replace('{type}', type);

/** The newest passwordless mail to `to` after the background delivery finished. */
async function newestMail(server: GatehouseServer, to: string, subject: RegExp) {
  await server.passwordless.idle();
  return (await mailbox(server)).find((m) => m.to === to && subject.test(m.subject));
}

async function magicTokenFor(server: GatehouseServer, to: string): Promise<{ token: string; link: string }> {
  const mail = await newestMail(server, to, /sign-in link/i);
  const link = /https?:\/\/\S+\/account\/login\/magic-link\?\S+/.exec(mail?.text ?? '')?.[0];
  if (!link) throw new Error(`no magic link to ${to}`);
  return { token: new URL(link).searchParams.get('token')!, link };
}

async function codeFor(server: GatehouseServer, to: string): Promise<string> {
  const mail = await newestMail(server, to, /sign-in code/i);
  const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
  if (!code) throw new Error(`no code to ${to}`);
  return code;
}

const claimsOf = (accessToken: string) => JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString('utf8'));

describeDialects('passwordless sign-in', (h) => {
  const limits = { RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_PASSWORDLESS_PER_IP: '1000/600' };
  const start: typeof h.start = (env = {}, overrides) => h.start({ ...limits, ...env }, overrides);

  it('MagicLink: the emailed link signs in once, like a password sign-in (session cookie, amr email)', async () => {
    const server = await start({ LOGIN_STRATEGY: 'MagicLink' });
    expect((await call(server, 'GET', ApiPaths.vendorPublic)).body.loginStrategy).toBe('MagicLink');
    const user = await signUpAndActivate(server);
    const requested = await call(server, 'POST', pre('magiclink'), { body: { email: user.email.toUpperCase() } });
    expect(requested.status).toBe(200);
    expect(requested.body).toEqual({});
    const { token, link } = await magicTokenFor(server, user.email);
    expect(link.startsWith(`${server.config.appUrl}/account/login/magic-link?token=`)).toBe(true);

    const signedIn = await call(server, 'POST', post('magiclink'), { body: { token } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.mfaRequired).toBe(false);
    expect(signedIn.refreshCookie).toBeTruthy();
    expect(claimsOf(signedIn.body.accessToken)).toMatchObject({ sub: user.userId, amr: ['email'] });
    expect((await call(server, 'GET', ApiPaths.me, { token: signedIn.body.accessToken })).status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: signedIn.refreshCookie!, body: {} })).status).toBe(200);

    // Single use.
    const reused = await call(server, 'POST', post('magiclink'), { body: { token } });
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({ errors: ['The sign-in link is invalid or has expired'], errorCode: ErrorCodes.invalidMagicLink });
  });

  it('MagicLink: refuses wrong, expired and superseded links', async () => {
    const clock = movableClock();
    const server = await start({ LOGIN_STRATEGY: 'MagicLink' }, { clock });
    const user = await signUpAndActivate(server);
    expect((await call(server, 'POST', post('magiclink'), { body: { token: 'not-a-real-token' } })).status).toBe(400);

    await call(server, 'POST', pre('magiclink'), { body: { email: user.email } });
    const first = await magicTokenFor(server, user.email);
    clock.advance(1000);
    await call(server, 'POST', pre('magiclink'), { body: { email: user.email } });
    const second = await magicTokenFor(server, user.email);
    expect(second.token).not.toBe(first.token);
    // Only the newest link works.
    expect((await call(server, 'POST', post('magiclink'), { body: { token: first.token } })).status).toBe(400);

    clock.advance(MAGIC_LINK_TTL_MS + 1);
    const expired = await call(server, 'POST', post('magiclink'), { body: { token: second.token } });
    expect(expired.status).toBe(400);
    expect(expired.body.errorCode).toBe(ErrorCodes.invalidMagicLink);
  });

  it('MagicLink: no enumeration — unknown, unactivated and known emails get the same answer; only the active user gets mail', async () => {
    const server = await start({ LOGIN_STRATEGY: 'MagicLink' });
    const user = await signUpAndActivate(server);
    const unknown = uniqueEmail('nobody');
    const pending = uniqueEmail('pending');
    await call(server, 'POST', ApiPaths.signUp, { body: { email: pending, password: PASSWORD, name: 'Pending' } });
    const answers = await Promise.all([user.email, unknown, pending].map((email) => call(server, 'POST', pre('magiclink'), { body: { email } })));
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body).toEqual({});
    }
    await server.passwordless.idle();
    const mails = await mailbox(server);
    const asked = [user.email, unknown, pending];
    expect(mails.filter((m) => asked.includes(m.to) && /sign-in link/i.test(m.subject)).map((m) => m.to)).toEqual([user.email]);
  });

  it('MagicLink: over the per-identifier limit the answer is the same but nothing is sent', async () => {
    const server = await start({ LOGIN_STRATEGY: 'MagicLink', RATE_LIMIT_PASSWORDLESS_PER_IDENTIFIER: '2/3600' });
    const user = await signUpAndActivate(server);
    for (let i = 0; i < 4; i += 1) expect((await call(server, 'POST', pre('magiclink'), { body: { email: user.email } })).status).toBe(200);
    await server.passwordless.idle();
    expect((await mailbox(server)).filter((m) => m.to === user.email && /sign-in link/i.test(m.subject))).toHaveLength(2);
  });

  it('rate-limits passwordless calls per IP (429)', async () => {
    const server = await start({ LOGIN_STRATEGY: 'MagicLink', RATE_LIMIT_PASSWORDLESS_PER_IP: '3/600', TRUST_PROXY: 'true' });
    // A client IP of its own: the file's other tests share the unknown-IP counter.
    const headers = { 'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await call(server, 'POST', post('magiclink'), { body: { token: `guess-${i}` }, headers })).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
  });

  it('Code: the emailed 6-digit code signs in once (amr email + otp); wrong attempts are limited, then the code is spent', async () => {
    const clock = movableClock();
    const server = await start({ LOGIN_STRATEGY: 'Code' }, { clock });
    const user = await signUpAndActivate(server);
    await call(server, 'POST', pre('code'), { body: { email: user.email } });
    const code = await codeFor(server, user.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      const res = await call(server, 'POST', post('code'), { body: { email: user.email, code: wrong } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors: ['The code is invalid or has expired'], errorCode: ErrorCodes.invalidPasswordlessCode });
    }
    // Out of attempts: even the right code no longer works.
    expect((await call(server, 'POST', post('code'), { body: { email: user.email, code } })).status).toBe(400);

    clock.advance(1000);
    await call(server, 'POST', pre('code'), { body: { email: user.email } });
    const fresh = await codeFor(server, user.email);
    const ok = await call(server, 'POST', post('code'), { body: { email: user.email, code: fresh } });
    expect(ok.status).toBe(200);
    expect(ok.refreshCookie).toBeTruthy();
    expect(claimsOf(ok.body.accessToken).amr).toEqual(['email', 'otp']);
    expect((await call(server, 'POST', post('code'), { body: { email: user.email, code: fresh } })).status).toBe(400);
  });

  it('Code: parallel guesses never get more than the attempt limit of comparisons', async () => {
    const server = await start({ LOGIN_STRATEGY: 'Code' });
    const user = await signUpAndActivate(server);
    await call(server, 'POST', pre('code'), { body: { email: user.email } });
    const code = await codeFor(server, user.email);
    const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const results = await Promise.all(guesses.map((g) => call(server, 'POST', post('code'), { body: { email: user.email, code: g } })));
    expect(results.every((r) => r.status === 400)).toBe(true);
    // All attempts were reserved before comparing: the right code is now refused too.
    expect((await call(server, 'POST', post('code'), { body: { email: user.email, code } })).status).toBe(400);
  });

  it('Code: an expired code is refused; an unknown email gets the same error as a wrong code', async () => {
    const clock = movableClock();
    const server = await start({ LOGIN_STRATEGY: 'Code' }, { clock });
    const user = await signUpAndActivate(server);
    await call(server, 'POST', pre('code'), { body: { email: user.email } });
    const code = await codeFor(server, user.email);
    clock.advance(CODE_TTL_MS + 1);
    const expired = await call(server, 'POST', post('code'), { body: { email: user.email, code } });
    const unknown = await call(server, 'POST', post('code'), { body: { email: uniqueEmail('nobody'), code } });
    expect(expired.status).toBe(400);
    expect(unknown.body).toEqual(expired.body);
  });

  it('UsernameAndCode and UsernameAndMagicLink: a username signs in; under email strategies a username is not accepted', async () => {
    const server = await start({ LOGIN_STRATEGY: 'UsernameAndCode' });
    const user = await signUpAndActivate(server);
    const username = `ada${Date.now()}`;
    await updateUser(server.db, user.userId, { username });
    await call(server, 'POST', pre('code'), { body: { username } });
    const code = await codeFor(server, user.email);
    const ok = await call(server, 'POST', post('code'), { body: { username, code } });
    expect(ok.status).toBe(200);
    expect(claimsOf(ok.body.accessToken).sub).toBe(user.userId);
    await server.close();

    const links = await start({ LOGIN_STRATEGY: 'UsernameAndMagicLink' });
    await call(links, 'POST', pre('magiclink'), { body: { username } });
    const { token } = await magicTokenFor(links, user.email);
    expect((await call(links, 'POST', post('magiclink'), { body: { token } })).status).toBe(200);
    await links.close();

    const byEmail = await start({ LOGIN_STRATEGY: 'Code' });
    const refused = await call(byEmail, 'POST', pre('code'), { body: { username } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual(['email is required']);
  });

  it('refuses a passwordless type the login policy does not use', async () => {
    const server = await start();
    const res = await call(server, 'POST', pre('magiclink'), { body: { email: uniqueEmail() } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: ['Sign-in by magic link is not enabled for this application'], errorCode: ErrorCodes.passwordlessNotEnabled });
    const code = await start({ LOGIN_STRATEGY: 'MagicLink' });
    expect((await call(code, 'POST', post('code'), { body: { email: uniqueEmail(), code: '123456' } })).body.errorCode).toBe(ErrorCodes.passwordlessNotEnabled);
  });

  it('NoLocalAuthentication: password, magic-link and code sign-in are refused with a clear error', async () => {
    const open = await start();
    const user = await signUpAndActivate(open);
    await open.close();
    const server = await start({ LOGIN_STRATEGY: 'NoLocalAuthentication' });
    const expected = { errors: ['Sign-in with a password, link or code is turned off for this application; use single sign-on instead'], errorCode: ErrorCodes.localLoginDisabled };
    const password = await call(server, 'POST', ApiPaths.login, { body: { email: user.email, password: PASSWORD } });
    expect(password.status).toBe(403);
    expect(password.body).toEqual(expected);
    for (const type of ['magiclink', 'code']) {
      const res = await call(server, 'POST', pre(type), { body: { email: user.email } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(expected);
    }
  });

  it('MFA: under a forced MFA policy a magic link answers mfaRequired and starts no session (the MFA gate of password sign-in)', async () => {
    const server = await start({ LOGIN_STRATEGY: 'MagicLink', MFA_POLICY: 'force' });
    const { email } = await signUpAndActivate(server);
    await call(server, 'POST', pre('magiclink'), { body: { email } });
    const { token } = await magicTokenFor(server, email);
    const res = await call(server, 'POST', post('magiclink'), { body: { token } });
    expect(res.status).toBe(200);
    expect(res.body.mfaRequired).toBe(true);
    expect(res.body.mfaToken).toBeTruthy();
    expect(res.refreshCookie).toBeUndefined();
    // Completing the second factor: amr says how the sign-in really began (no password was used).
    const enroll = await call(server, 'POST', ApiPaths.mfaLoginAuthenticatorEnroll, { body: { mfaToken: res.body.mfaToken } });
    const done = await call(server, 'POST', ApiPaths.mfaLoginAuthenticatorEnrollVerify, { body: { mfaToken: res.body.mfaToken, token: appCode(enroll.body.secret, Date.now()) } });
    expect(done.status).toBe(200);
    const amr = claimsOf(done.body.accessToken).amr as string[];
    expect(amr).toContain('mfa');
    expect(amr).not.toContain('pwd');
  });
});

it('LOGIN_STRATEGY is validated against the supported strategies', () => {
  expect(loadConfig({ LOGIN_STRATEGY: 'UsernameAndCode' }).loginStrategy).toBe('UsernameAndCode');
  expect(loadConfig({}).loginStrategy).toBe('EmailAndPassword');
  expect(() => loadConfig({ LOGIN_STRATEGY: 'Telepathy' })).toThrow(
    'LOGIN_STRATEGY must be one of EmailAndPassword, MagicLink, Code, UsernameAndPassword, UsernameAndMagicLink, UsernameAndCode, NoLocalAuthentication, SmsCode, SmsCodeV2, UsernameAndSms, got "Telepathy".',
  );
});
