import { ApiPaths, ErrorCodes, ME_TOKEN_PATH, Permissions } from '@gatehouse/shared/wire';
import { expect, it, vi } from 'vitest';
import type { GatehouseServer } from '../../app';
import { sha256 } from '../../crypto';
import { listTenantImpersonations } from '../../db/queries/impersonations';
import { updateUser } from '../../db/queries/users';
import { call, describeDialects, movableClock, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { claimsOf, grantRoleWith, invitationMailFor, invite, roleId } from '../../test/invitation-helpers';

const issue = (server: GatehouseServer, accessToken: string, body: Record<string, unknown>) => call(server, 'POST', ApiPaths.impersonation, { token: accessToken, body });
const exchange = (server: GatehouseServer, token: string) => call(server, 'POST', ApiPaths.impersonate, { body: { token } });

/**
 * An admin of a tenant holding the impersonation permission through a role of its own, and a
 * read-only member of that tenant who also has a tenant of their own (to prove the pinning).
 */
async function setUp(server: GatehouseServer) {
  const admin = await signUpAndActivate(server, uniqueEmail('admin'));
  const impersonatorRole = await grantRoleWith(server, admin.userId, admin.tenantId, 'Impersonator', [Permissions.impersonate]);
  const target = await signUpAndActivate(server, uniqueEmail('target'));
  await invite(server, admin.accessToken, { email: target.email, name: 'Target' });
  const mail = await invitationMailFor(server, target.email);
  expect((await call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: mail.userId, token: mail.token } })).body.outcome).toBe('joined');
  return { admin, target, impersonatorRole };
}

