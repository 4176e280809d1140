/**
 * Regression tests of the MFA / passkey / recovery security review, both dialects. Each test is
 * named after the defect it guards.
 */
import { expect, it } from 'vitest';
import { ApiPaths, AuthContextClasses, ErrorCodes } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { mfaRememberCookieName } from '../../http/mfa-cookie';
import { MFA_MAX_ATTEMPTS } from '../../services/mfa/factors';
import { call, describeDialects, mailbox, PASSWORD, signUpAndActivate } from '../../test/harness';
import { claimsOf, enrolledUser, login, stepClock } from '../../test/mfa-helpers';
import { appCode } from '../../test/rfc6238';
import { SoftAuthenticator } from '../../test/soft-authenticator';
import { sha256 } from '../../crypto';
import { upsertOwnPolicy } from '../../db/queries/security-policies';

/** Many sign-ins from one (unknown) address in these tests; the per-IP limits have their own tests. */
const ROOMY = { RATE_LIMIT_LOGIN_PER_IP: '1000/600' };
const ELEVEN_MINUTES = 11 * 60_000;

/** A 6-digit code that is none of the codes the server accepts now (previous, current, next step). */
function wrongCode(secret: string, now: number): string {
  const accepted = new Set([-30_000, 0, 30_000].map((d) => appCode(secret, now + d)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!accepted.has(code)) return code;
  }
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

/** Steps the running session up with an authenticator code; returns the new (stepped-up) access token. */
async function stepUp(server: GatehouseServer, accessToken: string, code: string): Promise<string> {
  const gen = await call(server, 'POST', ApiPaths.stepUpGenerate, { token: accessToken });
  expect(gen.status).toBe(200);
  const done = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: gen.body.mfaToken, value: code } });
  expect(done.status).toBe(200);
  expect(claimsOf(done.body.accessToken).acr).toBe(AuthContextClasses.mfa);
  return done.body.accessToken as string;
}

/** An access token of the same session whose sign-in (auth_time) is older than ten minutes. */
async function staleToken(server: GatehouseServer, clock: { advance(ms: number): void }, cookie: string): Promise<string> {
  clock.advance(ELEVEN_MINUTES);
  const refreshed = await call(server, 'POST', ApiPaths.refresh, { cookie });
  expect(refreshed.status).toBe(200);
  return refreshed.body.accessToken as string;
}

async function emailCodeIn(server: GatehouseServer, to: string): Promise<string> {
  const mail = (await mailbox(server)).find((m) => m.to === to && /verification code/.test(m.subject));
  return /^(\d{6})$/m.exec(mail!.text)![1]!;
}

