import { ApiPaths, AuditPaths, ErrorCodes, SelfServicePaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { callAs } from '../../test/admin-helpers';
import { call, describeDialects, mailbox, movableClock, PASSWORD, signUpAndActivate } from '../../test/harness';
import { claimsOf, enrolledUser, login, stepClock } from '../../test/mfa-helpers';
import { appCode } from '../../test/rfc6238';

const ROOMY = { RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_PASSWORD_RESET_PER_IP: '1000/3600' };

/** The tenant's audit rows, oldest first, as `action | severity | description`. */
async function trail(server: GatehouseServer, tenantId: string): Promise<string[]> {
  const rows = await server.db.selectFrom('audits').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
  return rows.map((r) => `${r.action} | ${r.severity} | ${r.description}`);
}

const wrongPassword = (server: GatehouseServer, email: string) => call(server, 'POST', ApiPaths.login, { body: { email, password: `${PASSWORD}!` }, headers: { 'user-agent': 'curl/8' } });

describeDialects('audit log of authentication events (issue 11 section 4)', (h) => {
  it('a tenant with a sign-up, sign-ins, a failure, a sign-out and a reset shows each of them, with the method and the client', async () => {
    const server = await h.start(ROOMY);
    const user = await signUpAndActivate(server);
    expect((await wrongPassword(server, user.email)).status).toBe(401);
    const signedIn = await login(server, user.email, { 'user-agent': 'Mozilla/5.0 (Macintosh)' });
    expect(signedIn.status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.logout, { cookie: signedIn.refreshCookie! })).status).toBe(200);
    // Signing out twice writes one record: the session was already ended.
    await call(server, 'POST', ApiPaths.logout, { cookie: signedIn.refreshCookie! });

    await call(server, 'POST', ApiPaths.passwordsReset, { body: { email: user.email } });
    await server.recovery.idle();
    const mail = (await mailbox(server)).find((m) => m.to === user.email && m.text.includes('/account/reset-password'));
    const link = new URL(/https?:\/\/\S+\/account\/reset-password\?\S+/.exec(mail!.text)![0]);
    const reset = await call(server, 'POST', ApiPaths.passwordsResetVerify, { body: { userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), password: 'a brand new passphrase' } });
    expect(reset.status).toBe(200);

    expect(await trail(server, user.tenantId)).toEqual([
      'User signed in | Info | Signed in with activation link',
      'Sign-in failed | Info | Sign-in with password failed: wrong password',
      'User signed in | Info | Signed in with password',
      'User signed out | Info | Signed out',
      expect.stringMatching(/^Password reset \| Info \| Password reset with an emailed link/),
      'User signed in | Info | Signed in with password reset',
    ]);
    const row = await server.db.selectFrom('audits').selectAll().where('tenant_id', '=', user.tenantId).where('action', '=', 'User signed in').where('description', '=', 'Signed in with password').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: user.userId, email: user.email, user_agent: 'Mozilla/5.0 (Macintosh)' });
    expect(JSON.parse(row.json!)).toMatchObject({ method: 'password', loginOrigin: 'direct', sessionId: claimsOf(signedIn.body.accessToken).sid });

    // The admin's audits page counts them (it showed Total 0 before).
    const stats = await callAs(server, { accessToken: reset.body.accessToken }, 'GET', AuditPaths.stats);
    expect(stats.status).toBe(200);
    expect(stats.body.total).toBe(6);
  });

  it('wrong passwords are Info until they reach the lockout window, then High; an unknown email writes nothing', async () => {
    // A second between attempts: the trail is in time order, and two records of one millisecond
    // would come in the order of their random ids.
    const clock = movableClock();
    const server = await h.start({ ...ROOMY, RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT: '3/900' }, { clock });
    const user = await signUpAndActivate(server);
    const before = (await trail(server, user.tenantId)).length;
    for (const expected of [401, 401, 401, 429]) {
      clock.advance(1_000);
      expect((await wrongPassword(server, user.email)).status).toBe(expected);
    }
    clock.advance(1_000);
    expect((await wrongPassword(server, 'nobody@example.com')).status).toBe(401);
    expect((await trail(server, user.tenantId)).slice(before)).toEqual([
      'Sign-in failed | Info | Sign-in with password failed: wrong password',
      'Sign-in failed | Info | Sign-in with password failed: wrong password',
      'Sign-in failed | High | Sign-in with password failed: wrong password',
      'Sign-in failed | High | Sign-in with password failed: too many failed attempts, blocked for a while',
    ]);
    const rows = await server.db.selectFrom('audits').select(['user_agent', 'json']).where('action', '=', 'Sign-in failed').where('user_id', '=', user.userId).execute();
    expect(rows).toHaveLength(4);
    // No secret is ever written: not the typed password.
    for (const r of rows) {
      expect(r.user_agent).toBe('curl/8');
      expect(r.json).not.toContain(PASSWORD);
    }
  });

  it('the lockout policy: the locking attempt is High with "Account locked", and the unlock link writes "User unlocked"', async () => {
    const server = await h.start({ ...ROOMY, LOCKOUT_MAX_ATTEMPTS: '2' });
    const user = await signUpAndActivate(server);
    const before = (await trail(server, user.tenantId)).length;
    expect((await wrongPassword(server, user.email)).status).toBe(401);
    const locked = await wrongPassword(server, user.email);
    expect(locked.body.errorCode).toBe(ErrorCodes.accountLocked);
    expect((await login(server, user.email)).body.errorCode).toBe(ErrorCodes.accountLocked);
    const unlockMail = (await mailbox(server)).find((m) => m.to === user.email && m.text.includes('/account/unlock?token='))!;
    const token = new URL(/https?:\/\/\S+\/account\/unlock\?\S+/.exec(unlockMail.text)![0]).searchParams.get('token')!;
    expect((await call(server, 'POST', ApiPaths.unlockAccount, { body: { token } })).status).toBe(200);

    const rows = (await trail(server, user.tenantId)).slice(before);
    expect(rows[0]).toBe('Sign-in failed | Info | Sign-in with password failed: wrong password');
    expect(rows).toContain('User locked | High | Account locked after 2 wrong passwords in a row');
    expect(rows).toContain('Sign-in failed | High | Sign-in with password failed: wrong password; the account is now locked');
    expect(rows).toContain('Sign-in failed | High | Sign-in with password failed: the account is locked');
    expect(rows.at(-1)).toBe('User unlocked | Info | Account unlocked with the emailed link');
  });

  it('a refresh token used twice is High, written once, and its session ends', async () => {
    const server = await h.start(ROOMY);
    const user = await signUpAndActivate(server);
    const first = await call(server, 'POST', ApiPaths.refresh, { cookie: user.cookie });
    expect(first.status).toBe(200);
    const reused = await call(server, 'POST', ApiPaths.refresh, { cookie: user.cookie });
    expect(reused.body.errorCode).toBe(ErrorCodes.refreshTokenReused);
    await call(server, 'POST', ApiPaths.refresh, { cookie: user.cookie });
    expect((await trail(server, user.tenantId)).filter((r) => r.startsWith('Refresh token reused'))).toEqual(['Refresh token reused | High | A refresh token was used twice; the session was revoked']);
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: first.refreshCookie! })).status).toBe(401);
  });

  it('MFA: enrolment, the sign-in with its second factor, new recovery codes, a password change and removal are recorded', async () => {
    const clock = stepClock();
    const server = await h.start(ROOMY, { clock });
    const user = await enrolledUser(server, clock.now);
    clock.advance(30_000);
    const pending = await login(server, user.email);
    expect(pending.body.mfaRequired).toBe(true);
    const wrong = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: pending.body.mfaToken, value: '000000' }, headers: { 'user-agent': 'Phone/1' } });
    expect(wrong.status).toBe(400);
    const verified = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: pending.body.mfaToken, value: appCode(user.secret, clock.now()) } });
    expect(verified.status).toBe(200);
    const token = verified.body.accessToken as string;
    expect((await call(server, 'POST', SelfServicePaths.regenerateRecoveryCodes, { token })).status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.passwordsChange, { token, body: { password: PASSWORD, newPassword: 'another long passphrase' } })).status).toBe(200);
    clock.advance(30_000);
    expect((await call(server, 'POST', ApiPaths.mfaDisable, { token, body: { code: appCode(user.secret, clock.now()) } })).status).toBe(200);

    const rows = await trail(server, user.tenantId);
    expect(rows).toContain('MFA enrolled | Info | Second factor added: authenticator app');
    expect(rows).toContain('Sign-in failed | Info | Sign-in with password failed: wrong second factor');
    const failed = await server.db.selectFrom('audits').select('user_agent').where('user_id', '=', user.userId).where('action', '=', 'Sign-in failed').executeTakeFirstOrThrow();
    expect(failed.user_agent).toBe('Phone/1');
    expect(rows).toContain('User signed in | Info | Signed in with password and authenticator app');
    expect(rows).toContain('Recovery codes regenerated | Info | New recovery codes made; the old ones stopped working');
    expect(rows).toContain('Password changed | Info | Password changed; other sessions were signed out');
    expect(rows.at(-1)).toBe('MFA removed | High | Second factor removed: authenticator app; MFA is now off');
  });
});
