import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { updateUser } from '../../db/queries/users';
import { INVALID_PHONE_MESSAGE, maskPhoneNumber } from '../../services/platform/phone';
import { SMS_CODE_MAX_ATTEMPTS, SMS_CODE_TTL_MS } from '../../services/passwordless/sms-login';
import { call, describeDialects, mailbox, movableClock, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { claimsOf } from '../../test/mfa-helpers';

const pre = (type: string) => ApiPaths.passwordlessPreLogin.replace('{type}', type);
const post = (type: string) => ApiPaths.passwordlessPostLogin.replace('{type}', type);
const INVALID_CODE = { errors: ['The code is invalid or has expired'], errorCode: ErrorCodes.invalidPasswordlessCode };

/** A UK mobile number nobody else in this file's database has: E.164 and the way a person types it. */
function newPhone(): { e164: string; typed: string } {
  const digits = String(Math.floor(10_000_000 + Math.random() * 89_999_999));
  return { e164: `+447${digits}`, typed: `+44 7${digits.slice(0, 3)} ${digits.slice(3)}` };
}

/** An activated user (email sign-up) whose phone number was verified (as a phone sign-up or a verified change leaves it). */
async function userWithVerifiedPhone(server: GatehouseServer) {
  const user = await signUpAndActivate(server);
  const phone = newPhone();
  await updateUser(server.db, user.userId, { phone_number: phone.e164, phone_verified: 1 });
  return { ...user, phone };
}

/** Every SMS to `e164` in the dev outbox (newest first), after the background deliveries finished. */
async function smsTo(server: GatehouseServer, e164: string) {
  await server.smsLogin.idle();
  return (await mailbox(server)).filter((m) => m.channel === 'sms' && m.to === e164);
}

async function codeTexted(server: GatehouseServer, e164: string): Promise<string> {
  const sms = (await smsTo(server, e164))[0];
  const code = /\b(\d{6})\b/.exec(sms?.text ?? '')?.[1];
  if (!code) throw new Error(`no SMS code to ${e164}`);
  return code;
}

const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

describeDialects('SMS sign-in (passwordless smscode)', (h) => {
  const limits = { RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_PASSWORDLESS_PER_IP: '1000/600', RATE_LIMIT_PASSWORDLESS_PER_IDENTIFIER: '1000/3600' };
  const start: typeof h.start = (env = {}, overrides) => h.start({ ...limits, ...env }, overrides);

  it('SmsCodeV2: the code texted to the typed phone number signs in once, like a password sign-in (cookie, amr sms + otp)', async () => {
    const server = await start({ LOGIN_STRATEGY: 'SmsCodeV2' });
    expect((await call(server, 'GET', ApiPaths.vendorPublic)).body.loginStrategy).toBe('SmsCodeV2');
    const user = await userWithVerifiedPhone(server);
    const requested = await call(server, 'POST', pre('smscode'), { body: { phoneNumber: user.phone.typed } });
    expect(requested.status).toBe(200);
    // Where the code went: the typed number, normalized and masked.
    expect(requested.body).toEqual({ phoneNumber: maskPhoneNumber(user.phone.e164) });
    const sms = (await smsTo(server, user.phone.e164))[0]!;
    expect(sms.text).toMatch(/Your Gatehouse sign-in code is \d{6}\. It expires in 5 minutes\./);
    const code = await codeTexted(server, user.phone.e164);

    const signedIn = await call(server, 'POST', post('smscode'), { body: { phoneNumber: user.phone.typed, code } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.mfaRequired).toBe(false);
    expect(signedIn.refreshCookie).toBeTruthy();
    expect(claimsOf(signedIn.body.accessToken)).toMatchObject({ sub: user.userId, amr: ['sms', 'otp'], acr: 'urn:gatehouse:acr:pwd' });
    expect((await call(server, 'GET', ApiPaths.me, { token: signedIn.body.accessToken })).body.email).toBe(user.email);
    expect((await server.db.selectFrom('audits').select('description').where('user_id', '=', user.userId).where('action', '=', 'User signed in').execute()).map((r) => r.description)).toContain('Signed in with SMS code');

    // Single use.
    const reused = await call(server, 'POST', post('smscode'), { body: { phoneNumber: user.phone.e164, code } });
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual(INVALID_CODE);
  });

  it('refuses a wrong code, an expired code and a code superseded by a newer one, all with one message', async () => {
    const clock = movableClock();
    const server = await start({ LOGIN_STRATEGY: 'SmsCodeV2' }, { clock });
    const user = await userWithVerifiedPhone(server);
    const body = (code: string) => ({ body: { phoneNumber: user.phone.e164, code } });

    await call(server, 'POST', pre('smscode'), { body: { phoneNumber: user.phone.e164 } });
    const first = await codeTexted(server, user.phone.e164);
    const wrongOne = await call(server, 'POST', post('smscode'), body(wrong(first)));
    expect(wrongOne.status).toBe(400);
    expect(wrongOne.body).toEqual(INVALID_CODE);

    clock.advance(1000);
    await call(server, 'POST', pre('smscode'), { body: { phoneNumber: user.phone.e164 } });
    const second = await codeTexted(server, user.phone.e164);
    // Only the newest code works (unless the two happen to be equal).
    if (second !== first) expect((await call(server, 'POST', post('smscode'), body(first))).body).toEqual(INVALID_CODE);

    clock.advance(SMS_CODE_TTL_MS + 1);
    const expired = await call(server, 'POST', post('smscode'), body(second));
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual(INVALID_CODE);
  });

  it(`a code allows ${SMS_CODE_MAX_ATTEMPTS} attempts, reserved before the comparison even in parallel; then it is spent`, async () => {
    const server = await start({ LOGIN_STRATEGY: 'SmsCodeV2' });
    const user = await userWithVerifiedPhone(server);
    await call(server, 'POST', pre('smscode'), { body: { phoneNumber: user.phone.e164 } });
    const code = await codeTexted(server, user.phone.e164);
    const guesses = await Promise.all(Array.from({ length: SMS_CODE_MAX_ATTEMPTS + 3 }, () => call(server, 'POST', post('smscode'), { body: { phoneNumber: user.phone.e164, code: wrong(code) } })));
    expect(guesses.every((g) => g.status === 400)).toBe(true);
    // Every attempt was used up by the guesses: the right code is refused too.
    expect((await call(server, 'POST', post('smscode'), { body: { phoneNumber: user.phone.e164, code } })).body).toEqual(INVALID_CODE);
  });

  it('no enumeration: unknown, unverified and known numbers get the same answer; only the verified number gets an SMS', async () => {
    const server = await start({ LOGIN_STRATEGY: 'SmsCodeV2' });
    const known = await userWithVerifiedPhone(server);
    const unverified = await signUpAndActivate(server);
    const unverifiedPhone = newPhone();
    await updateUser(server.db, unverified.userId, { phone_number: unverifiedPhone.e164 });
    const disabled = await userWithVerifiedPhone(server);
    await updateUser(server.db, disabled.userId, { disabled: 1 });
    const unknown = newPhone();

    const numbers = [known.phone, unverifiedPhone, disabled.phone, unknown];
    const answers = await Promise.all(numbers.map((p) => call(server, 'POST', pre('smscode'), { body: { phoneNumber: p.typed } })));
    answers.forEach((a, i) => {
      expect(a.status).toBe(200);
      expect(a.body).toEqual({ phoneNumber: maskPhoneNumber(numbers[i]!.e164) });
    });
    await server.smsLogin.idle();
    const texted = (await mailbox(server)).filter((m) => m.channel === 'sms' && numbers.some((p) => p.e164 === m.to)).map((m) => m.to);
    expect(texted).toEqual([known.phone.e164]);

    // Sign-in answers are alike too: an unknown number fails exactly like a wrong code.
    const unknownTry = await call(server, 'POST', post('smscode'), { body: { phoneNumber: unknown.e164, code: '123456' } });
    const unverifiedTry = await call(server, 'POST', post('smscode'), { body: { phoneNumber: unverifiedPhone.e164, code: '123456' } });
    expect([unknownTry.status, unverifiedTry.status]).toEqual([400, 400]);
    expect(unknownTry.body).toEqual(INVALID_CODE);
    expect(unverifiedTry.body).toEqual(INVALID_CODE);
  });

  it('SmsCode: the user types an email; the code goes to the verified number, never to an unverified profile number', async () => {
    const server = await start({ LOGIN_STRATEGY: 'SmsCode' });
    const user = await userWithVerifiedPhone(server);
    const requested = await call(server, 'POST', pre('smscode'), { body: { email: user.email.toUpperCase() } });
    // Nothing about the account is disclosed: no number for an email.
    expect(requested.body).toEqual({});
    const code = await codeTexted(server, user.phone.e164);
    const ok = await call(server, 'POST', post('smscode'), { body: { email: user.email, code } });
    expect(ok.status).toBe(200);
    expect(claimsOf(ok.body.accessToken)).toMatchObject({ sub: user.userId, amr: ['sms', 'otp'] });

    // A number typed into the profile (not verified) receives nothing.
    const profileOnly = await signUpAndActivate(server);
    const phone = newPhone();
    expect((await call(server, 'PUT', ApiPaths.me, { token: profileOnly.accessToken, body: { phoneNumber: phone.typed } })).status).toBe(200);
    expect((await call(server, 'POST', pre('smscode'), { body: { email: profileOnly.email } })).status).toBe(200);
    expect(await smsTo(server, phone.e164)).toHaveLength(0);
    expect(await smsTo(server, phone.typed)).toHaveLength(0);
  });

  it('UsernameAndSms: a username (or an email) signs in with the texted code', async () => {
    const server = await start({ LOGIN_STRATEGY: 'UsernameAndSms' });
    const user = await userWithVerifiedPhone(server);
    const username = `ada${Date.now()}`;
    await updateUser(server.db, user.userId, { username });
    await call(server, 'POST', pre('smscode'), { body: { username } });
    const code = await codeTexted(server, user.phone.e164);
    const ok = await call(server, 'POST', post('smscode'), { body: { username, code } });
    expect(ok.status).toBe(200);
    expect(claimsOf(ok.body.accessToken).sub).toBe(user.userId);
    // Under SmsCodeV2 a username is not an identifier: the phone number is required.
    const v2 = await start({ LOGIN_STRATEGY: 'SmsCodeV2' });
    const refused = await call(v2, 'POST', pre('smscode'), { body: { username } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual(['phoneNumber is required']);
  });

  it('a number that is not in international format gets a clear 400', async () => {
    const server = await start({ LOGIN_STRATEGY: 'SmsCodeV2' });
    for (const phoneNumber of ['07946 0958', '+44 abc', '+12']) {
      const res = await call(server, 'POST', pre('smscode'), { body: { phoneNumber } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors: [INVALID_PHONE_MESSAGE], errorCode: ErrorCodes.validation });
    }
  });

  it('over the per-identifier limit the answer is the same but nothing is sent; an email and a username of one account share the number limit', async () => {
    const server = await start({ LOGIN_STRATEGY: 'UsernameAndSms', RATE_LIMIT_PASSWORDLESS_PER_IDENTIFIER: '2/3600' });
    const user = await userWithVerifiedPhone(server);
    const username = `bob${Date.now()}`;
    await updateUser(server.db, user.userId, { username });
    for (const body of [{ username }, { email: user.email }, { username }, { email: user.email }]) {
      const res = await call(server, 'POST', pre('smscode'), { body });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
    }
    // Two identifiers, each under its own limit, but one destination number: 2 SMS, not 4.
    expect(await smsTo(server, user.phone.e164)).toHaveLength(2);
  });

  it('rate-limits SMS sign-in calls per IP (429)', async () => {
    const server = await start({ LOGIN_STRATEGY: 'SmsCodeV2', RATE_LIMIT_PASSWORDLESS_PER_IP: '3/600', TRUST_PROXY: 'true' });
    // A client IP of its own: the file's other tests share the unknown-IP counter.
    const headers = { 'x-forwarded-for': `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` };
    const phoneNumber = newPhone().e164;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await call(server, 'POST', post('smscode'), { body: { phoneNumber, code: '123456' }, headers })).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
  });

  it('type smscode is refused unless the login policy is an SMS strategy, and email types are refused under SMS strategies', async () => {
    const server = await start({ LOGIN_STRATEGY: 'Code' });
    const res = await call(server, 'POST', pre('smscode'), { body: { email: uniqueEmail() } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: ['Sign-in by SMS code is not enabled for this application'], errorCode: ErrorCodes.passwordlessNotEnabled });
    const sms = await start({ LOGIN_STRATEGY: 'SmsCode' });
    expect((await call(sms, 'POST', pre('code'), { body: { email: uniqueEmail() } })).body.errorCode).toBe(ErrorCodes.passwordlessNotEnabled);
    const none = await start({ LOGIN_STRATEGY: 'NoLocalAuthentication' });
    expect((await call(none, 'POST', pre('smscode'), { body: { phoneNumber: newPhone().e164 } })).body.errorCode).toBe(ErrorCodes.localLoginDisabled);
  });

  it('MFA applies: an enrolled or forced user gets mfaRequired and no session from the SMS code', async () => {
    const server = await start({ LOGIN_STRATEGY: 'SmsCodeV2', MFA_POLICY: 'force' });
    const user = await userWithVerifiedPhone(server);
    await call(server, 'POST', pre('smscode'), { body: { phoneNumber: user.phone.e164 } });
    const res = await call(server, 'POST', post('smscode'), { body: { phoneNumber: user.phone.e164, code: await codeTexted(server, user.phone.e164) } });
    expect(res.status).toBe(200);
    expect(res.body.mfaRequired).toBe(true);
    expect(res.body.mfaToken).toBeTruthy();
    expect(res.refreshCookie).toBeUndefined();
  });

  it('a code texted to a number the account no longer holds is dead', async () => {
    const server = await start({ LOGIN_STRATEGY: 'SmsCode' });
    const user = await userWithVerifiedPhone(server);
    await call(server, 'POST', pre('smscode'), { body: { email: user.email } });
    const code = await codeTexted(server, user.phone.e164);
    // The number changes (as a verified phone change would) before the code is used.
    await updateUser(server.db, user.userId, { phone_number: newPhone().e164 });
    expect((await call(server, 'POST', post('smscode'), { body: { email: user.email, code } })).body).toEqual(INVALID_CODE);
  });

  it('the profile cannot change or remove a verified number; typing it again in another spelling keeps it', async () => {
    const server = await start({ LOGIN_STRATEGY: 'SmsCodeV2' });
    const user = await userWithVerifiedPhone(server);
    const same = await call(server, 'PUT', ApiPaths.me, { token: user.accessToken, body: { phoneNumber: user.phone.typed, name: 'Ada B' } });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ phoneNumber: user.phone.e164, name: 'Ada B' });
    for (const phoneNumber of [newPhone().typed, null, '']) {
      const changed = await call(server, 'PUT', ApiPaths.me, { token: user.accessToken, body: { phoneNumber } });
      expect(changed.status).toBe(400);
      expect(changed.body.errors[0]).toMatch(/verified phone number cannot be changed or removed here/);
    }
    // Still the sign-in number.
    await call(server, 'POST', pre('smscode'), { body: { phoneNumber: user.phone.e164 } });
    expect((await call(server, 'POST', post('smscode'), { body: { phoneNumber: user.phone.e164, code: await codeTexted(server, user.phone.e164) } })).status).toBe(200);
  });
});