describeDialects('MFA security review', (h) => {
  it('per-user MFA guessing limit is not beaten by parallel requests across mfaTokens', async () => {
    const clock = stepClock();
    const server = await h.start(ROOMY, { clock });
    const user = await enrolledUser(server, clock.now);
    clock.advance(30_000);
    const tokens: string[] = [];
    for (let i = 0; i < 8; i++) tokens.push((await login(server, user.email)).body.mfaToken);
    const bad = wrongCode(user.secret, clock.now());
    // 40 wrong guesses at once, 5 per mfaToken, mixing authenticator and recovery codes.
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: tokens[i % 8], value: bad } })
          : call(server, 'POST', ApiPaths.mfaRecover, { body: { mfaToken: tokens[i % 8], recoveryCode: 'AAAAA-AAAAA' } }),
      ),
    );
    const statuses = results.map((r) => r.status);
    // The limit (RATE_LIMIT_MFA_ATTEMPTS_PER_USER, 10/900) bounds how many codes were compared at all.
    expect(count(statuses, 400)).toBe(server.config.rateLimits.mfaAttemptsPerUser.limit);
    expect(count(statuses, 429)).toBe(40 - server.config.rateLimits.mfaAttemptsPerUser.limit);
    expect(results.find((r) => r.status === 429)!.body.errorCode).toBe(ErrorCodes.rateLimited);
    // Locked: even the right code on a fresh sign-in is not checked until the window ends.
    const locked = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: (await login(server, user.email)).body.mfaToken, value: appCode(user.secret, clock.now()) } });
    expect(locked.status).toBe(429);
    clock.advance(15 * 60_000 + 1000);
    const ok = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: (await login(server, user.email)).body.mfaToken, value: appCode(user.secret, clock.now()) } });
    expect(ok.status).toBe(200);
  });

  it('a single mfaToken never gets more than MFA_MAX_ATTEMPTS code checks under parallel requests', async () => {
    const clock = stepClock();
    const server = await h.start({ ...ROOMY, RATE_LIMIT_MFA_ATTEMPTS_PER_USER: '1000/900' }, { clock });
    const user = await enrolledUser(server, clock.now);
    clock.advance(30_000);
    const token = (await login(server, user.email)).body.mfaToken as string;
    const bad = wrongCode(user.secret, clock.now());
    const results = await Promise.all(Array.from({ length: 20 }, () => call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: token, value: bad } })));
    const statuses = results.map((r) => r.status);
    expect(count(statuses, 400)).toBe(MFA_MAX_ATTEMPTS);
    expect(count(statuses, 401)).toBe(20 - MFA_MAX_ATTEMPTS);
    const row = await server.db.selectFrom('mfa_tokens').select(['failed_attempts', 'used_at']).where('token_hash', '=', sha256(token)).executeTakeFirstOrThrow();
    expect(Number(row.failed_attempts)).toBe(MFA_MAX_ATTEMPTS);
    expect(row.used_at).not.toBeNull();
    // Spent: the right code no longer works on it.
    expect((await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: token, value: appCode(user.secret, clock.now()) } })).status).toBe(401);
  });

  it('an emailed code never gets more than MFA_MAX_ATTEMPTS checks under parallel requests', async () => {
    const clock = stepClock();
    const server = await h.start(ROOMY, { clock });
    const user = await signUpAndActivate(server);
    const enroll = await call(server, 'POST', ApiPaths.mfaEmailCodeEnroll, { token: user.accessToken });
    expect(enroll.status).toBe(200);
    const code = await emailCodeIn(server, user.email);
    const bad = code === '000000' ? '000001' : '000000';
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call(server, 'POST', ApiPaths.mfaEmailCodeEnrollVerify, { token: user.accessToken, body: { otcToken: enroll.body.otcToken, token: bad } })),
    );
    expect(results.every((r) => r.status === 400)).toBe(true);
    const row = await server.db.selectFrom('mfa_email_codes').select(['failed_attempts', 'used_at']).where('id', '=', enroll.body.otcToken).executeTakeFirstOrThrow();
    expect(Number(row.failed_attempts)).toBe(MFA_MAX_ATTEMPTS);
    expect(row.used_at).not.toBeNull();
    expect((await call(server, 'POST', ApiPaths.mfaEmailCodeEnrollVerify, { token: user.accessToken, body: { otcToken: enroll.body.otcToken, token: code } })).status).toBe(400);
  });

  it('MFA disable by unlimited code guessing: wrong codes count on the per-user limiter', async () => {
    const clock = stepClock();
    const server = await h.start(ROOMY, { clock });
    const user = await enrolledUser(server, clock.now);
    clock.advance(30_000);
    const bad = wrongCode(user.secret, clock.now());
    const results = await Promise.all(Array.from({ length: 15 }, () => call(server, 'POST', ApiPaths.mfaDisable, { token: user.accessToken, body: { code: bad } })));
    const statuses = results.map((r) => r.status);
    expect(count(statuses, 400)).toBe(10);
    expect(count(statuses, 429)).toBe(5);
    // Over the limit even a right code is not checked, and the factor stays.
    expect((await call(server, 'POST', ApiPaths.mfaDisable, { token: user.accessToken, body: { code: appCode(user.secret, clock.now()) } })).status).toBe(429);
    expect((await call(server, 'GET', ApiPaths.mfaDevices, { token: user.accessToken })).body.authenticators).toHaveLength(1);
  });

  it('MFA disable needs a recent sign-in: a session older than 10 minutes must step up first', async () => {
    const clock = stepClock();
    const server = await h.start(ROOMY, { clock });
    const user = await enrolledUser(server, clock.now);
    const old = await staleToken(server, clock, user.cookie);
    const refused = await call(server, 'POST', ApiPaths.mfaDisable, { token: old, body: { code: appCode(user.secret, clock.now()) } });
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(ErrorCodes.recentAuthRequired);
    expect((await call(server, 'GET', ApiPaths.mfaDevices, { token: old })).body.authenticators).toHaveLength(1);
    // Stepped up (a fresh second factor on the same session): allowed.
    const stepped = await stepUp(server, old, appCode(user.secret, clock.now()));
    clock.advance(30_000);
    expect((await call(server, 'POST', ApiPaths.mfaDisable, { token: stepped, body: { code: appCode(user.secret, clock.now()) } })).status).toBe(200);
  });

  it('adding a first factor or a passkey needs a recent sign-in', async () => {
    const clock = stepClock();
    const server = await h.start(ROOMY, { clock });
    const user = await signUpAndActivate(server);
    const old = await staleToken(server, clock, user.cookie);
    for (const path of [ApiPaths.mfaAuthenticatorEnroll, ApiPaths.mfaEmailCodeEnroll, ApiPaths.webauthnDevices]) {
      const res = await call(server, 'POST', path, { token: old });
      expect(res.status, path).toBe(403);
      expect(res.body.errorCode).toBe(ErrorCodes.recentAuthRequired);
    }
    // A fresh password sign-in is enough for the first factor.
    const fresh = await login(server, user.email);
    expect(fresh.body.mfaRequired).toBe(false);
    expect((await call(server, 'POST', ApiPaths.mfaAuthenticatorEnroll, { token: fresh.body.accessToken })).status).toBe(200);
  });

  it('adding a second factor or a passkey needs a step-up, and does not replace the recovery codes', async () => {
    const clock = stepClock();
    const server = await h.start(ROOMY, { clock });
    const user = await enrolledUser(server, clock.now);
    // Recent, but only a password: not enough once the account has a second factor.
    for (const path of [ApiPaths.mfaEmailCodeEnroll, ApiPaths.webauthnDevices]) {
      const res = await call(server, 'POST', path, { token: user.accessToken });
      expect(res.status, path).toBe(403);
      expect(res.body.errorCode).toBe(ErrorCodes.stepUpRequired);
    }
    clock.advance(30_000);
    const stepped = await stepUp(server, user.accessToken, appCode(user.secret, clock.now()));
    const enroll = await call(server, 'POST', ApiPaths.mfaEmailCodeEnroll, { token: stepped });
    expect(enroll.status).toBe(200);
    const verified = await call(server, 'POST', ApiPaths.mfaEmailCodeEnrollVerify, { token: stepped, body: { otcToken: enroll.body.otcToken, token: await emailCodeIn(server, user.email) } });
    expect(verified.status).toBe(200);
    expect(verified.body.recoveryCodes).toEqual([]);
    expect((await call(server, 'GET', ApiPaths.mfaStatus, { token: stepped })).body.recoveryCodesLeft).toBe(10);
    const recovered = await call(server, 'POST', ApiPaths.mfaRecover, { body: { mfaToken: (await login(server, user.email)).body.mfaToken, recoveryCode: user.recoveryCodes[0] } });
    expect(recovered.status).toBe(200);
    // A passkey with the stepped-up token.
    const authenticator = new SoftAuthenticator();
    const options = await call(server, 'POST', ApiPaths.webauthnDevices, { token: stepped });
    expect(options.status).toBe(200);
    const added = await call(server, 'POST', ApiPaths.webauthnDevicesVerify, { token: stepped, body: { credential: authenticator.create(options.body.options), name: 'Laptop' } });
    expect(added.status).toBe(201);
    // The step-up is only good for ten minutes.
    clock.advance(ELEVEN_MINUTES);
    const refreshed = await call(server, 'POST', ApiPaths.refresh, { cookie: user.cookie });
    expect(refreshed.status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.webauthnDevices, { token: refreshed.body.accessToken })).body.errorCode).toBe(ErrorCodes.stepUpRequired);
  });

  it('remember-device cookie is not honoured once the policy no longer allows remembering devices', async () => {
    const clock = stepClock();
    const server = await h.start({ ...ROOMY, MFA_REMEMBER_DEVICE_DAYS: '7' }, { clock });
    const user = await enrolledUser(server, clock.now);
    clock.advance(30_000);
    const cookie = await rememberedCookie(server, user, clock.now());
    expect((await login(server, user.email, { cookie })).body.mfaRequired).toBe(false);
    // The tenant's own MFA policy (issue 12) turns remembering devices off.
    await upsertOwnPolicy(server.db, user.tenantId, 'mfa', { enforceMFAType: 'DontForce', allowRememberMyDevice: false, mfaDeviceExpiration: 7 * 86_400 }, 'policy-1', clock.now());
    const asked = await login(server, user.email, { cookie });
    expect(asked.body.mfaRequired).toBe(true);
    expect(asked.body.allowRememberDevice).toBe(false);
  });

  it('remember-device cookies are forgotten on password change and on password reset', async () => {
    const clock = stepClock();
    const server = await h.start({ ...ROOMY, MFA_REMEMBER_DEVICE_DAYS: '7', RATE_LIMIT_PASSWORD_RESET_PER_IDENTIFIER: '100/3600' }, { clock });
    const user = await enrolledUser(server, clock.now);
    const NEW_PASSWORD = 'a brand new passphrase';
    const signIn = (password: string, cookie: string) => call(server, 'POST', ApiPaths.login, { body: { email: user.email, password }, headers: { cookie } });

    clock.advance(30_000);
    let cookie = await rememberedCookie(server, user, clock.now());
    expect((await signIn(PASSWORD, cookie)).body.mfaRequired).toBe(false);
    // With a second factor enrolled, a password change needs a recent step-up besides the current password.
    clock.advance(30_000);
    const gen = await call(server, 'POST', ApiPaths.stepUpGenerate, { token: user.accessToken });
    const steppedUp = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: gen.body.mfaToken, value: appCode(user.secret, clock.now()) } });
    const changed = await call(server, 'POST', ApiPaths.passwordsChange, { token: steppedUp.body.accessToken, body: { password: PASSWORD, newPassword: NEW_PASSWORD } });
    expect(changed.status).toBe(200);
    expect((await signIn(NEW_PASSWORD, cookie)).body.mfaRequired).toBe(true);

    clock.advance(30_000);
    cookie = await rememberedCookie(server, user, clock.now(), NEW_PASSWORD);
    expect((await signIn(NEW_PASSWORD, cookie)).body.mfaRequired).toBe(false);
    expect((await call(server, 'POST', ApiPaths.passwordsResetEmailV2, { body: { identifier: user.email, identifierType: 'email' } })).status).toBe(200);
    await server.recovery.idle();
    const mail = (await mailbox(server)).find((m) => m.to === user.email && /reset/i.test(m.subject))!;
    const link = new URL(/https?:\/\/\S+\/account\/reset-password\?\S+/.exec(mail.text)![0]);
    const reset = await call(server, 'POST', ApiPaths.passwordsResetVerify, { body: { userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), password: PASSWORD } });
    expect(reset.status).toBe(200);
    expect((await signIn(PASSWORD, cookie)).body.mfaRequired).toBe(true);
  });

  it('remember-device check puts no mfaToken in URLs: POST with a JSON body, GET with a query is gone', async () => {
    const clock = stepClock();
    const server = await h.start({ ...ROOMY, MFA_REMEMBER_DEVICE_DAYS: '7' }, { clock });
    const user = await enrolledUser(server, clock.now);
    const mfaToken = (await login(server, user.email)).body.mfaToken as string;
    const viaQuery = await call(server, 'GET', `${ApiPaths.mfaRememberDevice}?mfaToken=${mfaToken}`);
    expect(viaQuery.status).not.toBe(200);
    const viaBody = await call(server, 'POST', ApiPaths.mfaRememberDevice, { body: { mfaToken } });
    expect(viaBody.status).toBe(200);
    expect(viaBody.body).toEqual({ isAllowedToRemember: true, mfaDeviceExpiration: 7 * 86400 });
    // Posted from a foreign origin it is refused, like the other mfaToken calls.
    expect((await call(server, 'POST', ApiPaths.mfaRememberDevice, { body: { mfaToken }, headers: { origin: 'https://evil.example' } })).status).toBe(403);
  });
});

/** Signs in with the password and a code, ticking "remember this device"; returns the Cookie header value. */
async function rememberedCookie(server: GatehouseServer, user: { email: string; secret: string }, now: number, password = PASSWORD): Promise<string> {
  const pending = await call(server, 'POST', ApiPaths.login, { body: { email: user.email, password } });
  expect(pending.body.mfaRequired).toBe(true);
  const ok = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: pending.body.mfaToken, value: appCode(user.secret, now), rememberDevice: true } });
  expect(ok.status).toBe(200);
  const name = mfaRememberCookieName(server.config.clientId);
  const value = new RegExp(`${name}=([^;]+)`).exec(ok.setCookie ?? '')![1];
  return `${name}=${value}`;
}
