/**
 * Regression tests of the sub-account findings of the issue 5 security review (.wip/review-issue5.md:
 * M1-M4, L1, L2, L4, L5), one test per finding, named after the bug.
 */
import { AdminPaths, ApiPaths, ApiTokenPaths, Permissions, SubAccountPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { ancestorsOf } from '../../db/queries/sub-accounts';
import { addUserToTenant } from '../../db/queries/tenants';
import { activeMember, auditsOf, callAs, inviteMember, pathOf, roleIdByKey, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { call, describeDialects } from '../../test/harness';
import { grantRoleWith } from '../../test/invitation-helpers';

const sub = (template: string, subTenantId: string, userId?: string) => pathOf(template, { subTenantId, ...(userId ? { userId } : {}) });

async function createAccount(server: GatehouseServer, admin: TenantAdmin, body: Record<string, unknown>, tenantId?: string): Promise<string> {
  const res = await callAs(server, admin, 'POST', SubAccountPaths.subTenants, { body, ...(tenantId ? { tenantId } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.tenantId as string;
}

/** A second signed-in member of the admin's tenant holding exactly these keys there. */
async function memberWith(server: GatehouseServer, admin: TenantAdmin, keys: string[]): Promise<TenantAdmin> {
  const member = await activeMember(server, admin);
  await grantRoleWith(server, member.userId, admin.tenantId, `Custom-${member.userId.slice(0, 8)}`, keys);
  return member;
}

const setAccess = (server: GatehouseServer, who: TenantAdmin, accountId: string, userId: string, allowAccess: boolean, tenantId?: string) =>
  callAs(server, who, 'PUT', sub(SubAccountPaths.userAccess, accountId, userId), { body: { allowAccess }, ...(tenantId ? { tenantId } : {}) });

describeDialects('admin sub-accounts (security review)', (harness) => {
  const start = () =>
    harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_INVITATION_ACCEPT_PER_IP: '1000/600', RATE_LIMIT_IMPERSONATE_PER_IP: '1000/600' });

  it('M1: a deleted sub-account tenant id cannot be re-created to read its old audit log (409)', async () => {
    const server = await start();
    const reseller = await tenantWithAdmin(server, 'reseller');
    const chosen = `acme-${Date.now().toString(36)}`;
    await createAccount(server, reseller, { name: 'Acme EU', tenantId: chosen });
    const member = await inviteMember(server, reseller);
    expect((await callAs(server, reseller, 'POST', sub(SubAccountPaths.users, chosen), { body: { userIds: [member.userId] } })).status).toBe(200);
    expect((await callAs(server, reseller, 'DELETE', sub(SubAccountPaths.subTenant, chosen))).status).toBe(204);
    const before = (await auditsOf(server, chosen)).length;
    expect(before).toBeGreaterThan(0);
    // An unrelated tenant, and the reseller itself, both get 409: the id is never given out again.
    const other = await tenantWithAdmin(server, 'other');
    for (const who of [other, reseller]) {
      const again = await callAs(server, who, 'POST', SubAccountPaths.subTenants, { body: { name: 'x', tenantId: chosen } });
      expect([again.status, again.body.errorCode, again.body.errors]).toEqual([409, 'ER-02451', [`Tenant id ${chosen} was used by a deleted account and cannot be used again`]]);
    }
    expect(await server.db.selectFrom('tenants').select('id').where('id', '=', chosen).executeTakeFirst()).toBeUndefined();
    // Even an account deleted before anything happened in it leaves its id marked as used.
    const quiet = `quiet-${Date.now().toString(36)}`;
    await createAccount(server, reseller, { name: 'Quiet', tenantId: quiet });
    expect((await callAs(server, reseller, 'DELETE', sub(SubAccountPaths.subTenant, quiet))).status).toBe(204);
    expect((await callAs(server, other, 'POST', SubAccountPaths.subTenants, { body: { name: 'y', tenantId: quiet } })).status).toBe(409);
  });

  it('M2: an impersonation session does not reach sub-accounts through the sub-account API (404, empty tree and search)', async () => {
    const server = await start();
    const p = await tenantWithAdmin(server, 'parent');
    const c1 = await createAccount(server, p, { name: 'Child one' });
    const g = await createAccount(server, p, { name: 'Grandchild', parentTenantId: c1 });
    await grantRoleWith(server, p.userId, p.tenantId, 'Impersonator', [Permissions.impersonate]);
    // U is an Admin of P with sub-account access; P's owner impersonates U.
    const u = await activeMember(server, p);
    expect((await callAs(server, p, 'PUT', AdminPaths.teamMembers, { body: { id: u.userId, roleIds: [await roleIdByKey(server, p, 'Admin')] } })).status).toBe(200);
    expect((await callAs(server, u, 'GET', sub(SubAccountPaths.users, g))).status).toBe(200);
    const issued = await call(server, 'POST', ApiPaths.impersonation, { token: p.accessToken, body: { userId: u.userId, reason: 'Ticket 7' } });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const session = await call(server, 'POST', ApiPaths.impersonate, { body: { token: issued.body.token } });
    expect(session.status).toBe(200);
    const imp = { accessToken: session.body.accessToken as string };
    for (const path of [sub(SubAccountPaths.users, g), sub(SubAccountPaths.roles, g), sub(SubAccountPaths.subTenant, g), sub(SubAccountPaths.parents, g), `${SubAccountPaths.tree}?parentTenantId=${c1}`]) {
      expect((await callAs(server, imp, 'GET', path)).status, path).toBe(404);
    }
    expect((await callAs(server, imp, 'GET', SubAccountPaths.tree)).body.children).toEqual([]);
    expect((await callAs(server, imp, 'GET', `${SubAccountPaths.search}?_filter=Grand`)).body.items).toEqual([]);
    expect((await callAs(server, imp, 'POST', SubAccountPaths.usersCount, { body: { tenantIds: [c1, g, p.tenantId] } })).body.items.map((i: { tenantId: string }) => i.tenantId)).toEqual([p.tenantId]);
  });

  it("M3: a user revoked in C cannot act on C's descendants with C's keys through a read-only grant held in C's parent G (403)", async () => {
    const server = await start();
    const gAdmin = await tenantWithAdmin(server, 'top');
    const g = gAdmin.tenantId;
    const c = await createAccount(server, gAdmin, { name: 'C' });
    const d = await createAccount(server, gAdmin, { name: 'D', parentTenantId: c });
    // U: Admin in C, and in G only the hierarchy read key.
    const u = await tenantWithAdmin(server, 'u');
    await addUserToTenant(server.db, u.userId, c, Date.now());
    await grantRoleWith(server, u.userId, c, 'CAdmin', [Permissions.subAccountsRead, Permissions.subAccountsWrite, Permissions.usersRead, Permissions.usersWrite]);
    await addUserToTenant(server.db, u.userId, g, Date.now());
    await grantRoleWith(server, u.userId, g, 'Viewer', [Permissions.subAccountsRead]);
    // C's admins (here G's owner, acting in C) revoke U's sub-account access in C.
    expect((await setAccess(server, gAdmin, c, u.userId, false, c)).status).toBe(204);
    // Acting in C with C's keys: no access to D any more.
    expect((await callAs(server, u, 'PATCH', sub(SubAccountPaths.subTenant, d), { tenantId: c, body: { name: 'Hijacked' } })).status).toBe(403);
    expect((await callAs(server, u, 'GET', sub(SubAccountPaths.users, d), { tenantId: c })).status).toBe(403);
    expect((await callAs(server, u, 'DELETE', sub(SubAccountPaths.subTenant, d), { tenantId: c })).status).toBe(403);
    // Acting in G with G's keys: the read-only grant reads D, and writes nothing.
    expect((await callAs(server, u, 'GET', sub(SubAccountPaths.users, d), { tenantId: g })).status).toBe(200);
    expect((await callAs(server, u, 'PATCH', sub(SubAccountPaths.subTenant, d), { tenantId: g, body: { name: 'Hijacked' } })).status).toBe(403);
    expect((await callAs(server, gAdmin, 'GET', sub(SubAccountPaths.subTenant, d))).body.name).toBe('D');
  });

  it("M4: setUserAccess refuses restoring one's own revoked access and revoking a superior; a revoked admin cannot set alwaysOn", async () => {
    const server = await start();
    const p = await tenantWithAdmin(server, 'parent');
    const c1 = await createAccount(server, p, { name: 'Child one' });
    const b = await memberWith(server, p, [Permissions.subAccountsRead, Permissions.subAccountsWrite]);
    expect((await callAs(server, b, 'GET', sub(SubAccountPaths.users, c1))).status).toBe(200);
    expect((await setAccess(server, p, p.tenantId, b.userId, false)).status).toBe(204);
    expect((await callAs(server, b, 'GET', sub(SubAccountPaths.users, c1))).status).toBe(403);
    const self = await setAccess(server, b, p.tenantId, b.userId, true);
    expect([self.status, self.body.errors]).toEqual([400, ['You cannot change the sub-account access of yourself']]);
    const superior = await setAccess(server, b, p.tenantId, p.userId, false);
    expect(superior.status).toBe(403);
    const alwaysOn = await callAs(server, b, 'PUT', sub(SubAccountPaths.hierarchySettings, p.tenantId), { body: { subAccountAccessType: 'alwaysOn' } });
    expect([alwaysOn.status, alwaysOn.body.errors]).toEqual([403, ['Your own sub-account access was revoked in this account: you cannot set its access type to alwaysOn']]);
    // Still revoked; the owner still reaches C1; the setting is unchanged.
    expect((await callAs(server, b, 'GET', sub(SubAccountPaths.users, c1))).status).toBe(403);
    expect((await callAs(server, p, 'GET', sub(SubAccountPaths.users, c1))).status).toBe(200);
    expect((await callAs(server, p, 'GET', SubAccountPaths.metadata)).body.subAccountAccessType).toBe('defaultOn');
    // The owner may still switch it to alwaysOn.
    expect((await callAs(server, p, 'PUT', sub(SubAccountPaths.hierarchySettings, p.tenantId), { body: { subAccountAccessType: 'alwaysOn' } })).status).toBe(200);
  });

  it('L1: API tokens see no descendants in tree or search (their own tenant only)', async () => {
    const server = await start();
    const p = await tenantWithAdmin(server, 'parent');
    const c1 = await createAccount(server, p, { name: 'Secret child', metadata: 'internal notes' });
    const token = await callAs(server, p, 'POST', ApiTokenPaths.tenantAccessTokens, { body: { description: 'x', roleIds: [await roleIdByKey(server, p, 'Admin')] } });
    expect(token.status, JSON.stringify(token.body)).toBe(201);
    const bearer = { accessToken: token.body.secret as string };
    const tree = await callAs(server, bearer, 'GET', SubAccountPaths.tree);
    expect([tree.status, tree.body.tenantId, tree.body.children, tree.body.loadMoreLink]).toEqual([200, p.tenantId, [], null]);
    expect((await callAs(server, bearer, 'GET', `${SubAccountPaths.search}?_filter=Secret`)).body.items).toEqual([]);
    expect((await callAs(server, bearer, 'GET', `${SubAccountPaths.tree}?parentTenantId=${c1}`)).status).toBe(404);
  });

  it('L2: two crossing moves at once never make a cycle (one is refused with 409)', async () => {
    const server = await start();
    const p = await tenantWithAdmin(server, 'parent');
    const x = await createAccount(server, p, { name: 'X' });
    const y = await createAccount(server, p, { name: 'Y' });
    const [a, b] = await Promise.all([
      callAs(server, p, 'PATCH', sub(SubAccountPaths.subTenant, x), { body: { parentTenantId: y } }),
      callAs(server, p, 'PATCH', sub(SubAccountPaths.subTenant, y), { body: { parentTenantId: x } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    for (const id of [x, y]) {
      const chain = (await ancestorsOf(server.db, id)).map((t) => t.id);
      expect(chain).not.toContain(id);
      expect(chain.at(-1)).toBe(p.tenantId);
    }
  });

  it('L4: creating under a sub-account needs sub-account access to it (403 once revoked)', async () => {
    const server = await start();
    const p = await tenantWithAdmin(server, 'parent');
    const c1 = await createAccount(server, p, { name: 'Child one' });
    const b = await memberWith(server, p, [Permissions.subAccountsRead, Permissions.subAccountsWrite]);
    expect((await setAccess(server, p, p.tenantId, b.userId, false)).status).toBe(204);
    expect((await callAs(server, b, 'POST', SubAccountPaths.subTenants, { body: { name: 'Under C1', parentTenantId: c1 } })).status).toBe(403);
    // Directly under their own tenant is still fine (no sub-account is looked into).
    const own = await callAs(server, b, 'POST', SubAccountPaths.subTenants, { body: { name: 'Direct' } });
    expect(own.status).toBe(201);
    // ...but moving it under C1 is refused.
    expect((await callAs(server, b, 'PATCH', sub(SubAccountPaths.subTenant, own.body.tenantId), { body: { parentTenantId: c1 } })).status).toBe(403);
    expect((await callAs(server, p, 'GET', SubAccountPaths.tree)).body.children.map((c: { name: string }) => c.name).sort()).toEqual(['Child one', 'Direct']);
  });

  it("L5: addUsers does not give an active sub-account membership to a user disabled in the caller's tenant", async () => {
    const server = await start();
    const p = await tenantWithAdmin(server, 'parent');
    const c1 = await createAccount(server, p, { name: 'Child one' });
    const member = await inviteMember(server, p);
    await server.db.updateTable('user_tenants').set({ disabled_at: Date.now() }).where('user_id', '=', member.userId).where('tenant_id', '=', p.tenantId).execute();
    const added = await callAs(server, p, 'POST', sub(SubAccountPaths.users, c1), { body: { userIds: [member.userId] } });
    expect([added.status, added.body.errors]).toEqual([400, ['Only active users of your account can be added (this user is disabled, locked or expired)']]);
    expect(await server.db.selectFrom('user_tenants').select('user_id').where('user_id', '=', member.userId).where('tenant_id', '=', c1).executeTakeFirst()).toBeUndefined();
  });
});
