import { ApiPaths, ErrorCodes, Permissions, SessionPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { call, describeDialects, movableClock, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { claimsOf, grantRoleWith, invitationMailFor, invite } from '../../test/invitation-helpers';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** A second sign-in of the same user from another browser: its access token and refresh cookie. */
async function signInAgain(server: GatehouseServer, email: string, userAgent: string) {
  const res = await call(server, 'POST', ApiPaths.login, { body: { email, password: PASSWORD }, headers: { 'user-agent': userAgent } });
  expect(res.status).toBe(200);
  return { accessToken: res.body.accessToken as string, cookie: res.refreshCookie!, sessionId: claimsOf(res.body.accessToken).sid as string };
}

const list = (server: GatehouseServer, token: string) => call(server, 'GET', SessionPaths.mySessions, { token });
const revoke = (server: GatehouseServer, token: string, sessionId: string) => call(server, 'DELETE', SessionPaths.mySession.replace('{sessionId}', encodeURIComponent(sessionId)), { token });
const revokeOthers = (server: GatehouseServer, token: string) => call(server, 'DELETE', SessionPaths.myOtherSessions, { token });
const refresh = (server: GatehouseServer, cookie: string) => call(server, 'POST', ApiPaths.refresh, { cookie, body: {} });

async function auditsOf(server: GatehouseServer, tenantId: string) {
  return server.db.selectFrom('audits').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').execute();
}

/** The audit rows of session revocation (sign-ins write their own rows, checked in auth/audit.test.ts). */
async function revocationAuditsOf(server: GatehouseServer, tenantId: string) {
  return (await auditsOf(server, tenantId)).filter((a) => a.action !== 'User signed in');
}

describeDialects('login sessions of the signed-in user', (h) => {
  const start: typeof h.start = (env = {}, overrides) =>
    h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_INVITATION_ACCEPT_PER_IP: '1000/600', RATE_LIMIT_IMPERSONATE_PER_IP: '1000/600', ...env }, overrides);

  it('lists the live sessions newest first with user agent, IP and created date, and marks the current one', async () => {
    const clock = movableClock();
    const server = await start({}, { clock });
    const user = await signUpAndActivate(server);
    clock.advance(1000);
    const firefox = await signInAgain(server, user.email, FIREFOX);

    const res = await list(server, firefox.accessToken);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.body[0]).toEqual({
      id: firefox.sessionId,
      userAgent: FIREFOX,
      createdAt: new Date(clock.now()).toISOString(),
      ipAddress: null,
      current: true,
      lastActiveAt: new Date(clock.now()).toISOString(),
      device: { browser: 'Firefox', browserVersion: '128', os: 'Linux', type: 'desktop' },
    });
    expect(res.body[1]).toMatchObject({ id: claimsOf(user.accessToken).sid, current: false });
    // The same list from the other session marks that one current.
    expect((await list(server, user.accessToken)).body.map((s: { current: boolean }) => s.current)).toEqual([false, true]);
    // Signed out and expired sessions are not live.
    await call(server, 'POST', ApiPaths.logout, { cookie: firefox.cookie, token: firefox.accessToken });
    expect((await list(server, user.accessToken)).body.map((s: { id: string }) => s.id)).toEqual([claimsOf(user.accessToken).sid]);
    clock.advance((server.config.refreshTokenTtl + 1) * 1000);
    expect((await list(server, user.accessToken)).status).toBe(401);
  });

  it("shows each session's device read from its user agent, and when it was last active", async () => {
    const clock = movableClock();
    const server = await start({}, { clock });
    const user = await signUpAndActivate(server);
    const phone = await signInAgain(server, user.email, SAFARI);
    const signedInAt = clock.now();
    clock.advance(60_000);
    const refreshed = await refresh(server, phone.cookie);
    expect(refreshed.status).toBe(200);

    const sessions = (await list(server, user.accessToken)).body as Array<{ id: string; lastActiveAt: string; createdAt: string; device: unknown }>;
    const iphone = sessions.find((s) => s.id === phone.sessionId)!;
    expect(iphone.device).toEqual({ browser: 'Safari', browserVersion: '17', os: 'iOS', type: 'mobile' });
    expect(iphone.createdAt).toBe(new Date(signedInAt).toISOString());
    expect(iphone.lastActiveAt).toBe(new Date(clock.now()).toISOString());
    // No User-Agent at all (an API client): nothing is guessed.
    const bare = sessions.find((s) => s.id === claimsOf(user.accessToken).sid)!;
    expect(bare.device).toEqual({ browser: null, browserVersion: null, os: null, type: null });
  });

  it('signing out another session ends it for real: its refresh and access tokens stop working, an audit row is written', async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const other = await signInAgain(server, user.email, SAFARI);

    const res = await revoke(server, user.accessToken, other.sessionId);
    expect(res.status).toBe(200);
    const refreshed = await refresh(server, other.cookie);
    expect(refreshed.status).toBe(401);
    expect(refreshed.body.errorCode).toBe(ErrorCodes.invalidRefreshToken);
    expect((await call(server, 'GET', ApiPaths.me, { token: other.accessToken })).status).toBe(401);
    // The caller's own session is untouched.
    expect((await refresh(server, user.cookie)).status).toBe(200);
    expect((await list(server, user.accessToken)).body).toHaveLength(1);

    const [audit] = await revocationAuditsOf(server, user.tenantId);
    expect(audit).toMatchObject({ action: 'Session signed out', user_id: user.userId, email: user.email });
    expect(JSON.parse(audit!.json!)).toEqual({ sessionId: other.sessionId, current: false });
    // Already ended: nothing more to end.
    expect((await revoke(server, user.accessToken, other.sessionId)).status).toBe(404);
  });

  it("another user's session id is 404 and that session keeps working; unknown ids too; no token is 401", async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const stranger = await signUpAndActivate(server, uniqueEmail('stranger'));
    const strangerSid = claimsOf(stranger.accessToken).sid as string;

    const res = await revoke(server, user.accessToken, strangerSid);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ errors: ['Session not found'], errorCode: ErrorCodes.notFound });
    expect((await revoke(server, user.accessToken, 'no-such-session')).status).toBe(404);
    expect((await refresh(server, stranger.cookie)).status).toBe(200);
    expect((await list(server, user.accessToken)).body.map((s: { id: string }) => s.id)).not.toContain(strangerSid);
    expect(await revocationAuditsOf(server, user.tenantId)).toEqual([]);

    expect((await call(server, 'GET', SessionPaths.mySessions)).status).toBe(401);
    expect((await call(server, 'DELETE', SessionPaths.myOtherSessions)).status).toBe(401);
    expect((await call(server, 'DELETE', SessionPaths.mySession.replace('{sessionId}', strangerSid))).status).toBe(401);
    expect((await call(server, 'GET', ApiPaths.me, { token: stranger.accessToken })).status).toBe(200);
  });

  it('signing out all other sessions keeps the current one and ends the rest, with one audit row', async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const firefox = await signInAgain(server, user.email, FIREFOX);
    const safari = await signInAgain(server, user.email, SAFARI);
    const stranger = await signUpAndActivate(server, uniqueEmail('stranger'));

    const res = await revokeOthers(server, firefox.accessToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: 2 });
    expect((await refresh(server, user.cookie)).status).toBe(401);
    expect((await refresh(server, safari.cookie)).status).toBe(401);
    expect((await refresh(server, firefox.cookie)).status).toBe(200);
    expect((await refresh(server, stranger.cookie)).status).toBe(200);

    const audits = await revocationAuditsOf(server, user.tenantId);
    expect(audits.map((a) => a.action)).toEqual(['Other sessions signed out']);
    expect(new Set(JSON.parse(audits[0]!.json!).sessionIds)).toEqual(new Set([claimsOf(user.accessToken).sid, safari.sessionId]));
    // Nothing left to end: 0, and no empty audit row.
    expect((await revokeOthers(server, firefox.accessToken)).body).toEqual({ revoked: 0 });
    expect(await revocationAuditsOf(server, user.tenantId)).toHaveLength(1);
  });

  it('an impersonation session is not listed to the user and cannot sign the user out of anything', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server, uniqueEmail('admin'));
    await grantRoleWith(server, admin.userId, admin.tenantId, 'Impersonator', [Permissions.impersonate]);
    const target = await signUpAndActivate(server, uniqueEmail('target'));
    await invite(server, admin.accessToken, { email: target.email, name: 'Target' });
    const mail = await invitationMailFor(server, target.email);
    expect((await call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: mail.userId, token: mail.token } })).status).toBe(200);
    const other = await signInAgain(server, target.email, SAFARI);
    const issued = await call(server, 'POST', ApiPaths.impersonation, { token: admin.accessToken, body: { userId: target.userId, reason: 'Ticket 7' } });
    const imp = await call(server, 'POST', ApiPaths.impersonate, { body: { token: issued.body.token } });
    expect(imp.status).toBe(200);
    const impToken = imp.body.accessToken as string;
    expect(claimsOf(impToken).act).toBeTruthy();

    // The user's list leaves the admin's session out (its IP and browser are the admin's).
    const own = (await list(server, target.accessToken)).body.map((s: { id: string }) => s.id);
    expect(own).not.toContain(claimsOf(impToken).sid);
    expect(own).toHaveLength(2);

    const refused = await revoke(server, impToken, other.sessionId);
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(ErrorCodes.notWhileImpersonating);
    expect((await revokeOthers(server, impToken)).status).toBe(403);
    expect((await refresh(server, other.cookie)).status).toBe(200);
    expect((await refresh(server, target.cookie)).status).toBe(200);
    expect(await auditsOf(server, admin.tenantId).then((rows) => rows.filter((r) => r.action.includes('signed out')))).toEqual([]);

    // And the user cannot end the admin's session through these calls either (not theirs to list).
    expect((await revoke(server, target.accessToken, claimsOf(impToken).sid)).status).toBe(404);
  });

  it("L7: an impersonation session cannot list the user's login sessions (IPs, browsers): the same 403", async () => {
    const server = await start();
    const admin = await signUpAndActivate(server, uniqueEmail('admin'));
    await grantRoleWith(server, admin.userId, admin.tenantId, 'Impersonator', [Permissions.impersonate]);
    const target = await signUpAndActivate(server, uniqueEmail('target'));
    await invite(server, admin.accessToken, { email: target.email, name: 'Target' });
    const mail = await invitationMailFor(server, target.email);
    expect((await call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: mail.userId, token: mail.token } })).status).toBe(200);
    const issued = await call(server, 'POST', ApiPaths.impersonation, { token: admin.accessToken, body: { userId: target.userId, reason: 'Ticket 8' } });
    const impToken = (await call(server, 'POST', ApiPaths.impersonate, { body: { token: issued.body.token } })).body.accessToken as string;

    const refused = await list(server, impToken);
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(ErrorCodes.notWhileImpersonating);
    expect(JSON.stringify(refused.body)).not.toContain('userAgent');
    // The user still sees their own.
    expect((await list(server, target.accessToken)).status).toBe(200);
  });
});
