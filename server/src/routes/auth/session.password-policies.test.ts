/**
 * Password policies at sign-in (seed 000 sections 4.2, 4.7): lockout and the unlock link, password
 * rotation (expired and the notification window), and breached passwords, on both dialects.
 */
import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { describe, expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { findUserByEmail } from '../../db/queries/users';
import { rotationStatus } from '../../services/auth/password-policies';
import { call, describeDialects, mailbox, movableClock, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';

const WRONG = 'not the password at all';
const NEW_PASSWORD = 'a brand new passphrase 9';
const BREACHED = 'password';
const DAY = 86_400_000;
// All tests sign in from the one unknown client IP of app.fetch.
const NO_IP_LIMIT = { RATE_LIMIT_LOGIN_PER_IP: '1000/600' };
const LOCKOUT = { ...NO_IP_LIMIT, LOCKOUT_MAX_ATTEMPTS: '3' };

const login = (server: GatehouseServer, email: string, password: string) => call(server, 'POST', ApiPaths.login, { body: { email, password } });
const unlock = (server: GatehouseServer, token: string) => call(server, 'POST', ApiPaths.unlockAccount, { body: { token } });

async function unlockTokenFor(server: GatehouseServer, email: string): Promise<{ token: string; link: string }> {
  const mail = (await mailbox(server)).find((m) => m.to === email && /unlock/i.test(m.subject));
  if (!mail) throw new Error(`no unlock mail to ${email}`);
  const link = /https?:\/\/\S+\/account\/unlock\?\S+/.exec(mail.text)![0];
  return { token: new URL(link).searchParams.get('token')!, link };
}

function expectLocked(res: { status: number; body: any }): void {
  expect(res.status).toBe(403);
  expect(res.body.errorCode).toBe(ErrorCodes.accountLocked);
  expect(res.body.errors).toEqual(['Your account is locked. Check your email to unlock it.']);
}

describeDialects('lockout policy', (h) => {
  it('locks after N wrong passwords, emails one unlock link, and a second server on the same database sees the lock', async () => {
    const server = await h.start(LOCKOUT);
    const { email } = await signUpAndActivate(server);
    expect((await login(server, email, WRONG)).status).toBe(401);
    expect((await login(server, email, WRONG)).status).toBe(401);
    expectLocked(await login(server, email, WRONG));
    // Locked: even the right password is refused, and no cookie is set.
    const right = await login(server, email, PASSWORD);
    expectLocked(right);
    expect(right.refreshCookie).toBeUndefined();

    const other = await h.start(LOCKOUT);
    expectLocked(await login(other, email, PASSWORD));
    const mails = (await mailbox(server)).filter((m) => m.to === email && /unlock/i.test(m.subject));
    expect(mails).toHaveLength(1);

    const { token, link } = await unlockTokenFor(server, email);
    expect(link.startsWith(`${server.config.appUrl}/account/unlock?token=`)).toBe(true);
    expect((await unlock(other, token)).status).toBe(200);
    const reused = await unlock(server, token);
    expect(reused.status).toBe(400);
    expect(reused.body.errorCode).toBe(ErrorCodes.invalidUnlockToken);
    const ok = await login(server, email, PASSWORD);
    expect(ok.status).toBe(200);
    expect(ok.refreshCookie).toBeTruthy();
  });

  it('counts failures across two server processes, and a right password clears the count', async () => {
    const a = await h.start(LOCKOUT);
    const b = await h.start(LOCKOUT);
    const { email } = await signUpAndActivate(a);
    expect((await login(a, email, WRONG)).status).toBe(401);
    expect((await login(b, email, WRONG)).status).toBe(401);
    expect((await login(a, email, PASSWORD)).status).toBe(200);
    expect((await login(b, email, WRONG)).status).toBe(401);
    expect((await login(a, email, WRONG)).status).toBe(401);
    expectLocked(await login(b, email, WRONG));
  });

  it('refuses an expired unlock token and a made-up one; a password reset unlocks too', async () => {
    const clock = movableClock();
    const server = await h.start({ ...LOCKOUT, UNLOCK_TOKEN_TTL: '3600' }, { clock });
    const { email, userId } = await signUpAndActivate(server);
    for (let i = 0; i < 3; i++) await login(server, email, WRONG);
    const { token } = await unlockTokenFor(server, email);
    clock.advance(3600 * 1000 + 1);
    expect((await unlock(server, token)).status).toBe(400);
    expect((await unlock(server, 'made-up')).status).toBe(400);
    expectLocked(await login(server, email, PASSWORD));

    await call(server, 'POST', ApiPaths.passwordsResetEmailV2, { body: { identifier: email, identifierType: 'email' } });
    await server.recovery.idle();
    const mail = (await mailbox(server)).find((m) => m.to === email && /reset/i.test(m.subject))!;
    const resetToken = new URL(/https?:\/\/\S+\/account\/reset-password\?\S+/.exec(mail.text)![0]).searchParams.get('token')!;
    expect((await call(server, 'POST', ApiPaths.passwordsResetVerify, { body: { userId, token: resetToken, password: NEW_PASSWORD } })).status).toBe(200);
    expect((await login(server, email, NEW_PASSWORD)).status).toBe(200);
  });

  it('is off by default: failures only meet the rate limit', async () => {
    const server = await h.start(NO_IP_LIMIT);
    const { email } = await signUpAndActivate(server);
    for (let i = 0; i < 5; i++) expect((await login(server, email, WRONG)).status).toBe(401);
    expect((await login(server, email, PASSWORD)).status).toBe(200);
  });
});

describeDialects('password rotation', (h) => {
  const ROTATION = { ...NO_IP_LIMIT, PASSWORD_EXPIRES_IN_DAYS: '30', PASSWORD_ROTATION_NOTIFICATION_DAYS: '7' };

  it('an expired password gets no session but a single-use reset token; the new password signs in', async () => {
    const clock = movableClock();
    const server = await h.start(ROTATION, { clock });
    const { email, userId } = await signUpAndActivate(server);
    clock.advance(30 * DAY);
    const expired = await login(server, email, PASSWORD);
    expect(expired.status).toBe(200);
    expect(expired.body).toMatchObject({ accessToken: '', mfaRequired: false, userId, passwordRotation: { expired: true, daysToExpiry: 0 } });
    expect(expired.body.resetPasswordToken).toEqual(expect.any(String));
    expect(expired.refreshCookie).toBeUndefined();

    const token = expired.body.resetPasswordToken as string;
    const breached = await call(server, 'POST', ApiPaths.passwordsResetVerify, { body: { userId, token, password: BREACHED } });
    expect(breached.status).toBe(400);
    expect(breached.body.errorCode).toBe(ErrorCodes.breachedPassword);
    expect((await call(server, 'POST', ApiPaths.passwordsResetVerify, { body: { userId, token, password: NEW_PASSWORD } })).status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.passwordsResetVerify, { body: { userId, token, password: `${NEW_PASSWORD}!` } })).status).toBe(400);

    const fresh = await login(server, email, NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    expect(fresh.body.accessToken).not.toBe('');
    expect(fresh.body.passwordRotation).toBeUndefined();
    expect(fresh.refreshCookie).toBeTruthy();
  });

  it('warns exactly when days to expiry are at or below the notification period', async () => {
    const clock = movableClock();
    const server = await h.start(ROTATION, { clock });
    const { email } = await signUpAndActivate(server);
    const changedAt = (await findUserByEmail(server.db, email))!.password_changed_at!;
    expect(changedAt).toBe(clock.now());

    clock.set(changedAt + 23 * DAY - 1); // 7 days and 1 ms left: counts as 8
    const before = await login(server, email, PASSWORD);
    expect(before.status).toBe(200);
    expect(before.body.passwordRotation).toBeUndefined();

    clock.set(changedAt + 23 * DAY); // exactly 7 days left == notification period
    const at = await login(server, email, PASSWORD);
    expect(at.body.passwordRotation).toEqual({ expired: false, daysToExpiry: 7 });
    expect(at.body.accessToken).not.toBe('');
    expect(at.refreshCookie).toBeTruthy();

    // A password change restarts the clock.
    const change = await call(server, 'POST', ApiPaths.passwordsChange, { token: at.body.accessToken, body: { password: PASSWORD, newPassword: NEW_PASSWORD } });
    expect(change.status).toBe(200);
    expect((await login(server, email, NEW_PASSWORD)).body.passwordRotation).toBeUndefined();
  });
});

describeDialects('breached passwords', (h) => {
  it('sign-up, activation, reset and change refuse a password on the breached list', async () => {
    const server = await h.start(NO_IP_LIMIT);
    const signUp = await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail(), password: BREACHED, name: 'Ada' } });
    expect(signUp.status).toBe(400);
    expect(signUp.body.errorCode).toBe(ErrorCodes.breachedPassword);
    expect(signUp.body.errors[0]).toContain('data breach');

    const { email, accessToken } = await signUpAndActivate(server);
    const change = await call(server, 'POST', ApiPaths.passwordsChange, { token: accessToken, body: { password: PASSWORD, newPassword: 'Password' } });
    expect(change.status).toBe(400);
    expect(change.body.errorCode).toBe(ErrorCodes.breachedPassword);
    expect((await login(server, email, PASSWORD)).status).toBe(200);
  });

  it('with the flag on, a breached password at sign-in gets no session and is marked on the user', async () => {
    // The account predates the check (created with it off), as existing accounts do.
    const lax = await h.start({ ...NO_IP_LIMIT, BREACHED_PASSWORD_CHECK: 'false' });
    const email = uniqueEmail('breached');
    const signUp = await call(lax, 'POST', ApiPaths.signUp, { body: { email, password: BREACHED, name: 'Ada' } });
    expect(signUp.status).toBe(200);
    const mail = (await mailbox(lax)).find((m) => m.to === email)!;
    const u = new URL(/https?:\/\/\S+\/account\/activate\?\S+/.exec(mail.text)![0]);
    expect((await call(lax, 'POST', ApiPaths.activate, { body: { userId: u.searchParams.get('userId'), token: u.searchParams.get('token'), password: BREACHED } })).status).toBe(200);

    const flagOff = await h.start(NO_IP_LIMIT);
    expect((await login(flagOff, email, BREACHED)).body.accessToken).not.toBe('');

    const strict = await h.start({ ...NO_IP_LIMIT, GATEHOUSE_FLAGS: '{"breached-password":"on"}' });
    const res = await login(strict, email, BREACHED);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ accessToken: '', isBreachedPassword: true, mfaRequired: false });
    expect(res.refreshCookie).toBeUndefined();
    expect((await findUserByEmail(strict.db, email))!.is_breached_password).toBe(1);
    // A wrong password says nothing about the list.
    expect((await login(strict, email, WRONG)).status).toBe(401);
  });
});

describe('rotationStatus', () => {
  const policy = { expiresInDays: 30, notificationDays: 7 };
  it('is off at 0 days, counts whole days up, and expires at the exact instant', () => {
    expect(rotationStatus(0, 29 * DAY, { expiresInDays: 0, notificationDays: 7 })).toBeNull();
    expect(rotationStatus(0, 23 * DAY - 1, policy)).toBeNull();
    expect(rotationStatus(0, 23 * DAY, policy)).toEqual({ expired: false, daysToExpiry: 7 });
    expect(rotationStatus(0, 30 * DAY - 1, policy)).toEqual({ expired: false, daysToExpiry: 1 });
    expect(rotationStatus(0, 30 * DAY, policy)).toEqual({ expired: true, daysToExpiry: 0 });
  });
});
