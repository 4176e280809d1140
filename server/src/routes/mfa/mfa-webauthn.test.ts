/**
 * WebAuthn as a second factor over HTTP, both dialects, with a software authenticator producing real
 * attestations and signatures: forced enrolment (platform and cross-platform), the assertion at sign-in
 * (amr hwk), challenge binding and replay, cloned keys, the key never signing in alone, signed-in
 * enrolment and removal, and the device types of seed 000 section 3.
 */
import { expect, it } from 'vitest';
import { ApiPaths, AuthContextClasses, ErrorCodes, isSteppedUp, MfaFactorPaths } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { call, describeDialects, movableClock, signUpAndActivate } from '../../test/harness';
import { asRoaming, keyEnrolledUser } from '../../test/mfa-factor-helpers';
import { claimsOf, login } from '../../test/mfa-helpers';
import { SoftAuthenticator, type CeremonyOverrides } from '../../test/soft-authenticator';

const ROOMY = { RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_SIGNUP_PER_IP: '1000/3600' };

/** pre-verify + verify with `key` for a fresh sign-in of `email`. */
async function signInWithKey(server: GatehouseServer, email: string, key: SoftAuthenticator, o: CeremonyOverrides = {}) {
  const pending = await login(server, email);
  expect(pending.body.mfaRequired).toBe(true);
  const options = await call(server, 'POST', MfaFactorPaths.webauthnPreVerify, { body: { mfaToken: pending.body.mfaToken } });
  expect(options.status).toBe(200);
  const credential = key.get(options.body.options, o);
  const res = await call(server, 'POST', MfaFactorPaths.webauthnVerify, { body: { mfaToken: pending.body.mfaToken, credential } });
  return { pending, options, credential, res };
}

