import { ApiPaths, ErrorCodes, SelfServiceErrorCodes, SelfServicePaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { call, describeDialects, mailbox, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { claimsOf, enrolledUser, login, stepClock } from '../../test/mfa-helpers';
import { appCode } from '../../test/rfc6238';

const ROOMY = { RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_ACTIVATION_PER_IP: '1000/600' };

/** The newest email to `to` whose subject matches. */
async function newestMail(server: GatehouseServer, to: string, subject: RegExp) {
  const mail = (await mailbox(server)).find((m) => m.to === to && subject.test(m.subject));
  if (!mail) throw new Error(`no mail to ${to} matching ${subject}`);
  return mail;
}

/** The 6-digit code printed on a line of its own in an email's text version. */
const codeIn = (text: string) => /\n(\d{6})\n/.exec(text)![1]!;
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function signUp(server: GatehouseServer, email = uniqueEmail(), headers: Record<string, string> = {}) {
  const res = await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD, name: 'Grace Hopper' }, headers });
  expect(res.status).toBe(200);
  const binding = res.headers.getSetCookie().find((c) => c.startsWith('gatehouse-signup='))!.split(';')[0]!;
  return { email, userId: res.body.userId as string, binding };
}

/** A stepped-up access token: the authenticator code proven just now. */
async function steppedUp(server: GatehouseServer, accessToken: string, secret: string, now: number): Promise<string> {
  const gen = await call(server, 'POST', ApiPaths.stepUpGenerate, { token: accessToken });
  const ok = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: gen.body.mfaToken, value: appCode(secret, now) } });
  expect(ok.status).toBe(200);
  return ok.body.accessToken as string;
}

