/** Step-up (seed 000 section 4.9) over HTTP: an mfaToken for the caller's own session, then an upgraded token. */
import { expect, it } from 'vitest';
import { ApiPaths, AuthContextClasses, ErrorCodes, isSteppedUp } from '@gatehouse/shared/wire';
import { call, describeDialects, signUpAndActivate } from '../../test/harness';
import { appCode } from '../../test/rfc6238';
import { claimsOf, enrolledUser, stepClock } from '../../test/mfa-helpers';

describeDialects('MFA step-up', (h) => {
  it('answers noMFAEnrolled for a user without a factor', async () => {
    const server = await h.start({}, { clock: stepClock() });
    const user = await signUpAndActivate(server);
    const res = await call(server, 'POST', ApiPaths.stepUpGenerate, { token: user.accessToken });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe(ErrorCodes.noMfaEnrolled);
    expect((await call(server, 'POST', ApiPaths.stepUpGenerate)).status).toBe(401);
  });

  it('upgrades the running session: new token with the MFA acr/amr and a fresh auth_time, kept by refreshes', async () => {
    const clock = stepClock();
    const server = await h.start({}, { clock });
    // Signed in by activation (password only), then enrolled: the session is not stepped up yet.
    const user = await enrolledUser(server, clock.now);
    const before = claimsOf(user.accessToken);
    expect(before.acr).toBe(AuthContextClasses.password);
    expect(isSteppedUp(before as never, { now: clock.now() })).toBe(false);

    clock.advance(10 * 60_000);
    const renewed = await call(server, 'POST', ApiPaths.refresh, { cookie: user.cookie });
    const gen = await call(server, 'POST', ApiPaths.stepUpGenerate, { token: renewed.body.accessToken });
    expect(gen.status).toBe(200);
    expect(gen.body.mfaDevices.authenticators).toHaveLength(1);
    const wrong = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: gen.body.mfaToken, value: appCode(user.secret, clock.now() - 120_000) } });
    expect(wrong.status).toBe(400);
    const ok = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: gen.body.mfaToken, value: appCode(user.secret, clock.now()) } });
    expect(ok.status).toBe(200);
    // The session lives on: no new refresh cookie.
    expect(ok.refreshCookie).toBeUndefined();
    const after = claimsOf(ok.body.accessToken);
    expect(after.sid).toBe(before.sid);
    expect(after.acr).toBe(AuthContextClasses.mfa);
    expect(after.amr).toEqual(expect.arrayContaining(['pwd', 'mfa', 'otp']));
    expect(after.auth_time).toBe(Math.floor(clock.now() / 1000));
    expect(isSteppedUp(after as never, { maxAge: 300, now: clock.now() })).toBe(true);

    const refreshed = await call(server, 'POST', ApiPaths.refresh, { cookie: renewed.refreshCookie });
    expect(refreshed.status).toBe(200);
    const kept = claimsOf(refreshed.body.accessToken);
    expect(kept.acr).toBe(AuthContextClasses.mfa);
    expect(kept.auth_time).toBe(after.auth_time);

    // Single use, and a step-up token cannot start a sign-in through recovery.
    expect((await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: gen.body.mfaToken, value: appCode(user.secret, clock.now() + 30_000) } })).status).toBe(401);
    const gen2 = await call(server, 'POST', ApiPaths.stepUpGenerate, { token: ok.body.accessToken });
    expect((await call(server, 'POST', ApiPaths.mfaRecover, { body: { mfaToken: gen2.body.mfaToken, recoveryCode: user.recoveryCodes[0] } })).status).toBe(401);

    // Later the max age runs out.
    clock.advance(301_000);
    expect(isSteppedUp(after as never, { maxAge: 300, now: clock.now() })).toBe(false);
  });

  it('a step-up token of a revoked session is refused', async () => {
    const clock = stepClock();
    const server = await h.start({}, { clock });
    const user = await enrolledUser(server, clock.now);
    clock.advance(30_000);
    const gen = await call(server, 'POST', ApiPaths.stepUpGenerate, { token: user.accessToken });
    await call(server, 'POST', ApiPaths.logout, { cookie: user.cookie });
    const res = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: gen.body.mfaToken, value: appCode(user.secret, clock.now()) } });
    expect(res.status).toBe(401);
  });
});
