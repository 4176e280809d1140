import { ApiPaths, ErrorCodes, PHONE_SIGNUP_REQUIRED_MESSAGE } from '@gatehouse/shared/wire';
import { describe, expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { loadConfig } from '../../config';
import { findUserByVerifiedPhone, markPhoneVerified } from '../../db/queries/phone-users';
import { findUserById, updateUser } from '../../db/queries/users';
import { INVALID_PHONE_MESSAGE } from '../../services/platform/phone';
import { activationLinkFor, call, describeDialects, mailbox, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { claimsOf } from '../../test/mfa-helpers';

const pre = ApiPaths.passwordlessPreLogin.replace('{type}', 'smscode');
const post = ApiPaths.passwordlessPostLogin.replace('{type}', 'smscode');
/** Phone sign-up on, email off: the deployment phone sign-up is for (it needs SmsCodeV2 to sign in again). */
const PHONE_ONLY = { SIGNUP_EMAIL: 'off', SIGNUP_PHONE_NUMBER: 'required', LOGIN_STRATEGY: 'SmsCodeV2' };

function newPhone(): { e164: string; typed: string } {
  const digits = String(Math.floor(10_000_000 + Math.random() * 89_999_999));
  return { e164: `+447${digits}`, typed: `+44 (7${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` };
}

async function codeTexted(server: GatehouseServer, e164: string): Promise<string> {
  await server.smsLogin.idle();
  const sms = (await mailbox(server)).find((m) => m.channel === 'sms' && m.to === e164);
  const code = /\b(\d{6})\b/.exec(sms?.text ?? '')?.[1];
  if (!code) throw new Error(`no SMS code to ${e164}`);
  return code;
}

/** The browser's path after a phone sign-up (VerifyPhone, then loginWithQuickSmsOtc): text a code, send it back. */
async function proveNumber(server: GatehouseServer, phoneNumber: string, e164: string) {
  expect((await call(server, 'POST', pre, { body: { phoneNumber } })).status).toBe(200);
  return call(server, 'POST', post, { body: { phoneNumber, code: await codeTexted(server, e164) } });
}

describeDialects('sign-up strategies and sign-up by phone number', (h) => {
  const limits = { RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_PASSWORDLESS_PER_IP: '1000/600', RATE_LIMIT_PASSWORDLESS_PER_IDENTIFIER: '1000/3600' };
  const start: typeof h.start = (env = {}, overrides) => h.start({ ...limits, ...env }, overrides);

  it('GET sign-up strategies (and /vendors/public) follow SIGNUP_EMAIL and SIGNUP_PHONE_NUMBER', async () => {
    const defaults = await start();
    expect((await call(defaults, 'GET', ApiPaths.signUpStrategies)).body).toEqual({ email: { enabled: true, required: true }, phoneNumber: { enabled: false, required: false } });
    const both = await start({ SIGNUP_EMAIL: 'optional', SIGNUP_PHONE_NUMBER: 'optional', LOGIN_STRATEGY: 'SmsCodeV2' });
    const expected = { email: { enabled: true, required: false }, phoneNumber: { enabled: true, required: false } };
    expect((await call(both, 'GET', ApiPaths.signUpStrategies)).body).toEqual(expected);
    expect((await call(both, 'GET', ApiPaths.vendorPublic)).body.signUpStrategies).toEqual(expected);
  });

  it('phone sign-up: the texted code verifies the number, activates the account and signs in; the account has no email', async () => {
    const server = await start(PHONE_ONLY);
    const phone = newPhone();
    const signUp = await call(server, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: phone.typed, name: 'Grace Hopper', companyName: 'Navy Labs' } });
    expect(signUp.status).toBe(200);
    expect(signUp.body).toMatchObject({ shouldActivate: true });
    expect(signUp.body.activationToken).toBeUndefined();
    const pending = await findUserById(server.db, signUp.body.userId);
    // Stored in E.164, not yet verified, not activated, no email and no password.
    expect(pending).toMatchObject({ phone_number: phone.e164, phone_verified: 0, verified: 0, email: null, password_hash: null });

    const signedIn = await proveNumber(server, phone.typed, phone.e164);
    expect(signedIn.status).toBe(200);
    expect(signedIn.refreshCookie).toBeTruthy();
    const claims = claimsOf(signedIn.body.accessToken);
    expect(claims).toMatchObject({ sub: signUp.body.userId, amr: ['sms', 'otp'], email_verified: false, name: 'Grace Hopper' });
    expect(claims.email).toBeUndefined();
    const me = await call(server, 'GET', ApiPaths.me, { token: signedIn.body.accessToken });
    expect(me.body).toMatchObject({ email: null, phoneNumber: phone.e164, name: 'Grace Hopper', verified: true });
    expect(me.body.tenants.map((t: { name: string }) => t.name)).toEqual(['Navy Labs']);
    expect(await findUserById(server.db, signUp.body.userId)).toMatchObject({ phone_verified: 1, verified: 1 });

    // Later: an ordinary SmsCodeV2 sign-in with the now verified number.
    const again = await proveNumber(server, phone.e164, phone.e164);
    expect(again.status).toBe(200);
    expect(claimsOf(again.body.accessToken).sub).toBe(signUp.body.userId);
  });

  it(`a phone sign-up without a phone number gets exactly '${PHONE_SIGNUP_REQUIRED_MESSAGE}'`, async () => {
    const server = await start(PHONE_ONLY);
    for (const body of [{ name: 'No Phone' }, { phoneNumber: '' }, { phoneNumber: '   ' }]) {
      const res = await call(server, 'POST', ApiPaths.signUpPhoneNumber, { body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors: [PHONE_SIGNUP_REQUIRED_MESSAGE], errorCode: ErrorCodes.validation });
    }
    const local = await call(server, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: '07946 095800' } });
    expect(local.status).toBe(400);
    expect(local.body.errors).toEqual([INVALID_PHONE_MESSAGE]);
  });

  it('a disabled strategy is refused: phone sign-up with SIGNUP_PHONE_NUMBER=off, email sign-up with SIGNUP_EMAIL=off', async () => {
    const emailOnly = await start();
    const phoneRefused = await call(emailOnly, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: newPhone().e164 } });
    expect(phoneRefused.status).toBe(403);
    expect(phoneRefused.body).toEqual({ errors: ['Sign-up with a phone number is disabled'], errorCode: ErrorCodes.signUpStrategyDisabled });

    const phoneOnly = await start(PHONE_ONLY);
    const emailRefused = await call(phoneOnly, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail(), password: PASSWORD } });
    expect(emailRefused.status).toBe(403);
    expect(emailRefused.body).toEqual({ errors: ['Sign-up with an email address is disabled; sign up with your phone number'], errorCode: ErrorCodes.signUpStrategyDisabled });

    const closed = await start({ ...PHONE_ONLY, ALLOW_SIGNUPS: 'false' });
    expect((await call(closed, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: newPhone().e164 } })).body.errorCode).toBe(ErrorCodes.signUpDisabled);
  });

  it('with the email strategy required, phone sign-up is refused and the phone number is a field of the email sign-up', async () => {
    const server = await start({ SIGNUP_EMAIL: 'required', SIGNUP_PHONE_NUMBER: 'required', LOGIN_STRATEGY: 'SmsCode' });
    const refused = await call(server, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: newPhone().e164 } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual(['Email is required: sign up with your email address']);

    const missing = await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail(), password: PASSWORD } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual(['Phone number is required']);

    const phone = newPhone();
    const email = uniqueEmail();
    const signUp = await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD, phoneNumber: phone.typed } });
    expect(signUp.status).toBe(200);
    // Activated in the browser that signed up (its binding cookie), so the sign-up's profile applies.
    const binding = /gatehouse-signup=([^;]+)/.exec(signUp.setCookie ?? '')![1]!;
    const { userId, token } = await activationLinkFor(server, email);
    expect((await call(server, 'POST', ApiPaths.activate, { body: { userId, token }, headers: { cookie: `gatehouse-signup=${binding}` } })).status).toBe(200);
    // Stored in E.164 but never verified by an email sign-up: it receives no sign-in codes.
    expect(await findUserById(server.db, userId)).toMatchObject({ phone_number: phone.e164, phone_verified: 0, verified: 1 });
    expect((await call(server, 'POST', pre, { body: { email } })).status).toBe(200);
    await server.smsLogin.idle();
    expect((await mailbox(server)).filter((m) => m.to === phone.e164)).toHaveLength(0);
  });

  it('optional strategies: an email sign-up may leave the phone out; an invalid one is refused', async () => {
    const server = await start({ SIGNUP_EMAIL: 'optional', SIGNUP_PHONE_NUMBER: 'optional', LOGIN_STRATEGY: 'SmsCodeV2' });
    const email = uniqueEmail();
    expect((await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD } })).status).toBe(200);
    expect((await activationLinkFor(server, email)).userId).toBeTruthy();
    const bad = await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail(), password: PASSWORD, phoneNumber: '555-0100' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([INVALID_PHONE_MESSAGE]);
  });

  it('a verified number cannot sign up again (409); an unfinished sign-up of a number is reused as it is (its first profile stays)', async () => {
    const server = await start(PHONE_ONLY);
    const phone = newPhone();
    const first = await call(server, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: phone.e164, name: 'Someone Else', companyName: 'Squatters' } });
    const second = await call(server, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: phone.typed, name: 'Real Owner', companyName: 'Owner Co' } });
    expect([first.status, second.status]).toEqual([200, 200]);
    // The second answer names no existing account.
    expect(second.body.userId).not.toBe(first.body.userId);
    const signedIn = await proveNumber(server, phone.e164, phone.e164);
    expect(claimsOf(signedIn.body.accessToken).sub).toBe(first.body.userId);
    const me = await call(server, 'GET', ApiPaths.me, { token: signedIn.body.accessToken });
    expect(me.body).toMatchObject({ name: 'Someone Else' });
    expect(me.body.tenants.map((t: { name: string }) => t.name)).toEqual(['Squatters']);

    const again = await call(server, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: phone.typed } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ errors: ['User already exists'], errorCode: ErrorCodes.userAlreadyExists });
  });

  it('two users never share a verified number: the database refuses it and verification answers false', async () => {
    const server = await start(PHONE_ONLY);
    const phone = newPhone();
    const signUp = await call(server, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: phone.e164 } });
    expect((await proveNumber(server, phone.e164, phone.e164)).status).toBe(200);
    const other = await signUpAndActivate(await start(), uniqueEmail());
    await updateUser(server.db, other.userId, { phone_number: phone.e164 });
    expect(await markPhoneVerified(server.db, other.userId, phone.e164, false)).toBe(false);
    await expect(updateUser(server.db, other.userId, { phone_verified: 1 })).rejects.toThrow();
    expect((await findUserByVerifiedPhone(server.db, phone.e164))?.id).toBe(signUp.body.userId);
  });

  it('phone sign-ups count against the per-IP sign-up limit (429)', async () => {
    const server = await start({ ...PHONE_ONLY, RATE_LIMIT_SIGNUP_PER_IP: '2/3600', TRUST_PROXY: 'true' });
    const headers = { 'x-forwarded-for': `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await call(server, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: newPhone().e164 }, headers })).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('sign-up strategy configuration', () => {
  it('defaults to email required and phone off, and reads required / optional / off', () => {
    expect(loadConfig({}).signUpStrategies).toEqual({ email: { enabled: true, required: true }, phoneNumber: { enabled: false, required: false } });
    expect(loadConfig({ SIGNUP_EMAIL: 'Optional', SIGNUP_PHONE_NUMBER: 'required', LOGIN_STRATEGY: 'SmsCodeV2', GATEHOUSE_DEV: '1' }).signUpStrategies).toEqual({
      email: { enabled: true, required: false },
      phoneNumber: { enabled: true, required: true },
    });
    expect(() => loadConfig({ SIGNUP_EMAIL: 'maybe' })).toThrow('SIGNUP_EMAIL must be one of required, optional, off, got "maybe".');
  });

  it('refuses settings that would leave users unable to sign up or to sign in again', () => {
    expect(() => loadConfig({ SIGNUP_EMAIL: 'off' })).toThrow(/SIGNUP_EMAIL and SIGNUP_PHONE_NUMBER are both off/);
    expect(() => loadConfig({ SIGNUP_EMAIL: 'off', SIGNUP_PHONE_NUMBER: 'required' })).toThrow(/LOGIN_STRATEGY is EmailAndPassword, so they could never sign in again/);
    // With email required the phone is a profile field of the email sign-up: any login strategy works.
    expect(loadConfig({ SIGNUP_PHONE_NUMBER: 'optional' }).signUpStrategies.phoneNumber.enabled).toBe(true);
  });

  it('an SMS login strategy needs an SMS provider outside dev mode', () => {
    expect(() => loadConfig({ LOGIN_STRATEGY: 'SmsCodeV2' })).toThrow(/LOGIN_STRATEGY=SmsCodeV2 texts sign-in codes, but SMS_HTTP_URL is not set/);
    expect(loadConfig({ LOGIN_STRATEGY: 'SmsCode', SMS_HTTP_URL: 'https://sms.example.com/send' }).loginStrategy).toBe('SmsCode');
    expect(loadConfig({ LOGIN_STRATEGY: 'UsernameAndSms', GATEHOUSE_DEV: '1' }).loginStrategy).toBe('UsernameAndSms');
  });
});
