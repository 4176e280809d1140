/**
 * MFA at sign-in over HTTP, both dialects: enrolment, the mfaToken step, TOTP checked by an
 * independent implementation (the "app"), replay and expiry, recovery codes, remember-device.
 */
import { describe, expect, it } from 'vitest';
import { ApiPaths, AuthContextClasses, ErrorCodes, refreshCookieName } from '@gatehouse/shared/wire';
import { mfaRememberCookieName } from '../../http/mfa-cookie';
import { call, describeDialects, signUpAndActivate } from '../../test/harness';
import { claimsOf, enrolledUser, login, stepClock } from '../../test/mfa-helpers';
import { appCode } from '../../test/rfc6238';

describeDialects('MFA sign-in', (h) => {
  it('enrols an authenticator: QR data URL, otpauth URI, base32 secret, then 10 recovery codes', async () => {
    const clock = stepClock();
    const server = await h.start({}, { clock });
    const user = await signUpAndActivate(server);
    const enroll = await call(server, 'POST', ApiPaths.mfaAuthenticatorEnroll, { token: user.accessToken });
    expect(enroll.body.qrCode).toMatch(/^data:image\/png;base64,/);
    expect(enroll.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(new URL(enroll.body.uri).searchParams.get('secret')).toBe(enroll.body.secret);
    expect(enroll.body.uri).toContain(encodeURIComponent(user.email));
    const wrong = await call(server, 'POST', ApiPaths.mfaAuthenticatorEnrollVerify, { token: user.accessToken, body: { token: appCode(enroll.body.secret, clock.now() - 120_000) } });
    expect(wrong.status).toBe(400);
    const ok = await call(server, 'POST', ApiPaths.mfaAuthenticatorEnrollVerify, { token: user.accessToken, body: { token: appCode(enroll.body.secret, clock.now()) } });
    expect(ok.status).toBe(200);
    expect(ok.body.recoveryCodes).toHaveLength(10);
    expect(new Set(ok.body.recoveryCodes).size).toBe(10);
    const devices = await call(server, 'GET', ApiPaths.mfaDevices, { token: user.accessToken });
    expect(devices.body.authenticators).toHaveLength(1);
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).body.mfaEnrolled).toBe(true);
    // Not stored in clear anywhere the API returns, and the raw secret is not in the devices list.
    expect(JSON.stringify(devices.body)).not.toContain(enroll.body.secret);
    const again = await call(server, 'POST', ApiPaths.mfaAuthenticatorEnroll, { token: user.accessToken });
    expect(again.status).toBe(409);
  });

  it('gives no session and no refresh cookie until the code is verified; then amr/acr show the second factor', async () => {
    const clock = stepClock();
    const server = await h.start({}, { clock });
    const user = await enrolledUser(server, clock.now);
    clock.advance(30_000);
    const first = await login(server, user.email);
    expect(first.status).toBe(200);
    expect(first.body.mfaRequired).toBe(true);
    expect(first.body.mfaEnrolled).toBe(true);
    expect(first.body.accessToken).toBe('');
    expect(first.body.mfaDevices.authenticators).toHaveLength(1);
    expect(first.body.mfaStrategies).toContainEqual({ strategy: 'AuthenticatorApp', isActive: true });
    expect(first.refreshCookie).toBeUndefined();
    expect(first.setCookie ?? '').not.toContain(refreshCookieName(server.config.clientId));

    const wrong = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: first.body.mfaToken, value: appCode(user.secret, clock.now() - 90_000) } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errorCode).toBe(ErrorCodes.invalidMfaCode);
    expect(wrong.refreshCookie).toBeUndefined();

    const ok = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: first.body.mfaToken, value: appCode(user.secret, clock.now()) } });
    expect(ok.status).toBe(200);
    expect(ok.refreshCookie).toBeTruthy();
    const claims = claimsOf(ok.body.accessToken);
    expect(claims.amr).toEqual(expect.arrayContaining(['pwd', 'mfa', 'otp']));
    expect(claims.acr).toBe(AuthContextClasses.mfa);
    expect(claims.auth_time).toBe(Math.floor(clock.now() / 1000));
    // The refresh keeps the second factor in the claims.
    const refreshed = await call(server, 'POST', ApiPaths.refresh, { cookie: ok.refreshCookie });
    expect(claimsOf(refreshed.body.accessToken).acr).toBe(AuthContextClasses.mfa);

    // Single use: the same mfaToken cannot make a second session.
    const reuse = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: first.body.mfaToken, value: appCode(user.secret, clock.now() + 30_000) } });
    expect(reuse.status).toBe(401);
    expect(reuse.body.errorCode).toBe(ErrorCodes.invalidMfaToken);
  });

  it('accepts ±1 step, refuses older codes and a code already used in its step (replay)', async () => {
    const clock = stepClock();
    const server = await h.start({}, { clock });
    const user = await enrolledUser(server, clock.now);
    clock.advance(120_000);
    const verify = async (code: string) => call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: (await login(server, user.email)).body.mfaToken, value: code } });

    expect((await verify(appCode(user.secret, clock.now() - 60_000))).status).toBe(400); // two steps old: expired
    const previous = appCode(user.secret, clock.now() - 30_000);
    expect((await verify(previous)).status).toBe(200); // one step behind: drift allowed
    expect((await verify(previous)).status).toBe(400); // same code again: replay
    const current = appCode(user.secret, clock.now());
    expect((await verify(current)).status).toBe(200);
    expect((await verify(current)).status).toBe(400); // replay within its own step
    expect((await verify(appCode(user.secret, clock.now() + 30_000))).status).toBe(200); // one step ahead
  });

  it('expires the mfaToken after 5 minutes and spends it after 5 wrong codes', async () => {
    const clock = stepClock();
    const server = await h.start({}, { clock });
    const user = await enrolledUser(server, clock.now);
    clock.advance(30_000);
    const stale = (await login(server, user.email)).body.mfaToken;
    clock.advance(5 * 60_000 + 1000);
    const late = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: stale, value: appCode(user.secret, clock.now()) } });
    expect(late.status).toBe(401);

    const token = (await login(server, user.email)).body.mfaToken;
    for (let i = 0; i < 5; i++) {
      const wrong = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: token, value: '000000' === appCode(user.secret, clock.now()) ? '111111' : '000000' } });
      expect(wrong.status).toBe(400);
    }
    const spent = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: token, value: appCode(user.secret, clock.now()) } });
    expect(spent.status).toBe(401);
    const unknown = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: 'x'.repeat(43), value: '123456' } });
    expect(unknown.status).toBe(401);
  });

  it('signs in with a recovery code once; the same code fails the second time', async () => {
    const clock = stepClock();
    const server = await h.start({}, { clock });
    const user = await enrolledUser(server, clock.now);
    const code = user.recoveryCodes[3]!;
    const first = await login(server, user.email);
    const recovered = await call(server, 'POST', ApiPaths.mfaRecover, { body: { mfaToken: first.body.mfaToken, recoveryCode: code.toLowerCase() } });
    expect(recovered.status).toBe(200);
    expect(recovered.refreshCookie).toBeTruthy();
    expect(claimsOf(recovered.body.accessToken).amr).toEqual(expect.arrayContaining(['mfa', 'rc']));
    const second = await login(server, user.email);
    const reused = await call(server, 'POST', ApiPaths.mfaRecover, { body: { mfaToken: second.body.mfaToken, recoveryCode: code } });
    expect(reused.status).toBe(400);
    expect(reused.body.errorCode).toBe(ErrorCodes.invalidRecoveryCode);
    const status = await call(server, 'GET', ApiPaths.mfaStatus, { token: recovered.body.accessToken });
    expect(status.body.recoveryCodesLeft).toBe(9);
  });

  it('remembers a device for its user only, and only when asked', async () => {
    const clock = stepClock();
    const server = await h.start({ MFA_REMEMBER_DEVICE_DAYS: '7' }, { clock });
    const ada = await enrolledUser(server, clock.now);
    const bob = await enrolledUser(server, clock.now);
    clock.advance(30_000);
    const pending = await login(server, ada.email);
    expect(pending.body.allowRememberDevice).toBe(true);
    const allowed = await call(server, 'POST', ApiPaths.mfaRememberDevice, { body: { mfaToken: pending.body.mfaToken } });
    expect(allowed.body).toEqual({ isAllowedToRemember: true, mfaDeviceExpiration: 7 * 86400 });
    const ok = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: pending.body.mfaToken, value: appCode(ada.secret, clock.now()), rememberDevice: true } });
    const name = mfaRememberCookieName(server.config.clientId);
    const cookie = new RegExp(`${name}=([^;]+);[^,]*HttpOnly`, 'i').exec(ok.setCookie ?? '');
    expect(cookie).toBeTruthy();
    expect(ok.setCookie).toMatch(/Max-Age=604800/);

    const remembered = await login(server, ada.email, { cookie: `${name}=${cookie![1]}` });
    expect(remembered.body.mfaRequired).toBe(false);
    expect(remembered.refreshCookie).toBeTruthy();
    expect(claimsOf(remembered.body.accessToken).acr).toBe(AuthContextClasses.password);
    // Bound to Ada: Bob in the same browser is still asked.
    expect((await login(server, bob.email, { cookie: `${name}=${cookie![1]}` })).body.mfaRequired).toBe(true);
    // Expired after 7 days.
    clock.advance(7 * 86_400_000 + 1000);
    expect((await login(server, ada.email, { cookie: `${name}=${cookie![1]}` })).body.mfaRequired).toBe(true);
  });

  it('forceTwoFactor: with MFA_POLICY=force a user without a factor enrols at sign-in and ends signed in', async () => {
    const clock = stepClock();
    const server = await h.start({ MFA_POLICY: 'force' }, { clock });
    const user = await signUpAndActivate(server);
    const pending = await login(server, user.email);
    expect(pending.body).toMatchObject({ mfaRequired: true, mfaEnrolled: false, accessToken: '' });
    expect(pending.refreshCookie).toBeUndefined();
    // An enrolment token is not a login token: no verify with it.
    expect((await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: pending.body.mfaToken, value: '123456' } })).status).toBe(401);
    const enroll = await call(server, 'POST', ApiPaths.mfaLoginAuthenticatorEnroll, { body: { mfaToken: pending.body.mfaToken } });
    expect(enroll.status).toBe(200);
    expect(enroll.body.qrCode).toMatch(/^data:image\/png;base64,/);
    const done = await call(server, 'POST', ApiPaths.mfaLoginAuthenticatorEnrollVerify, { body: { mfaToken: pending.body.mfaToken, token: appCode(enroll.body.secret, clock.now()) } });
    expect(done.status).toBe(200);
    expect(done.body.recoveryCodes).toHaveLength(10);
    expect(done.refreshCookie).toBeTruthy();
    expect(claimsOf(done.body.accessToken).acr).toBe(AuthContextClasses.mfa);
    expect(claimsOf(done.body.accessToken).amr).toEqual(['pwd', 'mfa', 'otp']);
    clock.advance(30_000);
    const next = await login(server, user.email);
    expect(next.body).toMatchObject({ mfaRequired: true, mfaEnrolled: true });
  });

  it('EmailCode: enrol with the emailed code, then pre-verify and verify at sign-in', async () => {
    const clock = stepClock();
    const server = await h.start({}, { clock });
    const user = await signUpAndActivate(server);
    const codeIn = async () => {
      const mails = (await call(server, 'GET', '/dev/mailbox.json')).body as Array<{ to: string; subject: string; text: string }>;
      return /^(\d{6})$/m.exec(mails.find((m) => m.to === user.email && /verification code/.test(m.subject))!.text)![1]!;
    };
    const enroll = await call(server, 'POST', ApiPaths.mfaEmailCodeEnroll, { token: user.accessToken });
    expect(enroll.status).toBe(200);
    const enrolled = await call(server, 'POST', ApiPaths.mfaEmailCodeEnrollVerify, { token: user.accessToken, body: { otcToken: enroll.body.otcToken, token: await codeIn() } });
    expect(enrolled.status).toBe(200);
    expect(enrolled.body.recoveryCodes).toHaveLength(10);

    clock.advance(1000); // the outbox lists newest first by time
    const pending = await login(server, user.email);
    expect(pending.body.mfaDevices.emails[0].email).toMatch(/^\w\*\*\*@example\.com$/);
    const sent = await call(server, 'POST', ApiPaths.mfaEmailCodePreVerify, { body: { mfaToken: pending.body.mfaToken } });
    expect(sent.status).toBe(200);
    const code = await codeIn();
    const wrong = await call(server, 'POST', ApiPaths.mfaEmailCodeVerify, { body: { mfaToken: pending.body.mfaToken, otcToken: sent.body.otcToken, code: code === '000000' ? '000001' : '000000' } });
    expect(wrong.status).toBe(400);
    const ok = await call(server, 'POST', ApiPaths.mfaEmailCodeVerify, { body: { mfaToken: pending.body.mfaToken, otcToken: sent.body.otcToken, code } });
    expect(ok.status).toBe(200);
    expect(ok.refreshCookie).toBeTruthy();
    expect(claimsOf(ok.body.accessToken).amr).toEqual(expect.arrayContaining(['mfa', 'email']));
    // The emailed code is single-use and dies with its mfaToken.
    const again = await login(server, user.email);
    const reused = await call(server, 'POST', ApiPaths.mfaEmailCodeVerify, { body: { mfaToken: again.body.mfaToken, otcToken: sent.body.otcToken, code } });
    expect(reused.status).toBe(400);
    // Bound to the mfaToken it was sent for: another sign-in cannot use it.
    clock.advance(1000);
    const sent2 = await call(server, 'POST', ApiPaths.mfaEmailCodePreVerify, { body: { mfaToken: again.body.mfaToken } });
    const code2 = await codeIn();
    const third = await login(server, user.email);
    expect((await call(server, 'POST', ApiPaths.mfaEmailCodeVerify, { body: { mfaToken: third.body.mfaToken, otcToken: sent2.body.otcToken, code: code2 } })).status).toBe(400);
  });

  it('disabling with a current code removes every factor; sign-in needs only the password again', async () => {
    const clock = stepClock();
    const server = await h.start({}, { clock });
    const user = await enrolledUser(server, clock.now);
    clock.advance(30_000);
    expect((await call(server, 'POST', ApiPaths.mfaDisable, { token: user.accessToken, body: { code: '000000' === appCode(user.secret, clock.now()) ? '111111' : '000000' } })).status).toBe(400);
    const off = await call(server, 'POST', ApiPaths.mfaDisable, { token: user.accessToken, body: { code: appCode(user.secret, clock.now()) } });
    expect(off.status).toBe(200);
    expect((await call(server, 'GET', ApiPaths.mfaDevices, { token: user.accessToken })).body.authenticators).toEqual([]);
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).body.mfaEnrolled).toBe(false);
    const plain = await login(server, user.email);
    expect(plain.body.mfaRequired).toBe(false);
    expect(plain.refreshCookie).toBeTruthy();
  });
});
