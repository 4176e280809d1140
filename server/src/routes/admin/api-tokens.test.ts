import { AdminPaths, ApiPaths, ApiTokenPaths, ErrorCodes, OAuthPaths, Permissions, expiryDaysToMinutes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { findPermissionByKey } from '../../db/queries/admin-roles';
import { activeMember, auditsOf, callAs, pathOf, roleIdByKey, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { call, describeDialects, movableClock } from '../../test/harness';

/** The client_credentials grant at the OAuth token endpoint, as a backend would call it. */
function exchange(server: GatehouseServer, clientId: string, secret: string) {
  const rawBody = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }).toString();
  return call(server, 'POST', OAuthPaths.token, { rawBody, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
}

const bearer = (accessToken: string) => ({ accessToken });

async function roleWith(server: GatehouseServer, admin: TenantAdmin, key: string, permissionKeys: string[]): Promise<string> {
  const permissionIds = await Promise.all(permissionKeys.map(async (k) => (await findPermissionByKey(server.db, k))!.id));
  const res = await callAs(server, admin, 'POST', AdminPaths.rolesV2, { body: { key, name: key, permissionIds } });
  expect(res.status).toBe(201);
  return res.body.id;
}

describeDialects('admin API tokens', (harness) => {
  const start = (clock = movableClock()) => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60', ACCESS_TOKEN_TTL: '600' }, { clock });

  it('creates a tenant token with roles and an expiry in minutes, answers the secret once, lists it without the secret, and deletes it', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    const readOnly = await roleIdByKey(server, admin, 'ReadOnly');
    const created = await callAs(server, admin, 'POST', ApiTokenPaths.tenantApiTokens, { body: { description: 'CI', roleIds: [readOnly], expiresInMinutes: expiryDaysToMinutes(2) } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'ClientCredentials', description: 'CI', roleIds: [readOnly], expiresInMinutes: 2880, expires: new Date(clock.now() + 2880 * 60_000).toISOString(), userId: null });
    expect(created.body.clientId).toMatch(/^CLIENT_ID_[0-9a-f]{32}$/);
    expect(created.body.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Stored hashed: the secret is nowhere in the database row.
    const row = await server.db.selectFrom('api_tokens').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.body.secret);

    const listed = await callAs(server, admin, 'GET', ApiTokenPaths.tenantApiTokens);
    expect(listed.status).toBe(200);
    const { secret: _secret, ...withoutSecret } = created.body;
    expect(listed.body.items).toEqual([withoutSecret]);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);
    // Personal tokens and access tokens are separate lists.
    expect((await callAs(server, admin, 'GET', ApiTokenPaths.userApiTokens)).body.items).toEqual([]);
    expect((await callAs(server, admin, 'GET', ApiTokenPaths.tenantAccessTokens)).body.items).toEqual([]);

    expect((await callAs(server, admin, 'POST', ApiTokenPaths.tenantApiTokens, { body: { description: '', roleIds: [] } })).status).toBe(400);
    expect((await callAs(server, admin, 'POST', ApiTokenPaths.userApiTokens, { body: { description: 'x', roleIds: [readOnly] } })).status).toBe(400);
    expect((await callAs(server, admin, 'DELETE', pathOf(ApiTokenPaths.tenantApiToken, { tokenId: created.body.id }))).status).toBe(204);
    expect((await callAs(server, admin, 'DELETE', pathOf(ApiTokenPaths.tenantApiToken, { tokenId: created.body.id }))).status).toBe(404);
    expect((await callAs(server, admin, 'GET', ApiTokenPaths.tenantApiTokens)).body.items).toEqual([]);
    const audits = await auditsOf(server, admin.tenantId);
    expect(audits.filter((a) => a.action.startsWith('API token')).map((a) => a.action).sort()).toEqual(['API token created', 'API token deleted']);
    expect(JSON.stringify(audits)).not.toContain(created.body.secret);
  });

  it("exchanges a ClientCredentials token (client_credentials grant) for an access token the admin API accepts with the token's roles, in its tenant only, until the token is deleted", async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    const readOnly = await roleIdByKey(server, admin, 'ReadOnly');
    const token = (await callAs(server, admin, 'POST', ApiTokenPaths.tenantApiTokens, { body: { description: 'reporting', roleIds: [readOnly] } })).body;

    const res = await exchange(server, token.clientId, token.secret);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 600 });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const claims = JSON.parse(Buffer.from(res.body.access_token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ tenantId: admin.tenantId, tenantIds: [admin.tenantId], roles: ['ReadOnly'], apiTokenId: token.id });
    expect(claims.permissions).toContain(Permissions.usersRead);
    expect(claims.permissions).not.toContain(Permissions.usersWrite);

    const access = bearer(res.body.access_token);
    expect((await callAs(server, access, 'GET', AdminPaths.usersV3)).status).toBe(200);
    // ReadOnly: reading yes, changing no.
    const write = await callAs(server, access, 'POST', AdminPaths.rolesV1, { body: { key: 'nope', name: 'Nope' } });
    expect([write.status, write.body.errorCode]).toEqual([403, 'ER-01005']);
    // Tenant-scoped: naming another tenant finds nothing.
    expect((await callAs(server, access, 'GET', AdminPaths.usersV3, { tenantId: other.tenantId })).status).toBe(404);
    // API tokens do not manage API tokens.
    expect((await callAs(server, access, 'GET', ApiTokenPaths.tenantApiTokens)).status).toBe(403);
    // Not a session: the sign-in side's session calls refuse it.
    expect((await call(server, 'POST', OAuthPaths.userinfo, { token: res.body.access_token })).status).toBe(401);

    const wrong = await exchange(server, token.clientId, 'x'.repeat(43));
    expect([wrong.status, wrong.body.error]).toEqual([401, 'invalid_client']);
    expect((await exchange(server, 'CLIENT_ID_unknown', token.secret)).status).toBe(401);

    expect((await callAs(server, admin, 'DELETE', pathOf(ApiTokenPaths.tenantApiToken, { tokenId: token.id }))).status).toBe(204);
    expect((await callAs(server, access, 'GET', AdminPaths.usersV3)).status).toBe(401);
    expect((await exchange(server, token.clientId, token.secret)).status).toBe(401);
  });

  it('accepts an AccessToken type token directly as a bearer token with its owner\'s permissions, until it expires', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    const created = await callAs(server, admin, 'POST', ApiTokenPaths.userAccessTokens, { body: { description: 'script', expiresInMinutes: expiryDaysToMinutes(1) } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'AccessToken', userId: admin.userId, roleIds: [] });
    expect(created.body.secret.startsWith(`gh_at.${created.body.id}.`)).toBe(true);
    const direct = bearer(created.body.secret);
    expect((await callAs(server, direct, 'POST', AdminPaths.rolesV1, { body: { key: 'made-by-token', name: 'By token' } })).status).toBe(201);
    const audit = (await auditsOf(server, admin.tenantId)).find((a) => a.action === 'Role created');
    expect(audit).toMatchObject({ user_id: admin.userId });
    // A tampered secret is refused.
    expect((await callAs(server, bearer(`${created.body.secret}x`), 'GET', AdminPaths.usersV3)).status).toBe(401);
    // ClientCredentials exchange is for ClientCredentials tokens only.
    expect((await exchange(server, created.body.clientId, created.body.secret)).status).toBe(401);

    clock.advance(1440 * 60_000 - 1000);
    expect((await callAs(server, direct, 'GET', AdminPaths.usersV3)).status).toBe(200);
    clock.advance(1000);
    expect((await callAs(server, direct, 'GET', AdminPaths.usersV3)).status).toBe(401);
  });

  it('lets nobody give a tenant token a role beyond their own permissions, or touch another user\'s personal tokens', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const tokenManager = await roleWith(server, admin, 'token-manager', [Permissions.tenantApiTokensRead, Permissions.tenantApiTokensWrite, Permissions.userApiTokensRead, Permissions.userApiTokensWrite, Permissions.usersRead]);
    const member = await activeMember(server, admin, { roleIds: [tokenManager] });
    const adminRole = await roleIdByKey(server, admin, 'Admin');
    const beyond = await callAs(server, member, 'POST', ApiTokenPaths.tenantApiTokens, { body: { description: 'escalate', roleIds: [adminRole] } });
    expect([beyond.status, beyond.body.errorCode]).toEqual([403, ErrorCodes.roleNotGrantable]);
    expect((await callAs(server, admin, 'GET', ApiTokenPaths.tenantApiTokens)).body.items).toEqual([]);
    expect((await callAs(server, member, 'POST', ApiTokenPaths.tenantApiTokens, { body: { description: 'own role', roleIds: [tokenManager] } })).status).toBe(201);

    const mine = (await callAs(server, admin, 'POST', ApiTokenPaths.userApiTokens, { body: { description: 'admin own' } })).body;
    expect((await callAs(server, member, 'GET', ApiTokenPaths.userApiTokens)).body.items).toEqual([]);
    expect((await callAs(server, member, 'DELETE', pathOf(ApiTokenPaths.userApiToken, { tokenId: mine.id }))).status).toBe(404);
    // The personal token acts with its owner's permissions, read at each call.
    const ex = await exchange(server, mine.clientId, mine.secret);
    expect(ex.status).toBe(200);
    expect((await callAs(server, bearer(ex.body.access_token), 'GET', AdminPaths.usersV3)).status).toBe(200);
  });

  it("keeps a tenant token's invitations within the token's own permissions, not its creator's", async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const inviter = await roleWith(server, admin, 'inviter', [Permissions.usersRead, Permissions.usersWrite]);
    const token = (await callAs(server, admin, 'POST', ApiTokenPaths.tenantAccessTokens, { body: { description: 'invites', roleIds: [inviter] } })).body;
    const adminRole = await roleIdByKey(server, admin, 'Admin');
    const beyond = await callAs(server, bearer(token.secret), 'POST', AdminPaths.bulkInvite, { body: { emails: ['new-admin@example.com'], roleIds: [adminRole] } });
    expect([beyond.status, beyond.body.errorCode]).toEqual([403, ErrorCodes.roleNotGrantable]);
    const within = await callAs(server, bearer(token.secret), 'POST', AdminPaths.bulkInvite, { body: { emails: ['new-inviter@example.com'], roleIds: [inviter] } });
    expect([within.status, within.body.allowed.map((a: { email: string }) => a.email)]).toEqual([200, ['new-inviter@example.com']]);
    // The single invitation (POST /identity/resources/users/v1) goes through the same admin guard.
    const single = await callAs(server, bearer(token.secret), 'POST', ApiPaths.inviteUser, { body: { email: 'one-inviter@example.com', name: 'One', roleIds: [inviter] } });
    expect([single.status, single.body.email]).toEqual([201, 'one-inviter@example.com']);
    const singleBeyond = await callAs(server, bearer(token.secret), 'POST', ApiPaths.inviteUser, { body: { email: 'one-admin@example.com', name: 'One', roleIds: [adminRole] } });
    expect([singleBeyond.status, singleBeyond.body.errorCode]).toEqual([403, ErrorCodes.roleNotGrantable]);
  });

  it("refuses another tenant's admin: their tokens are not found, not listed, not deletable", async () => {
    const server = await start();
    const a = await tenantWithAdmin(server, 'a');
    const b = await tenantWithAdmin(server, 'b');
    const token = (await callAs(server, a, 'POST', ApiTokenPaths.tenantAccessTokens, { body: { description: 'A', roleIds: [] } })).body;
    expect((await callAs(server, b, 'GET', ApiTokenPaths.tenantAccessTokens)).body.items).toEqual([]);
    expect((await callAs(server, b, 'GET', ApiTokenPaths.tenantAccessTokens, { tenantId: a.tenantId })).status).toBe(404);
    expect((await callAs(server, b, 'DELETE', pathOf(ApiTokenPaths.tenantAccessToken, { tokenId: token.id }))).status).toBe(404);
    // A's token (no roles, so no permissions) still exists and works only in A.
    const direct = bearer(token.secret);
    expect((await callAs(server, direct, 'GET', AdminPaths.usersV3)).status).toBe(403);
    expect((await callAs(server, direct, 'GET', AdminPaths.usersV3, { tenantId: b.tenantId })).status).toBe(404);
  });
});
