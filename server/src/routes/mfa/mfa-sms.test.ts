/**
 * SMS as a second factor over HTTP, both dialects: forced enrolment at sign-in, the texted code at
 * sign-in and step-up, the shared attempt limits, signed-in enrolment and removal, and MFA_STRATEGIES.
 * Codes are read from the real dev outbox (channel 'sms').
 */
import { describe, expect, it } from 'vitest';
import { ApiPaths, AuthContextClasses, ErrorCodes, isSteppedUp, MfaFactorPaths } from '@gatehouse/shared/wire';
import { loadConfig } from '../../config';
import { call, describeDialects, movableClock, signUpAndActivate } from '../../test/harness';
import { inbox, otherThan, smsEnrolledUser, uniquePhone } from '../../test/mfa-factor-helpers';
import { claimsOf, enrolledUser, login, stepClock } from '../../test/mfa-helpers';
import { appCode } from '../../test/rfc6238';

/** Every test signs in many times from one address; the per-IP limits have their own tests. */
const ROOMY = { RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_SIGNUP_PER_IP: '1000/3600' };

const preVerify = (server: Parameters<typeof call>[0], mfaToken: string, deviceId?: string) => call(server, 'POST', MfaFactorPaths.smsPreVerify, { body: { mfaToken, ...(deviceId ? { deviceId } : {}) } });
const verify = (server: Parameters<typeof call>[0], mfaToken: string, otcToken: string, code: string) => call(server, 'POST', MfaFactorPaths.smsVerify, { body: { mfaToken, otcToken, code } });