describeDialects('WebAuthn second factor', (h) => {
  it('forceTwoFactor with WebAuthnPlatform: a new-device session of deviceType platform stores an internal key and ends signed in (amr hwk)', async () => {
    const server = await h.start({ ...ROOMY, MFA_POLICY: 'force' });
    const user = await signUpAndActivate(server);
    const pending = await login(server, user.email);
    expect(pending.body).toMatchObject({ mfaRequired: true, mfaEnrolled: false });
    expect(pending.body.mfaStrategies).toContainEqual({ strategy: 'WebAuthnPlatform', isActive: true });

    const badType = await call(server, 'POST', MfaFactorPaths.loginWebauthnEnroll, { body: { mfaToken: pending.body.mfaToken, deviceType: 'toaster' } });
    expect(badType.status).toBe(400);
    const options = await call(server, 'POST', MfaFactorPaths.loginWebauthnEnroll, { body: { mfaToken: pending.body.mfaToken, deviceType: 'platform' } });
    expect(options.status).toBe(200);
    expect(options.body.options.authenticatorSelection).toMatchObject({ authenticatorAttachment: 'platform', residentKey: 'discouraged' });
    const key = new SoftAuthenticator();
    const done = await call(server, 'POST', MfaFactorPaths.loginWebauthnEnrollVerify, { body: { mfaToken: pending.body.mfaToken, credential: key.create(options.body.options) } });
    expect(done.status).toBe(200);
    expect(done.body.recoveryCodes).toHaveLength(10);
    expect(done.refreshCookie).toBeTruthy();
    const claims = claimsOf(done.body.accessToken);
    expect(claims.amr).toEqual(expect.arrayContaining(['mfa', 'hwk']));
    expect(claims.acr).toBe(AuthContextClasses.mfa);
    expect(isSteppedUp(claims as never)).toBe(true);

    const devices = await call(server, 'GET', ApiPaths.mfaDevices, { token: done.body.accessToken });
    expect(devices.body.webauthn).toEqual([{ id: expect.any(String), deviceType: 'internal', createdAt: expect.any(String) }]);
    // Next sign-in: the key is asked for, and it is accepted.
    const { res } = await signInWithKey(server, user.email, key);
    expect(res.status).toBe(200);
    expect(claimsOf(res.body.accessToken).amr).toEqual(expect.arrayContaining(['pwd', 'mfa', 'hwk']));
  });

  it('signed-in enrolment of a cross-platform key records usb-key, then the key finishes sign-ins and step-ups', async () => {
    const server = await h.start(ROOMY);
    const user = await keyEnrolledUser(server);
    expect(user.recoveryCodes).toHaveLength(10);
    const devices = await call(server, 'GET', ApiPaths.mfaDevices, { token: user.accessToken });
    expect(devices.body.webauthn).toEqual([{ id: expect.any(String), deviceType: 'usb-key', name: 'Yubikey', createdAt: expect.any(String) }]);
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).body.mfaEnrolled).toBe(true);

    const { pending, options, res } = await signInWithKey(server, user.email, user.key);
    expect(pending.body.mfaStrategies).toContainEqual({ strategy: 'WebAuthnCrossPlatform', isActive: true });
    expect(pending.body.mfaDevices.webauthn).toHaveLength(1);
    // Only this user's key may answer, and no user verification is demanded of a second factor.
    expect(options.body.options.allowCredentials).toEqual([{ id: user.key.id, type: 'public-key', transports: ['usb'] }]);
    expect(options.body.options.userVerification).toBe('preferred');
    expect(res.status).toBe(200);
    expect(res.refreshCookie).toBeTruthy();

    const generated = await call(server, 'POST', ApiPaths.stepUpGenerate, { token: user.accessToken });
    const stepOptions = await call(server, 'POST', MfaFactorPaths.webauthnPreVerify, { body: { mfaToken: generated.body.mfaToken } });
    const stepped = await call(server, 'POST', MfaFactorPaths.webauthnVerify, { body: { mfaToken: generated.body.mfaToken, credential: user.key.get(stepOptions.body.options) } });
    expect(stepped.status).toBe(200);
    expect(stepped.refreshCookie).toBeUndefined();
    expect(isSteppedUp(claimsOf(stepped.body.accessToken) as never, { maxAge: 60 })).toBe(true);
  });

  it('a challenge is single-use and bound to its mfaToken; a wrong key, a bad signature and a cloned counter fail', async () => {
    const server = await h.start(ROOMY);
    const user = await keyEnrolledUser(server);
    const { pending, credential, res } = await signInWithKey(server, user.email, user.key);
    expect(res.status).toBe(200);
    // Replay of a valid assertion: the mfaToken and the challenge are both spent.
    expect((await call(server, 'POST', MfaFactorPaths.webauthnVerify, { body: { mfaToken: pending.body.mfaToken, credential } })).status).toBe(401);
    const other = await login(server, user.email);
    const replayed = await call(server, 'POST', MfaFactorPaths.webauthnVerify, { body: { mfaToken: other.body.mfaToken, credential } });
    expect(replayed.status).toBe(400);
    expect(replayed.body.errorCode).toBe(ErrorCodes.passkeyChallengeInvalid);

    // A challenge issued for one sign-in does not finish another.
    const a = await login(server, user.email);
    const b = await login(server, user.email);
    const optionsA = await call(server, 'POST', MfaFactorPaths.webauthnPreVerify, { body: { mfaToken: a.body.mfaToken } });
    expect((await call(server, 'POST', MfaFactorPaths.webauthnVerify, { body: { mfaToken: b.body.mfaToken, credential: user.key.get(optionsA.body.options) } })).status).toBe(400);

    // Someone else's key (never enrolled here) signing the right challenge.
    const stranger = new SoftAuthenticator();
    const wrongKey = await signInWithKey(server, user.email, stranger);
    expect(wrongKey.res.status).toBe(400);
    expect(wrongKey.res.body.errorCode).toBe(ErrorCodes.invalidMfaCode);
    expect((await signInWithKey(server, user.email, user.key, { corruptSignature: true })).res.status).toBe(400);
    expect((await signInWithKey(server, user.email, user.key, { origin: 'https://evil.example' })).res.status).toBe(400);
    // A counter that did not grow is the sign of a cloned key.
    expect((await signInWithKey(server, user.email, user.key, { counter: 1 })).res.status).toBe(400);
    expect((await signInWithKey(server, user.email, user.key)).res.status).toBe(200);
  });

  it('a challenge expires after five minutes', async () => {
    const clock = movableClock();
    const server = await h.start(ROOMY, { clock });
    const user = await keyEnrolledUser(server);
    const pending = await login(server, user.email);
    const options = await call(server, 'POST', MfaFactorPaths.webauthnPreVerify, { body: { mfaToken: pending.body.mfaToken } });
    clock.advance(4 * 60_000);
    const fresh = await login(server, user.email);
    clock.advance(60_000 + 1000);
    // The first challenge is now older than five minutes; the second mfaToken is still live.
    const late = await call(server, 'POST', MfaFactorPaths.webauthnVerify, { body: { mfaToken: fresh.body.mfaToken, credential: user.key.get(options.body.options) } });
    expect(late.status).toBe(400);
  });

  it('a second-factor key never signs in on its own, and passkey sign-in does not know it', async () => {
    const server = await h.start(ROOMY);
    const user = await keyEnrolledUser(server, true);
    const pre = await call(server, 'POST', ApiPaths.webauthnPreLogin, { body: {} });
    const alone = await call(server, 'POST', ApiPaths.webauthnPostLogin, { body: { credential: user.key.get(pre.body.options) } });
    expect(alone.status).toBe(401);
    expect(alone.refreshCookie).toBeUndefined();
    expect((await call(server, 'GET', ApiPaths.webauthnDevices, { token: user.accessToken })).body.devices).toEqual([]);
  });

  it('security-key checks count on the per-user MFA attempt limit (429)', async () => {
    const server = await h.start({ ...ROOMY, RATE_LIMIT_MFA_ATTEMPTS_PER_USER: '2/900' });
    const user = await keyEnrolledUser(server);
    expect((await signInWithKey(server, user.email, user.key, { corruptSignature: true })).res.status).toBe(400);
    expect((await signInWithKey(server, user.email, user.key, { corruptSignature: true })).res.status).toBe(400);
    expect((await signInWithKey(server, user.email, user.key)).res.status).toBe(429);
  });

  it("removal needs a recent sign-in and an assertion by that key; another user's key is not found", async () => {
    const clock = movableClock();
    const server = await h.start(ROOMY, { clock });
    const ada = await keyEnrolledUser(server);
    const bob = await keyEnrolledUser(server);
    const id = (await call(server, 'GET', ApiPaths.mfaDevices, { token: ada.accessToken })).body.webauthn[0].id as string;
    const optionsPath = MfaFactorPaths.webauthnDisable.replace('{deviceId}', id);
    const verifyPath = MfaFactorPaths.webauthnDisableVerify.replace('{deviceId}', id);

    expect((await call(server, 'POST', optionsPath, { token: bob.accessToken })).status).toBe(404);
    const options = await call(server, 'POST', optionsPath, { token: ada.accessToken });
    expect(options.status).toBe(200);
    expect(options.body.options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([ada.key.id]);
    // Bob's key cannot answer for Ada's, nor Bob's session use Ada's challenge.
    expect((await call(server, 'POST', verifyPath, { token: ada.accessToken, body: { credential: bob.key.get(options.body.options) } })).status).toBe(400);
    expect((await call(server, 'POST', verifyPath, { token: bob.accessToken, body: { credential: ada.key.get(options.body.options) } })).status).toBe(404);

    clock.advance(11 * 60_000);
    const refreshed = await call(server, 'POST', ApiPaths.refresh, { cookie: ada.cookie });
    const stale = await call(server, 'POST', optionsPath, { token: refreshed.body.accessToken });
    expect(stale.status).toBe(403);
    expect(stale.body.errorCode).toBe(ErrorCodes.recentAuthRequired);

    const { res } = await signInWithKey(server, ada.email, ada.key);
    const again = await call(server, 'POST', optionsPath, { token: res.body.accessToken });
    const removed = await call(server, 'POST', verifyPath, { token: res.body.accessToken, body: { credential: ada.key.get(again.body.options) } });
    expect(removed.status).toBe(200);
    expect((await call(server, 'GET', ApiPaths.mfaDevices, { token: res.body.accessToken })).body.webauthn).toEqual([]);
    expect((await login(server, ada.email)).body.mfaRequired).toBe(false);
  });

  it('the same key cannot be enrolled twice, and a registration challenge belongs to the session that asked', async () => {
    const server = await h.start(ROOMY);
    const user = await signUpAndActivate(server);
    const other = await signUpAndActivate(server);
    const key = new SoftAuthenticator();
    const options = await call(server, 'POST', MfaFactorPaths.webauthnEnroll, { token: user.accessToken, body: { deviceType: 'cross-platform' } });
    const credential = asRoaming(key.create(options.body.options));
    expect((await call(server, 'POST', MfaFactorPaths.webauthnEnrollVerify, { token: other.accessToken, body: { credential } })).status).toBe(400);
    const next = await call(server, 'POST', MfaFactorPaths.webauthnEnroll, { token: user.accessToken, body: { deviceType: 'cross-platform' } });
    expect((await call(server, 'POST', MfaFactorPaths.webauthnEnrollVerify, { token: user.accessToken, body: { credential: asRoaming(key.create(next.body.options)) } })).status).toBe(200);
    // Adding another factor now needs a step-up.
    const third = await call(server, 'POST', MfaFactorPaths.webauthnEnroll, { token: user.accessToken, body: { deviceType: 'cross-platform' } });
    expect(third.status).toBe(403);
    expect(third.body.errorCode).toBe(ErrorCodes.stepUpRequired);
    const generated = await call(server, 'POST', ApiPaths.stepUpGenerate, { token: user.accessToken });
    const stepOptions = await call(server, 'POST', MfaFactorPaths.webauthnPreVerify, { body: { mfaToken: generated.body.mfaToken } });
    const stepped = await call(server, 'POST', MfaFactorPaths.webauthnVerify, { body: { mfaToken: generated.body.mfaToken, credential: key.get(stepOptions.body.options) } });
    const fourth = await call(server, 'POST', MfaFactorPaths.webauthnEnroll, { token: stepped.body.accessToken, body: { deviceType: 'cross-platform' } });
    // The browser is told to exclude it; an authenticator that registers it anyway is refused.
    expect(fourth.body.options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([key.id]);
    const twice = await call(server, 'POST', MfaFactorPaths.webauthnEnrollVerify, { token: stepped.body.accessToken, body: { credential: asRoaming(key.create(fourth.body.options)) } });
    expect(twice.status).toBe(409);
    expect(twice.body.errorCode).toBe(ErrorCodes.mfaAlreadyEnrolled);
  });
});