describeDialects('impersonation', (h) => {
  const start: typeof h.start = (env = {}, overrides) =>
    h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_INVITATION_ACCEPT_PER_IP: '1000/600', RATE_LIMIT_IMPERSONATE_PER_IP: '1000/600', ...env }, overrides);

  it('the dedicated permission gives a single-use token; its exchange is a short session of the target whose tokens name the admin in act and stay in the tenant', async () => {
    const clock = movableClock();
    const server = await start({ IMPERSONATION_SESSION_TTL: '600' }, { clock });
    const { admin, target } = await setUp(server);
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);

    const issued = await issue(server, admin.accessToken, { userId: target.userId, reason: 'Ticket 42: cannot see invoices' });
    expect(issued.status).toBe(200);
    expect(issued.body.expiresIn).toBe(120);
    expect(issued.body.url).toBe(`${server.config.appUrl}/account/impersonate?token=${encodeURIComponent(issued.body.token)}`);
    // A token, never a session: no cookie, and it is no access token.
    expect(issued.refreshCookie).toBeUndefined();
    expect((await call(server, 'GET', ApiPaths.me, { token: issued.body.token })).status).toBe(401);

    const session = await exchange(server, issued.body.token);
    expect(session.status).toBe(200);
    expect(session.refreshCookie).toBeTruthy();
    const claims = claimsOf(session.body.accessToken);
    expect(claims).toMatchObject({ sub: target.userId, email: target.email, act: { sub: admin.userId, email: admin.email }, tenantId: admin.tenantId, tenantIds: [admin.tenantId], amr: ['imp'], roles: ['ReadOnly'] });
    expect(claims.acr).toBe('urn:gatehouse:acr:pwd');
    const me = await call(server, 'GET', ApiPaths.me, { token: session.body.accessToken });
    expect(me.body).toMatchObject({ id: target.userId, tenantId: admin.tenantId });

    // Pinned to the tenant: no refresh, scoped call, switch or minted token into the target's own tenant.
    const pinned = { errors: ['An impersonation session cannot switch to another tenant'], errorCode: ErrorCodes.notWhileImpersonating };
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: session.refreshCookie, body: { tenantId: target.tenantId } })).body).toEqual(pinned);
    expect((await call(server, 'GET', `${ApiPaths.me}?tenantId=${target.tenantId}`, { token: session.body.accessToken })).body).toEqual(pinned);
    expect((await call(server, 'PUT', ApiPaths.switchTenant, { token: session.body.accessToken, body: { tenantId: target.tenantId } })).body).toEqual(pinned);
    expect((await call(server, 'POST', ME_TOKEN_PATH, { token: session.body.accessToken, body: { tenantId: target.tenantId } })).body).toEqual(pinned);
    // A token of the impersonation session's own tenant still names the admin in act.
    const minted = await call(server, 'POST', ME_TOKEN_PATH, { token: session.body.accessToken, body: {} });
    expect(minted.status).toBe(200);
    expect(claimsOf(minted.body.accessToken)).toMatchObject({ sub: target.userId, act: { sub: admin.userId }, tenantId: admin.tenantId, tenantIds: [admin.tenantId] });

    // Refreshes keep act; the session ends after IMPERSONATION_SESSION_TTL.
    clock.advance(60_000);
    const refreshed = await call(server, 'POST', ApiPaths.refresh, { cookie: session.refreshCookie, body: {} });
    expect(refreshed.status).toBe(200);
    expect(claimsOf(refreshed.body.accessToken).act).toEqual({ sub: admin.userId, email: admin.email });
    expect(claimsOf(refreshed.body.accessToken).exp).toBeLessThanOrEqual(Math.floor((clock.now() + 540_000) / 1000) + 1);
    clock.advance(600_000);
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: refreshed.refreshCookie, body: {} })).status).toBe(401);

    // The audit record: who, whom, where, which session; the token only as its hash.
    const [record] = await listTenantImpersonations(server.db, admin.tenantId);
    expect(record).toMatchObject({ impersonator_id: admin.userId, target_user_id: target.userId, tenant_id: admin.tenantId, reason: 'Ticket 42: cannot see invoices', session_id: claims.sid });
    expect(record!.used_at).not.toBeNull();
    expect(record!.token_hash).toBe(sha256(issued.body.token));
    expect(JSON.stringify(record)).not.toContain(issued.body.token);
    const logged = info.mock.calls.map((c) => String(c[0])).find((line) => line.startsWith('Impersonation'));
    expect(logged).toBe(`Impersonation ${record!.id}: user ${admin.userId} acts as user ${target.userId} in tenant ${admin.tenantId} (session ${claims.sid})`);
    info.mockRestore();
    // The tenant's audit log names the impersonator as the actor (High), never the token; the target did not sign in.
    const audits = await server.db.selectFrom('audits').selectAll().where('tenant_id', '=', admin.tenantId).where('action', 'in', ['Impersonation started', 'User signed in']).where('user_id', 'in', [admin.userId, target.userId]).orderBy('created_at', 'asc').execute();
    const started = audits.filter((a) => a.action === 'Impersonation started');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ user_id: admin.userId, email: admin.email, severity: 'High', description: `Started acting as ${target.email} (reason: Ticket 42: cannot see invoices)` });
    expect(JSON.parse(started[0]!.json!)).toMatchObject({ targetUserId: target.userId, sessionId: claims.sid });
    expect(JSON.stringify(audits)).not.toContain(issued.body.token);
    expect(audits.filter((a) => a.user_id === target.userId && JSON.parse(a.json!).sessionId === claims.sid)).toEqual([]);

    // The target's own sessions and last sign-in are untouched.
    const targetLogin = await call(server, 'POST', ApiPaths.login, { body: { email: target.email, password: PASSWORD } });
    expect(claimsOf(targetLogin.body.accessToken).act).toBeUndefined();
  });

  it("signing out of an impersonation session is recorded as the admin's, not as the user's", async () => {
    const server = await start();
    const { admin, target } = await setUp(server);
    const issued = await issue(server, admin.accessToken, { userId: target.userId });
    const session = await exchange(server, issued.body.token);
    expect((await call(server, 'POST', ApiPaths.logout, { cookie: session.refreshCookie! })).status).toBe(200);
    const rows = await server.db.selectFrom('audits').selectAll().where('tenant_id', '=', admin.tenantId).where('action', '=', 'User signed out').execute();
    expect(rows.map((r) => [r.user_id, r.description])).toEqual([[admin.userId, `Stopped acting as ${target.email}`]]);
  });

  it('a token works once and only within its lifetime', async () => {
    const clock = movableClock();
    const server = await start({}, { clock });
    const { admin, target } = await setUp(server);
    const first = (await issue(server, admin.accessToken, { userId: target.userId })).body.token as string;
    expect((await exchange(server, first)).status).toBe(200);
    const reused = await exchange(server, first);
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({ errors: ['The impersonation link is invalid or has expired'], errorCode: ErrorCodes.invalidImpersonationToken });
    expect((await exchange(server, 'made-up-token')).body.errorCode).toBe(ErrorCodes.invalidImpersonationToken);

    const second = (await issue(server, admin.accessToken, { userId: target.userId })).body.token as string;
    clock.advance(121_000);
    expect((await exchange(server, second)).body.errorCode).toBe(ErrorCodes.invalidImpersonationToken);
    expect((await exchange(server, '')).status).toBe(400);
  });

  it('refuses without the permission (Admin does not have it), for another tenant, oneself, a super user, a target with more permissions, and from an impersonation session', async () => {
    const server = await start();
    const { admin, target, impersonatorRole } = await setUp(server);
    const owner = await signUpAndActivate(server, uniqueEmail('owner'));
    const stranger = await signUpAndActivate(server, uniqueEmail('stranger'));

    // No chains: the impersonation session may not impersonate (nor invite), even as a user who could.
    const session = (await exchange(server, (await issue(server, admin.accessToken, { userId: target.userId })).body.token)).body.accessToken as string;
    await server.db.insertInto('user_roles').values({ user_id: target.userId, tenant_id: admin.tenantId, role_id: impersonatorRole }).execute();
    const chained = await issue(server, session, { userId: admin.userId });
    expect(chained.status).toBe(403);
    expect(chained.body).toEqual({ errors: ['Not available while impersonating a user'], errorCode: ErrorCodes.notWhileImpersonating });
    expect((await invite(server, session, { email: uniqueEmail(), name: 'X' })).body.errorCode).toBe(ErrorCodes.notWhileImpersonating);

    const noPermission = await issue(server, owner.accessToken, { userId: owner.userId });
    expect(noPermission.status).toBe(403);
    expect(noPermission.body).toEqual({ errors: ['You do not have permission to impersonate users (fe.secure.write.impersonate)'], errorCode: ErrorCodes.forbidden, errorContext: { permission: Permissions.impersonate } });

    const otherTenant = await issue(server, admin.accessToken, { userId: stranger.userId });
    expect(otherTenant.status).toBe(404);
    expect(otherTenant.body).toEqual({ errors: ['User not found in this account'], errorCode: ErrorCodes.notFound });
    expect((await issue(server, admin.accessToken, { userId: 'no-such-user' })).status).toBe(404);

    const self = await issue(server, admin.accessToken, { userId: admin.userId });
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ errors: ['You cannot impersonate yourself'], errorCode: ErrorCodes.impersonationRefused });

    // A second admin of the tenant holds permissions (the Admin role) the impersonator lacks.
    const peerEmail = uniqueEmail('peer');
    await invite(server, admin.accessToken, { email: peerEmail, name: 'Peer', roleIds: [await roleId(server, admin.tenantId, 'ReadOnly')] });
    const peerMail = await invitationMailFor(server, peerEmail);
    await call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: peerMail.userId, token: peerMail.token, password: PASSWORD } });
    await server.db.insertInto('user_roles').values({ user_id: peerMail.userId, tenant_id: admin.tenantId, role_id: await roleId(server, admin.tenantId, 'Admin') }).execute();
    await server.db.deleteFrom('user_roles').where('user_id', '=', admin.userId).where('role_id', '=', await roleId(server, admin.tenantId, 'Admin')).execute();
    const stronger = await issue(server, admin.accessToken, { userId: peerMail.userId });
    expect(stronger.status).toBe(403);
    expect(stronger.body).toEqual({ errors: ['You cannot impersonate a user with permissions you do not have'], errorCode: ErrorCodes.impersonationRefused });

    await updateUser(server.db, target.userId, { super_user: 1 });
    const superUser = await issue(server, admin.accessToken, { userId: target.userId });
    expect(superUser.status).toBe(403);
    expect(superUser.body).toEqual({ errors: ['Super users cannot be impersonated'], errorCode: ErrorCodes.impersonationRefused });
  });

  it('a permission removed or a target disabled between issue and exchange refuses the exchange', async () => {
    const server = await start();
    const { admin, target, impersonatorRole } = await setUp(server);
    const token = (await issue(server, admin.accessToken, { userId: target.userId })).body.token as string;
    await server.db.deleteFrom('user_roles').where('role_id', '=', impersonatorRole).execute();
    const revoked = await exchange(server, token);
    expect(revoked.status).toBe(403);
    expect(revoked.body.errorCode).toBe(ErrorCodes.forbidden);
    expect(revoked.refreshCookie).toBeUndefined();

    await server.db.insertInto('user_roles').values({ user_id: admin.userId, tenant_id: admin.tenantId, role_id: impersonatorRole }).execute();
    const next = (await issue(server, admin.accessToken, { userId: target.userId })).body.token as string;
    await updateUser(server.db, target.userId, { disabled: 1 });
    expect((await exchange(server, next)).body).toEqual({ errors: ['This user is disabled'], errorCode: ErrorCodes.impersonationRefused });
  });

  it('an impersonation session cannot change how the account is protected, nor its recovery phone number', async () => {
    const server = await start();
    const { admin, target } = await setUp(server);
    const session = (await exchange(server, (await issue(server, admin.accessToken, { userId: target.userId })).body.token)).body.accessToken as string;
    const enroll = await call(server, 'POST', ApiPaths.mfaAuthenticatorEnroll, { token: session, body: {} });
    expect(enroll.status).toBe(403);
    expect(enroll.body.errorCode).toBe(ErrorCodes.notWhileImpersonating);
    const phone = await call(server, 'PUT', ApiPaths.me, { token: session, body: { phoneNumber: '+15550100000' } });
    expect(phone.status).toBe(403);
    expect(phone.body.errorCode).toBe(ErrorCodes.notWhileImpersonating);
    // Acting as the user otherwise works.
    expect((await call(server, 'PUT', ApiPaths.me, { token: session, body: { jobTitle: 'Analyst' } })).status).toBe(200);
  });

  it('super users may impersonate without the permission', async () => {
    const server = await start();
    const { admin, target, impersonatorRole } = await setUp(server);
    await server.db.deleteFrom('user_roles').where('role_id', '=', impersonatorRole).execute();
    await updateUser(server.db, admin.userId, { super_user: 1 });
    const token = (await issue(server, admin.accessToken, { userId: target.userId })).body.token as string;
    expect(claimsOf((await exchange(server, token)).body.accessToken).act.sub).toBe(admin.userId);
  });
});

describeDialects('impersonation rate limits', (h) => {
  it('limits exchanges per client IP and tokens per admin with 429 and Retry-After', async () => {
    const server = await h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_INVITATION_ACCEPT_PER_IP: '1000/600', RATE_LIMIT_IMPERSONATE_PER_IP: '2/600', RATE_LIMIT_IMPERSONATION_PER_USER: '3/3600' });
    const { admin, target } = await setUp(server);
    expect((await exchange(server, 'guess-1')).status).toBe(400);
    expect((await exchange(server, 'guess-2')).status).toBe(400);
    const token = (await issue(server, admin.accessToken, { userId: target.userId })).body.token as string;
    const limited = await exchange(server, token);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    expect((await issue(server, admin.accessToken, { userId: target.userId })).status).toBe(200);
    expect((await issue(server, admin.accessToken, { userId: target.userId })).status).toBe(200);
    const tooMany = await issue(server, admin.accessToken, { userId: target.userId });
    expect(tooMany.status).toBe(429);
    expect(tooMany.body.errorCode).toBe(ErrorCodes.rateLimited);
  });
});