describeDialects('SMS second factor', (h) => {
  it('forceTwoFactor by SMS: smsSetPhoneNumber texts a code, smsVerifyCode ends signed in with recovery codes and amr sms', async () => {
    const server = await h.start({ ...ROOMY, MFA_POLICY: 'force' });
    const box = inbox(server);
    const user = await signUpAndActivate(server);
    const pending = await login(server, user.email);
    expect(pending.body).toMatchObject({ mfaRequired: true, mfaEnrolled: false, accessToken: '' });
    expect(pending.body.mfaStrategies).toContainEqual({ strategy: 'SMS', isActive: true });
    expect(pending.body.mfaStrategies).toContainEqual({ strategy: 'WebAuthnCrossPlatform', isActive: true });

    const bad = await call(server, 'POST', MfaFactorPaths.loginSmsEnroll, { body: { mfaToken: pending.body.mfaToken, phoneNumber: '0207 946 0958' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/international format/);

    const phone = uniquePhone();
    const typed = `${phone.slice(0, 3)} ${phone.slice(3, 7)} ${phone.slice(7)}`;
    const sent = await call(server, 'POST', MfaFactorPaths.loginSmsEnroll, { body: { mfaToken: pending.body.mfaToken, phoneNumber: typed } });
    expect(sent.status).toBe(200);
    expect(sent.body.phoneNumber).toMatch(new RegExp(`^\\+44•+${phone.slice(-4)}$`));
    // Delivered to the normalized number.
    const { code, message } = await box.next(phone);
    expect(message.text).toContain('expires in 5 minutes');
    expect(sent.refreshCookie).toBeUndefined();

    const wrong = await call(server, 'POST', MfaFactorPaths.loginSmsEnrollVerify, { body: { mfaToken: pending.body.mfaToken, otcToken: sent.body.otcToken, code: otherThan(code) } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errorCode).toBe(ErrorCodes.invalidMfaCode);
    const done = await call(server, 'POST', MfaFactorPaths.loginSmsEnrollVerify, { body: { mfaToken: pending.body.mfaToken, otcToken: sent.body.otcToken, code } });
    expect(done.status).toBe(200);
    expect(done.body.recoveryCodes).toHaveLength(10);
    expect(done.refreshCookie).toBeTruthy();
    const claims = claimsOf(done.body.accessToken);
    expect(claims.amr).toEqual(expect.arrayContaining(['mfa', 'sms']));
    expect(claims.acr).toBe(AuthContextClasses.mfa);
    expect(isSteppedUp(claims as never)).toBe(true);

    const devices = await call(server, 'GET', ApiPaths.mfaDevices, { token: done.body.accessToken });
    expect(devices.body.phones).toEqual([{ id: expect.any(String), phoneNumber: sent.body.phoneNumber, createdAt: expect.any(String) }]);
    expect(JSON.stringify(devices.body)).not.toContain(phone);
    expect((await login(server, user.email)).body).toMatchObject({ mfaRequired: true, mfaEnrolled: true });
  });

  it('signs in with a texted code: pre-verify texts the enrolled phone, the code works once and only for its mfaToken', async () => {
    const server = await h.start(ROOMY);
    const box = inbox(server);
    const user = await smsEnrolledUser(server, box);
    const first = await login(server, user.email);
    expect(first.body.mfaDevices.phones).toHaveLength(1);
    expect(first.body.mfaStrategies).toContainEqual({ strategy: 'SMS', isActive: true });
    expect(first.body.mfaStrategies).toContainEqual({ strategy: 'AuthenticatorApp', isActive: false });

    const sent = await preVerify(server, first.body.mfaToken);
    expect(sent.status).toBe(200);
    const { code } = await box.next(user.phone);
    expect((await verify(server, first.body.mfaToken, sent.body.otcToken, otherThan(code))).body.errorCode).toBe(ErrorCodes.invalidMfaCode);
    const ok = await verify(server, first.body.mfaToken, sent.body.otcToken, code);
    expect(ok.status).toBe(200);
    expect(ok.refreshCookie).toBeTruthy();
    expect(claimsOf(ok.body.accessToken).amr).toEqual(expect.arrayContaining(['pwd', 'mfa', 'sms']));

    // Reused: the mfaToken is spent, and the code is spent and bound to its own mfaToken.
    expect((await verify(server, first.body.mfaToken, sent.body.otcToken, code)).status).toBe(401);
    const second = await login(server, user.email);
    expect((await verify(server, second.body.mfaToken, sent.body.otcToken, code)).status).toBe(400);
    // A code sent for one sign-in does not finish another one.
    const sent2 = await preVerify(server, second.body.mfaToken);
    const code2 = (await box.next(user.phone)).code;
    const third = await login(server, user.email);
    expect((await verify(server, third.body.mfaToken, sent2.body.otcToken, code2)).status).toBe(400);
    // An unknown otcToken or mfaToken.
    expect((await verify(server, third.body.mfaToken, 'nope', code2)).status).toBe(400);
    expect((await verify(server, 'x'.repeat(43), sent2.body.otcToken, code2)).status).toBe(401);
  });

  it('step-up with a texted code upgrades the running session to a stepped-up one', async () => {
    const server = await h.start(ROOMY);
    const box = inbox(server);
    const user = await smsEnrolledUser(server, box);
    const generated = await call(server, 'POST', ApiPaths.stepUpGenerate, { token: user.accessToken });
    expect(generated.status).toBe(200);
    expect(generated.body.mfaDevices.phones).toHaveLength(1);
    const sent = await preVerify(server, generated.body.mfaToken);
    const upgraded = await verify(server, generated.body.mfaToken, sent.body.otcToken, (await box.next(user.phone)).code);
    expect(upgraded.status).toBe(200);
    // A step-up keeps the session: no new refresh cookie.
    expect(upgraded.refreshCookie).toBeUndefined();
    expect(isSteppedUp(claimsOf(upgraded.body.accessToken) as never, { maxAge: 60 })).toBe(true);
  });

  it('a texted code expires after 5 minutes and allows 5 attempts', async () => {
    const clock = movableClock();
    const server = await h.start(ROOMY, { clock });
    const box = inbox(server);
    const user = await smsEnrolledUser(server, box);

    const first = await login(server, user.email);
    const stale = await preVerify(server, first.body.mfaToken);
    const staleCode = (await box.next(user.phone)).code;
    clock.advance(5 * 60_000 + 1000);
    // The mfaToken expired with it; a fresh sign-in cannot use the old code either.
    expect((await verify(server, first.body.mfaToken, stale.body.otcToken, staleCode)).status).toBe(401);
    const fresh = await login(server, user.email);
    expect((await verify(server, fresh.body.mfaToken, stale.body.otcToken, staleCode)).status).toBe(400);

    const next = await login(server, user.email);
    const sent = await preVerify(server, next.body.mfaToken);
    const code = (await box.next(user.phone)).code;
    for (let i = 0; i < 5; i++) expect((await verify(server, next.body.mfaToken, sent.body.otcToken, otherThan(code))).status).toBe(400);
    // Out of attempts: the mfaToken is spent, even the right code fails.
    expect((await verify(server, next.body.mfaToken, sent.body.otcToken, code)).status).toBe(401);
  });

  it('texted-code checks share the per-user MFA attempt limit with the other factors (429)', async () => {
    const server = await h.start({ ...ROOMY, RATE_LIMIT_MFA_ATTEMPTS_PER_USER: '3/900' });
    const box = inbox(server);
    const user = await smsEnrolledUser(server, box);
    const pending = await login(server, user.email);
    const sent = await preVerify(server, pending.body.mfaToken);
    const code = (await box.next(user.phone)).code;
    for (let i = 0; i < 3; i++) expect((await verify(server, pending.body.mfaToken, sent.body.otcToken, otherThan(code))).status).toBe(400);
    const limited = await verify(server, pending.body.mfaToken, sent.body.otcToken, code);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });

  it('texting codes is limited per user and per destination number; over it nothing is sent', async () => {
    const server = await h.start({ ...ROOMY, RATE_LIMIT_SMS_CODES_PER_USER: '3/900' });
    const box = inbox(server);
    // The enrolment itself texted one code.
    const user = await smsEnrolledUser(server, box);
    const pending = await login(server, user.email);
    expect((await preVerify(server, pending.body.mfaToken)).status).toBe(200);
    expect((await preVerify(server, pending.body.mfaToken)).status).toBe(200);
    const limited = await preVerify(server, pending.body.mfaToken);
    expect(limited.status).toBe(429);
    expect(await box.drain(user.phone)).toBe(2);

    const perNumber = await h.start({ ...ROOMY, RATE_LIMIT_SMS_CODES_PER_NUMBER: '1/3600' });
    const shared = uniquePhone();
    const a = await signUpAndActivate(perNumber);
    const b = await signUpAndActivate(perNumber);
    expect((await call(perNumber, 'POST', MfaFactorPaths.smsEnroll, { token: a.accessToken, body: { phoneNumber: shared } })).status).toBe(200);
    expect((await call(perNumber, 'POST', MfaFactorPaths.smsEnroll, { token: b.accessToken, body: { phoneNumber: shared } })).status).toBe(429);
  });

  it('signed-in SMS enrolment needs a recent sign-in, a step-up once the account has a factor, and one phone at a time', async () => {
    const clock = stepClock();
    const server = await h.start(ROOMY, { clock });
    const box = inbox(server);
    const stale = await signUpAndActivate(server);
    clock.advance(11 * 60_000);
    const old = await call(server, 'POST', MfaFactorPaths.smsEnroll, { token: stale.accessToken, body: { phoneNumber: uniquePhone() } });
    expect(old.status).toBe(401); // the 5-minute access token itself has expired
    const refreshed = await call(server, 'POST', ApiPaths.refresh, { cookie: stale.cookie });
    const tooOld = await call(server, 'POST', MfaFactorPaths.smsEnroll, { token: refreshed.body.accessToken, body: { phoneNumber: uniquePhone() } });
    expect(tooOld.status).toBe(403);
    expect(tooOld.body.errorCode).toBe(ErrorCodes.recentAuthRequired);

    // An authenticator user signed in with the password only must step up before adding a phone.
    const withApp = await enrolledUser(server, clock.now);
    const needsStepUp = await call(server, 'POST', MfaFactorPaths.smsEnroll, { token: withApp.accessToken, body: { phoneNumber: uniquePhone() } });
    expect(needsStepUp.status).toBe(403);
    expect(needsStepUp.body.errorCode).toBe(ErrorCodes.stepUpRequired);
    clock.advance(30_000);
    const generated = await call(server, 'POST', ApiPaths.stepUpGenerate, { token: withApp.accessToken });
    const stepped = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: generated.body.mfaToken, value: appCode(withApp.secret, clock.now()) } });
    const phone = uniquePhone();
    const started = await call(server, 'POST', MfaFactorPaths.smsEnroll, { token: stepped.body.accessToken, body: { phoneNumber: phone } });
    expect(started.status).toBe(200);
    const code = (await box.next(phone)).code;
    expect((await call(server, 'POST', MfaFactorPaths.smsEnrollVerify, { token: stepped.body.accessToken, body: { otcToken: started.body.otcToken, token: otherThan(code) } })).status).toBe(400);
    const second = await call(server, 'POST', MfaFactorPaths.smsEnrollVerify, { token: stepped.body.accessToken, body: { otcToken: started.body.otcToken, token: code } });
    expect(second.status).toBe(200);
    // A second factor does not replace the saved recovery codes.
    expect(second.body.recoveryCodes).toEqual([]);
    const again = await call(server, 'POST', MfaFactorPaths.smsEnroll, { token: stepped.body.accessToken, body: { phoneNumber: uniquePhone() } });
    expect(again.status).toBe(409);
  });

  it("removing a phone needs a recent sign-in and the code texted to it; another user's phone is not found", async () => {
    const clock = movableClock();
    const server = await h.start(ROOMY, { clock });
    const box = inbox(server);
    const ada = await smsEnrolledUser(server, box);
    const bob = await smsEnrolledUser(server, box);
    const adaPhoneId = (await call(server, 'GET', ApiPaths.mfaDevices, { token: ada.accessToken })).body.phones[0].id as string;
    const disablePath = (id: string) => MfaFactorPaths.smsDisable.replace('{deviceId}', id);
    const verifyPath = (id: string) => MfaFactorPaths.smsDisableVerify.replace('{deviceId}', id);

    expect((await call(server, 'POST', disablePath(adaPhoneId), { token: bob.accessToken })).status).toBe(404);
    const bobLogin = await login(server, bob.email);
    expect((await preVerify(server, bobLogin.body.mfaToken, adaPhoneId)).status).toBe(404);

    const sent = await call(server, 'POST', disablePath(adaPhoneId), { token: ada.accessToken });
    expect(sent.status).toBe(200);
    const { code } = await box.next(ada.phone);
    // Bob cannot use Ada's code on his own session either.
    expect((await call(server, 'POST', verifyPath(adaPhoneId), { token: bob.accessToken, body: { otcToken: sent.body.otcToken, code } })).status).toBe(404);
    expect((await call(server, 'POST', verifyPath(adaPhoneId), { token: ada.accessToken, body: { otcToken: sent.body.otcToken, code: otherThan(code) } })).status).toBe(400);

    // Stale auth: a session signed in more than 10 minutes ago must sign in again.
    clock.advance(11 * 60_000);
    const refreshed = await call(server, 'POST', ApiPaths.refresh, { cookie: ada.cookie });
    const stale = await call(server, 'POST', verifyPath(adaPhoneId), { token: refreshed.body.accessToken, body: { otcToken: sent.body.otcToken, code } });
    expect(stale.status).toBe(403);
    expect(stale.body.errorCode).toBe(ErrorCodes.recentAuthRequired);

    const pending = await login(server, ada.email);
    const signIn = await preVerify(server, pending.body.mfaToken);
    const fresh = await verify(server, pending.body.mfaToken, signIn.body.otcToken, (await box.next(ada.phone)).code);
    const again = await call(server, 'POST', disablePath(adaPhoneId), { token: fresh.body.accessToken });
    const removed = await call(server, 'POST', verifyPath(adaPhoneId), { token: fresh.body.accessToken, body: { otcToken: again.body.otcToken, code: (await box.next(ada.phone)).code } });
    expect(removed.status).toBe(200);
    // It was the only factor: MFA is off, recovery codes gone, sign-in needs the password only.
    const status = await call(server, 'GET', ApiPaths.mfaStatus, { token: fresh.body.accessToken });
    expect(status.body).toMatchObject({ enrolled: false, recoveryCodesLeft: 0 });
    expect((await login(server, ada.email)).body.mfaRequired).toBe(false);
  });

  it('MFA_STRATEGIES: a method turned off is neither offered nor accepted, and the strategies config says so', async () => {
    const server = await h.start(ROOMY);
    const box = inbox(server);
    const user = await smsEnrolledUser(server, box);
    const config = await call(server, 'GET', MfaFactorPaths.strategiesConfig);
    expect(config.body.strategies).toContainEqual({ strategy: 'SMS', isActive: true });

    const off = await h.start({ ...ROOMY, MFA_STRATEGIES: 'AuthenticatorApp,EmailCode' });
    expect((await call(off, 'GET', MfaFactorPaths.strategiesConfig)).body.strategies).toEqual([
      { strategy: 'AuthenticatorApp', isActive: true },
      { strategy: 'WebAuthnPlatform', isActive: false },
      { strategy: 'WebAuthnCrossPlatform', isActive: false },
      { strategy: 'SMS', isActive: false },
      { strategy: 'EmailCode', isActive: true },
    ]);
    // The enrolled phone still counts (MFA is still required) but cannot be used; recovery codes can.
    const pending = await login(off, user.email);
    expect(pending.body.mfaRequired).toBe(true);
    expect(pending.body.mfaStrategies).toContainEqual({ strategy: 'SMS', isActive: false });
    const refused = await preVerify(off, pending.body.mfaToken);
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(ErrorCodes.mfaStrategyNotActive);
    const fresh = await signUpAndActivate(off);
    expect((await call(off, 'POST', MfaFactorPaths.smsEnroll, { token: fresh.accessToken, body: { phoneNumber: uniquePhone() } })).status).toBe(403);
    const recovered = await call(off, 'POST', ApiPaths.mfaRecover, { body: { mfaToken: pending.body.mfaToken, recoveryCode: user.recoveryCodes[0] } });
    expect(recovered.status).toBe(200);
  });
});

describe('MFA_STRATEGIES config', () => {
  it('refuses an unknown method with a sentence naming the variable', () => {
    expect(() => loadConfig({ MFA_STRATEGIES: 'SMS,CarrierPigeon' })).toThrow(/MFA_STRATEGIES must list some of AuthenticatorApp, EmailCode, SMS/);
    expect(loadConfig({ MFA_STRATEGIES: 'sms, authenticatorapp' }).mfaStrategies).toEqual(['SMS', 'AuthenticatorApp']);
  });
});