describeDialects('account self-service (issue 11 section 3)', (h) => {
  it('activation by code: the code in the activation email activates and signs in the browser that signed up; wrong codes get one answer', async () => {
    const server = await h.start(ROOMY);
    const user = await signUp(server);
    const mail = await newestMail(server, user.email, /^Activate your/);
    const code = codeIn(mail.text);
    const activate = (body: Record<string, unknown>, cookie = user.binding) => call(server, 'POST', SelfServicePaths.activateWithCode, { body, headers: { cookie } });

    const refused = { errors: ['The activation code is invalid or has expired'], errorCode: SelfServiceErrorCodes.invalidActivationCode };
    expect((await activate({ email: user.email, code: otherThan(code) })).body).toEqual(refused);
    // An unknown address answers exactly like a wrong code.
    expect((await activate({ email: uniqueEmail('nobody'), code })).body).toEqual(refused);
    expect((await activate({ email: user.email, code: 'abc' })).status).toBe(400);
    // Another browser (no sign-up cookie) must choose the password itself.
    expect((await activate({ email: user.email, code }, '')).body.errorCode).toBe(ErrorCodes.passwordPolicy);

    const ok = await activate({ email: user.email.toUpperCase(), code });
    expect(ok.status).toBe(200);
    expect(ok.refreshCookie).toBeTruthy();
    expect(claimsOf(ok.body.accessToken)).toMatchObject({ sub: user.userId, email_verified: true });
    // Single use: the account is active now, and the code says nothing more.
    expect((await activate({ email: user.email, code })).body).toEqual(refused);
    expect((await login(server, user.email)).status).toBe(200);
  });

  it('activation by code: five wrong codes spend the email, even the right code then fails; a resend brings a new one', async () => {
    const server = await h.start({ ...ROOMY, RATE_LIMIT_RESEND_PER_EMAIL: '10/3600' });
    const user = await signUp(server);
    const code = codeIn((await newestMail(server, user.email, /^Activate your/)).text);
    const activate = (c: string) => call(server, 'POST', SelfServicePaths.activateWithCode, { body: { userId: user.userId, code: c }, headers: { cookie: user.binding } });
    for (let i = 0; i < 5; i++) expect((await activate(otherThan(code))).status).toBe(400);
    expect((await activate(code)).body.errorCode).toBe(SelfServiceErrorCodes.invalidActivationCode);

    expect((await call(server, 'POST', ApiPaths.activateResend, { body: { email: user.email } })).status).toBe(200);
    const fresh = codeIn((await newestMail(server, user.email, /^Activate your/)).text);
    // The resent link is not bound to the sign-up browser: the password is chosen again.
    const ok = await call(server, 'POST', SelfServicePaths.activateWithCode, { body: { email: user.email, code: fresh, password: 'a new long passphrase' } });
    expect(ok.status).toBe(200);
  });

  it('the right password of an account not activated yet is told to verify the email, in the language the page asked for', async () => {
    const server = await h.start(ROOMY);
    const user = await signUp(server, uniqueEmail(), { 'accept-language': 'fr-FR, de;q=0.8, en;q=0.5' });
    const mail = await newestMail(server, user.email, /./);
    // French is not offered; German comes next in the request's order.
    expect(mail.subject).toMatch(/^Aktivieren Sie/);
    expect(mail.html).toContain('lang="de"');
    const res = await login(server, user.email);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: ErrorCodes.userNotVerified, errorContext: { resendActivation: true } });
  });

  it("X-Gatehouse-Locale (the bundles' language) wins over Accept-Language, and the account keeps it for later emails", async () => {
    const server = await h.start({ ...ROOMY, RATE_LIMIT_RESEND_PER_EMAIL: '10/3600' });
    const user = await signUp(server, uniqueEmail(), { 'x-gatehouse-locale': 'he', 'accept-language': 'de' });
    const first = await newestMail(server, user.email, /./);
    expect(first.html).toContain('lang="he" dir="rtl"');
    // A later request in another language: the account's own language still applies.
    await call(server, 'POST', ApiPaths.activateResend, { body: { email: user.email }, headers: { 'accept-language': 'es' } });
    const mails = (await mailbox(server)).filter((m) => m.to === user.email);
    expect(mails).toHaveLength(2);
    expect(mails.every((m) => m.html?.includes('lang="he" dir="rtl"'))).toBe(true);
    expect(mails[0]!.subject).toBe(first.subject);
  });

  it('email change: the new address proves itself with the code, then replaces the old one, which is told', async () => {
    const server = await h.start(ROOMY);
    const user = await signUpAndActivate(server);
    const newEmail = uniqueEmail('new');
    const asked = await call(server, 'POST', SelfServicePaths.changeEmail, { token: user.accessToken, body: { email: newEmail.toUpperCase() } });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ email: `${newEmail[0]}***@example.com`, expiresIn: 1800 });
    const mail = await newestMail(server, newEmail, /./);
    // Greeted by the name on the account (the sign-up's typed name applies only in its own browser).
    const { name } = (await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).body;
    expect(mail.text).toContain(`Hi ${name},`);
    expect(mail.text).toMatch(/\/account\/email\/verify\?token=/);
    const code = codeIn(mail.text);
    // Nothing changed yet.
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).body.email).toBe(user.email);

    const verify = (body: Record<string, unknown>, token?: string) => call(server, 'POST', SelfServicePaths.verifyEmailChange, { body, token });
    expect((await verify({ code: otherThan(code) }, user.accessToken)).body.errorCode).toBe(SelfServiceErrorCodes.invalidEmailChange);
    // The code works only for the signed-in user who asked.
    expect((await verify({ code })).status).toBe(401);
    const other = await signUpAndActivate(server);
    expect((await verify({ code }, other.accessToken)).body.errorCode).toBe(SelfServiceErrorCodes.invalidEmailChange);

    const done = await verify({ code }, user.accessToken);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ email: newEmail });
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).body.email).toBe(newEmail);
    const notice = await newestMail(server, user.email, /changed/i);
    expect(notice.text).toContain(`${newEmail[0]}***@example.com`);
    expect((await login(server, newEmail)).status).toBe(200);
    expect((await login(server, user.email)).status).toBe(401);
    // Used: neither the code nor the link works again.
    expect((await verify({ code }, user.accessToken)).status).toBe(400);
    const actions = (await server.db.selectFrom('audits').select('action').where('user_id', '=', user.userId).execute()).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['Email change requested', 'Email changed']));
  });

  it('email change: the emailed link works signed out; a newer request ends the older link; taken and same addresses are refused', async () => {
    const server = await h.start(ROOMY);
    const user = await signUpAndActivate(server);
    const taken = await signUpAndActivate(server);
    const ask = (email: string) => call(server, 'POST', SelfServicePaths.changeEmail, { token: user.accessToken, body: { email } });
    expect((await ask(taken.email)).body.errorCode).toBe(SelfServiceErrorCodes.emailTaken);
    expect((await ask(taken.email)).status).toBe(409);
    expect((await ask(user.email)).body.errorCode).toBe(SelfServiceErrorCodes.sameEmail);

    const first = uniqueEmail('first');
    await ask(first);
    const oldLink = new URL(/https?:\/\/\S+\/account\/email\/verify\?\S+/.exec((await newestMail(server, first, /./)).text)![0]);
    const second = uniqueEmail('second');
    await ask(second);
    const link = new URL(/https?:\/\/\S+\/account\/email\/verify\?\S+/.exec((await newestMail(server, second, /./)).text)![0]);
    const verify = (token: string) => call(server, 'POST', SelfServicePaths.verifyEmailChange, { body: { token } });
    expect((await verify(oldLink.searchParams.get('token')!)).body.errorCode).toBe(SelfServiceErrorCodes.invalidEmailChange);
    const done = await verify(link.searchParams.get('token')!);
    expect(done.body).toEqual({ email: second });
    expect((await verify(link.searchParams.get('token')!)).status).toBe(400);
  });

  it('email change needs a recent sign-in, and a recent step-up once MFA is enrolled', async () => {
    const clock = stepClock();
    const server = await h.start(ROOMY, { clock });
    const plain = await signUpAndActivate(server);
    clock.advance(11 * 60_000);
    const stale = await call(server, 'POST', SelfServicePaths.changeEmail, { token: (await call(server, 'POST', ApiPaths.refresh, { cookie: plain.cookie })).body.accessToken, body: { email: uniqueEmail() } });
    expect(stale.status).toBe(403);
    expect(stale.body.errorCode).toBe(ErrorCodes.recentAuthRequired);

    const mfa = await enrolledUser(server, clock.now);
    const noStepUp = await call(server, 'POST', SelfServicePaths.changeEmail, { token: mfa.accessToken, body: { email: uniqueEmail() } });
    expect(noStepUp.body.errorCode).toBe(ErrorCodes.stepUpRequired);
    clock.advance(30_000);
    const token = await steppedUp(server, mfa.accessToken, mfa.secret, clock.now());
    expect((await call(server, 'POST', SelfServicePaths.changeEmail, { token, body: { email: uniqueEmail() } })).status).toBe(200);
  });

  it('new recovery codes need MFA enrolled and a recent step-up; the old codes stop working', async () => {
    const clock = stepClock();
    const server = await h.start(ROOMY, { clock });
    const plain = await signUpAndActivate(server);
    expect((await call(server, 'POST', SelfServicePaths.regenerateRecoveryCodes, { token: plain.accessToken })).body.errorCode).toBe(ErrorCodes.noMfaEnrolled);

    const user = await enrolledUser(server, clock.now);
    const refused = await call(server, 'POST', SelfServicePaths.regenerateRecoveryCodes, { token: user.accessToken });
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(ErrorCodes.stepUpRequired);

    clock.advance(30_000);
    const token = await steppedUp(server, user.accessToken, user.secret, clock.now());
    const fresh = await call(server, 'POST', SelfServicePaths.regenerateRecoveryCodes, { token });
    expect(fresh.status).toBe(200);
    expect(fresh.body.recoveryCodes).toHaveLength(user.recoveryCodes.length);
    expect(fresh.body.recoveryCodes).not.toContain(user.recoveryCodes[0]);

    // An old code no longer proves the second factor; a new one does.
    const pending = await login(server, user.email);
    const old = await call(server, 'POST', ApiPaths.mfaRecover, { body: { mfaToken: pending.body.mfaToken, recoveryCode: user.recoveryCodes[0] } });
    expect(old.status).toBe(400);
    const pending2 = await login(server, user.email);
    const ok = await call(server, 'POST', ApiPaths.mfaRecover, { body: { mfaToken: pending2.body.mfaToken, recoveryCode: fresh.body.recoveryCodes[0] } });
    expect(ok.status).toBe(200);
  });

  it('changing the password with MFA enrolled needs a recent step-up, besides the current password', async () => {
    const clock = stepClock();
    const server = await h.start(ROOMY, { clock });
    const user = await enrolledUser(server, clock.now);
    const body = { password: PASSWORD, newPassword: 'a different long passphrase' };
    const refused = await call(server, 'POST', ApiPaths.passwordsChange, { token: user.accessToken, body });
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(ErrorCodes.stepUpRequired);
    clock.advance(30_000);
    const token = await steppedUp(server, user.accessToken, user.secret, clock.now());
    expect((await call(server, 'POST', ApiPaths.passwordsChange, { token, body })).status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.login, { body: { email: user.email, password: body.newPassword } })).status).toBe(200);
  });
});
