/**
 * Authorization changes reach every process within 1 s (issue 17): two servers on one database
 * (two processes as far as state goes), each with its own movable clock. A user disabled, a role
 * taken away, a permission taken from a role, a sessions policy saved, a session revoked or an API token deleted through server A is refused or changed on
 * server B once B's clock has moved 1,000 ms, the longest a per-process cache of authorization data
 * may hold an entry (services/platform/ttl-cache.ts).
 */
import { AdminPaths, ApiPaths, ApiTokenPaths, Permissions, SecurityErrorCodes, SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { findPermissionByKey } from '../db/queries/admin-roles';
import { activeMember, callAs, pathOf, roleIdByKey, tenantWithAdmin } from '../test/admin-helpers';
import { call, describeDialects, movableClock } from '../test/harness';
import { sessionsPolicy } from '../test/sessions-policy-helpers';

const ROOMY = { RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_SIGNUP_PER_IP: '1000/60' };

describeDialects('authorization changes across two processes', (h) => {
  async function twoServers() {
    const clockB = movableClock();
    const a = await h.start(ROOMY);
    const b = await h.start(ROOMY, { clock: clockB });
    return { a, b, clockB };
  }

  it('a user disabled through A is refused on B (profile and admin calls)', async () => {
    const { a, b, clockB } = await twoServers();
    const admin = await tenantWithAdmin(a);
    const member = await activeMember(a, admin);
    expect((await callAs(b, member, 'GET', ApiPaths.me)).status).toBe(200);
    expect((await callAs(a, admin, 'POST', pathOf(AdminPaths.tenantUserDisable, { userId: member.userId }))).status).toBe(200);
    clockB.advance(1_000);
    expect((await callAs(b, member, 'GET', ApiPaths.me)).status).toBe(401);
    expect((await callAs(b, member, 'GET', ApiPaths.meAuthorization)).status).toBe(401);
  });

  it('a role taken away through A is gone on B: the profile, the authorization and the admin guard', async () => {
    const { a, b, clockB } = await twoServers();
    const admin = await tenantWithAdmin(a);
    const adminRole = await roleIdByKey(a, admin, 'Admin');
    const member = await activeMember(a, admin, { roleIds: [adminRole] });
    expect((await callAs(b, member, 'GET', ApiPaths.meAuthorization)).body.roles.map((r: { key: string }) => r.key)).toEqual(['Admin']);
    expect((await callAs(b, member, 'GET', AdminPaths.usersV3)).status).toBe(200);
    expect((await callAs(a, admin, 'PUT', AdminPaths.teamMembers, { body: { id: member.userId, roleIds: [] } })).status).toBeLessThan(300);
    clockB.advance(1_000);
    expect((await callAs(b, member, 'GET', ApiPaths.meAuthorization)).body).toEqual({ roles: [], permissions: [] });
    expect((await callAs(b, member, 'GET', ApiPaths.me)).body.roles).toEqual([]);
    expect((await callAs(b, member, 'GET', AdminPaths.usersV3)).status).toBe(403);
  });

  it("a permission taken from a role through A is gone from A's answers at once and from B's within 1 s (role grants are cached per process)", async () => {
    const { a, b, clockB } = await twoServers();
    const admin = await tenantWithAdmin(a);
    const role = await callAs(a, admin, 'POST', AdminPaths.rolesV1, { body: { key: 'Helper', name: 'Helper' } });
    const usersRead = (await findPermissionByKey(a.db, Permissions.usersRead))!.id;
    expect((await callAs(a, admin, 'PUT', pathOf(AdminPaths.rolePermissions, { roleId: role.body.id }), { body: { permissionIds: [usersRead] } })).status).toBe(200);
    const member = await activeMember(a, admin, { roleIds: [role.body.id] });
    const permissionsOn = async (server: typeof a) => (await callAs(server, member, 'GET', ApiPaths.meAuthorization)).body.permissions.map((p: { key: string }) => p.key);
    expect(await permissionsOn(a)).toEqual([Permissions.usersRead]);
    expect(await permissionsOn(b)).toEqual([Permissions.usersRead]);
    expect((await callAs(b, member, 'GET', AdminPaths.usersV3)).status).toBe(200);

    expect((await callAs(a, admin, 'PUT', pathOf(AdminPaths.rolePermissions, { roleId: role.body.id }), { body: { permissionIds: [] } })).status).toBe(200);
    expect(await permissionsOn(a)).toEqual([]);
    expect((await callAs(a, member, 'GET', AdminPaths.usersV3)).status).toBe(403);
    clockB.advance(1_000);
    expect(await permissionsOn(b)).toEqual([]);
    expect((await callAs(b, member, 'GET', AdminPaths.usersV3)).status).toBe(403);
  });

  it("a sessions policy saved through A ends a session that breaks it at its next refresh on B within 1 s (a tenant's policy is cached per process)", async () => {
    const { a, b, clockB } = await twoServers();
    const admin = await tenantWithAdmin(a);
    const member = await activeMember(a, admin);
    const login = await call(b, 'POST', ApiPaths.login, { body: { email: member.email, password: member.password } });
    expect(login.status).toBe(200);
    // Two minutes later B refreshes the session, reading the tenant's policy (none), which it may keep 1 s.
    clockB.advance(120_000);
    const kept = await call(b, 'POST', ApiPaths.refresh, { cookie: login.refreshCookie!, body: {} });
    expect(kept.status).toBe(200);
    // Through A: a forced re-login after 60 s (A's clock has not moved: no session breaks it there).
    expect((await callAs(a, admin, 'POST', SecurityPaths.sessionsPolicy, { body: sessionsPolicy({ relogin: 60 }) })).status).toBe(200);
    clockB.advance(1_000);
    const ended = await call(b, 'POST', ApiPaths.refresh, { cookie: kept.refreshCookie!, body: {} });
    expect(ended.status).toBe(401);
    expect(ended.body.errorCode).toBe(SecurityErrorCodes.sessionExpiredByPolicy);
  });

  it('a session signed out through A is refused on B', async () => {
    const { a, b, clockB } = await twoServers();
    const admin = await tenantWithAdmin(a);
    const login = await call(a, 'POST', ApiPaths.login, { body: { email: admin.email, password: 'correct horse battery' } });
    expect(login.status).toBe(200);
    expect((await call(b, 'GET', ApiPaths.me, { token: login.body.accessToken })).status).toBe(200);
    expect((await call(a, 'POST', ApiPaths.logout, { cookie: login.refreshCookie!, body: {} })).status).toBeLessThan(300);
    clockB.advance(1_000);
    expect((await call(b, 'GET', ApiPaths.me, { token: login.body.accessToken })).status).toBe(401);
    expect((await call(b, 'GET', AdminPaths.usersV3, { token: login.body.accessToken })).status).toBe(401);
  });

  it('a personal API token deleted through A is refused on B', async () => {
    const { a, b, clockB } = await twoServers();
    const admin = await tenantWithAdmin(a);
    const created = await callAs(a, admin, 'POST', ApiTokenPaths.userAccessTokens, { body: { description: 'script' } });
    expect(created.status).toBe(201);
    expect((await call(b, 'GET', AdminPaths.usersV3, { token: created.body.secret })).status).toBe(200);
    expect((await callAs(a, admin, 'DELETE', ApiTokenPaths.userAccessToken.replace('{tokenId}', created.body.id))).status).toBeLessThan(300);
    clockB.advance(1_000);
    expect((await call(b, 'GET', AdminPaths.usersV3, { token: created.body.secret })).status).toBe(401);
  });
});
