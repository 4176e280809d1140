import { AdminPaths, ApiTokenPaths, SubAccountPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { replaceUserRoles } from '../../db/queries/admin-users';
import { addUserToTenant } from '../../db/queries/tenants';
import { activeMember, auditsOf, callAs, inviteMember, memberWithoutPermissions, pathOf, roleIdByKey, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';

const sub = (template: string, subTenantId: string, userId?: string) => pathOf(template, { subTenantId, ...(userId ? { userId } : {}) });

async function createAccount(server: GatehouseServer, admin: TenantAdmin, body: Record<string, unknown>, tenantId?: string): Promise<string> {
  const res = await callAs(server, admin, 'POST', SubAccountPaths.subTenants, { body, ...(tenantId ? { tenantId } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.tenantId as string;
}

/** The id of a role of an account, by key, through the sub-account roles endpoint. */
async function accountRole(server: GatehouseServer, admin: TenantAdmin, tenantId: string, key: string): Promise<string> {
  const res = await callAs(server, admin, 'GET', sub(SubAccountPaths.roles, tenantId));
  expect(res.status).toBe(200);
  return (res.body.items as { id: string; key: string }[]).find((r) => r.key === key)!.id;
}

/** A user who belongs to `tenantId` only (besides their own sign-up tenant), as Admin there. */
async function adminOnlyOf(server: GatehouseServer, tenantId: string): Promise<TenantAdmin> {
  const user = await tenantWithAdmin(server, 'child-admin');
  await addUserToTenant(server.db, user.userId, tenantId, Date.now());
  const role = await server.db.selectFrom('roles').select('id').where('tenant_id', '=', tenantId).where('key', '=', 'Admin').executeTakeFirstOrThrow();
  await replaceUserRoles(server.db, tenantId, user.userId, [role.id]);
  return { ...user, tenantId };
}

/**
 * P (the admin's sign-up tenant) -> C1 -> G, and P -> C2. G has one user, added from P with the
 * ReadOnly role of G.
 */
async function hierarchy(server: GatehouseServer) {
  const p = await tenantWithAdmin(server, 'parent');
  const c1 = await createAccount(server, p, { name: 'Child one' });
  const c2 = await createAccount(server, p, { name: 'Child two' });
  const g = await createAccount(server, p, { name: 'Grandchild', parentTenantId: c1 });
  const member = await inviteMember(server, p);
  const added = await callAs(server, p, 'POST', sub(SubAccountPaths.users, g), { body: { userIds: [member.userId], roleIds: [await accountRole(server, p, g, 'ReadOnly')] } });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  return { p, c1, c2, g, member };
}

describeDialects('admin sub-accounts', (harness) => {
  const start = () => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' });

  it('lets an admin of P with sub-account access list the users of grandchild G, by the sub-account API and with ?tenantId=G', async () => {
    const server = await start();
    const { p, g, member } = await hierarchy(server);
    const users = await callAs(server, p, 'GET', sub(SubAccountPaths.users, g));
    expect(users.status).toBe(200);
    expect(users.body.items).toEqual([{ id: member.userId, name: expect.any(String), email: member.email, roles: [expect.objectContaining({ key: 'ReadOnly' })], subAccountAccessAllowed: true }]);
    expect(users.body._metadata).toEqual({ totalItems: 1, offset: 0, limit: 10 });
    const team = await callAs(server, p, 'GET', AdminPaths.usersV3, { tenantId: g });
    expect(team.status).toBe(200);
    expect(JSON.stringify(team.body)).toContain(member.userId);
    // ...and acts there with P's permissions: a role change in G, recorded in G and in P.
    const support = await accountRole(server, p, g, 'Support');
    expect((await callAs(server, p, 'PUT', AdminPaths.teamMembers, { tenantId: g, body: { id: member.userId, roleIds: [support] } })).status).toBe(200);
    expect((await auditsOf(server, g)).map((a) => a.action)).toContain('User roles updated');
    expect((await auditsOf(server, p.tenantId)).map((a) => a.action)).toEqual(expect.arrayContaining(['Sub-account created', 'Users added to sub-account']));
    expect((await auditsOf(server, g)).map((a) => a.action)).toContain('Users added to sub-account');
  });

  it('refuses an admin of child C1 in sibling C2 and in parent P (404), and lets them reach their own child G', async () => {
    const server = await start();
    const { p, c1, c2, g } = await hierarchy(server);
    const c1Admin = await adminOnlyOf(server, c1);
    for (const tenantId of [c2, p.tenantId]) {
      expect((await callAs(server, c1Admin, 'GET', AdminPaths.usersV3, { tenantId })).status, tenantId).toBe(404);
      expect((await callAs(server, c1Admin, 'GET', SubAccountPaths.tree, { tenantId })).status).toBe(404);
    }
    // From C1, pointing at C2 or P by id: not found either.
    for (const tenantId of [c2, p.tenantId]) {
      expect((await callAs(server, c1Admin, 'GET', sub(SubAccountPaths.users, tenantId), { tenantId: c1 })).status).toBe(404);
      expect((await callAs(server, c1Admin, 'PATCH', sub(SubAccountPaths.subTenant, tenantId), { tenantId: c1, body: { name: 'Taken over' } })).status).toBe(404);
      expect((await callAs(server, c1Admin, 'DELETE', sub(SubAccountPaths.subTenant, tenantId), { tenantId: c1 })).status).toBe(404);
      expect((await callAs(server, c1Admin, 'GET', sub(SubAccountPaths.parents, tenantId), { tenantId: c1 })).status).toBe(404);
    }
    // Creating under P or C2, or moving its own child there: not found.
    expect((await callAs(server, c1Admin, 'POST', SubAccountPaths.subTenants, { tenantId: c1, body: { name: 'Sneaky', parentTenantId: c2 } })).status).toBe(404);
    expect((await callAs(server, c1Admin, 'PATCH', sub(SubAccountPaths.subTenant, g), { tenantId: c1, body: { parentTenantId: p.tenantId } })).status).toBe(404);
    expect((await callAs(server, c1Admin, 'POST', SubAccountPaths.usersCount, { tenantId: c1, body: { tenantIds: [c1, c2, p.tenantId, g] } })).body.items.map((i: { tenantId: string }) => i.tenantId)).toEqual([c1, g]);
    // The breadcrumb never shows what is above the tenant the caller acts in.
    expect((await callAs(server, c1Admin, 'GET', sub(SubAccountPaths.parents, g), { tenantId: c1 })).body.parents).toEqual([{ tenantId: c1, name: 'Child one' }]);
    expect((await callAs(server, c1Admin, 'GET', sub(SubAccountPaths.users, g), { tenantId: c1 })).status).toBe(200);
    expect((await callAs(server, c1Admin, 'GET', AdminPaths.usersV3, { tenantId: g })).status).toBe(200);
    expect((await callAs(server, p, 'GET', sub(SubAccountPaths.subTenant, c2))).body).toMatchObject({ name: 'Child two' });
  });

  it('follows the access type of the parent: defaultOn unless revoked, defaultOff unless granted, alwaysOn whatever the user says', async () => {
    const server = await start();
    const { p, g } = await hierarchy(server);
    const other = await activeMember(server, p);
    expect((await callAs(server, p, 'PUT', AdminPaths.teamMembers, { body: { id: other.userId, roleIds: [await roleIdByKey(server, p, 'Admin')] } })).status).toBe(200);
    const reaches = async () => (await callAs(server, other, 'GET', AdminPaths.usersV3, { tenantId: g })).status;
    const setType = (subAccountAccessType: string) => callAs(server, p, 'PUT', sub(SubAccountPaths.hierarchySettings, p.tenantId), { body: { subAccountAccessType } });
    const setAccess = (allowAccess: boolean) => callAs(server, p, 'PUT', sub(SubAccountPaths.userAccess, p.tenantId, other.userId), { body: { allowAccess } });

    expect((await callAs(server, p, 'GET', SubAccountPaths.metadata)).body.subAccountAccessType).toBe('defaultOn');
    expect(await reaches()).toBe(200);
    expect((await setAccess(false)).status).toBe(204);
    expect(await reaches()).toBe(404);
    expect((await setType('alwaysOn')).status).toBe(200);
    expect(await reaches()).toBe(200);
    expect((await setType('defaultOff')).body.subAccountAccessType).toBe('defaultOff');
    expect(await reaches()).toBe(404);
    expect((await setAccess(true)).status).toBe(204);
    expect(await reaches()).toBe(200);
    const listed = (await callAs(server, p, 'GET', sub(SubAccountPaths.users, p.tenantId))).body.items as { id: string; subAccountAccessAllowed: boolean }[];
    expect(listed.find((u) => u.id === other.userId)?.subAccountAccessAllowed).toBe(true);
    expect(listed.find((u) => u.id === p.userId)?.subAccountAccessAllowed).toBe(false);
    // The sub-account endpoints of G answer 403 (it is in the tree, but not open to them) to P's admin without access.
    expect((await callAs(server, p, 'GET', sub(SubAccountPaths.users, g))).status).toBe(403);
    // Seed 001 section 5: no access type, no update.
    const missing = await callAs(server, p, 'PUT', sub(SubAccountPaths.hierarchySettings, p.tenantId), { body: {} });
    expect([missing.status, missing.body.errorCode, missing.body.errors[0]]).toEqual([400, 'ER-02454', expect.stringContaining('subAccountAccessType is required')]);
    expect((await auditsOf(server, p.tenantId)).map((a) => a.action)).toEqual(expect.arrayContaining(['Sub-account hierarchy settings updated', 'Sub-account access updated']));
  });

  it('refuses to make a tenant its own ancestor, and to delete an account with sub-accounts', async () => {
    const server = await start();
    const { p, c1, c2, g } = await hierarchy(server);
    const intoGrandchild = await callAs(server, p, 'PATCH', sub(SubAccountPaths.subTenant, c1), { body: { parentTenantId: g } });
    expect([intoGrandchild.status, intoGrandchild.body.errorCode]).toEqual([409, 'ER-02453']);
    expect((await callAs(server, p, 'PATCH', sub(SubAccountPaths.subTenant, c1), { body: { parentTenantId: c1 } })).status).toBe(409);
    // Moving sideways is fine; the tenant itself cannot be renamed or moved here (it is no sub-account of itself).
    expect((await callAs(server, p, 'PATCH', sub(SubAccountPaths.subTenant, c2), { body: { parentTenantId: c1, name: 'Moved' } })).body).toMatchObject({ parentTenantId: c1, name: 'Moved' });
    expect((await callAs(server, p, 'PATCH', sub(SubAccountPaths.subTenant, p.tenantId), { body: { parentTenantId: g } })).status).toBe(404);
    const busy = await callAs(server, p, 'DELETE', sub(SubAccountPaths.subTenant, c1));
    expect([busy.status, busy.body.errorCode]).toEqual([409, 'ER-02452']);
    expect((await callAs(server, p, 'DELETE', sub(SubAccountPaths.subTenant, g))).status).toBe(204);
    expect((await callAs(server, p, 'DELETE', sub(SubAccountPaths.subTenant, c2))).status).toBe(204);
    expect((await callAs(server, p, 'DELETE', sub(SubAccountPaths.subTenant, c1))).status).toBe(204);
    expect((await callAs(server, p, 'GET', SubAccountPaths.tree)).body.children).toEqual([]);
    expect((await auditsOf(server, p.tenantId)).filter((a) => a.action === 'Sub-account deleted')).toHaveLength(3);
  });

  it('creates with a chosen tenant id (format checked, 409 when taken), pages the tree by 50 with loadMoreLink, counts users and searches by name prefix', async () => {
    const server = await start();
    const p = await tenantWithAdmin(server, 'parent');
    const chosen = await createAccount(server, p, { name: 'Acme EU', tenantId: 'acme-eu', tenantType: 'reseller' });
    expect(chosen).toBe('acme-eu');
    const taken = await callAs(server, p, 'POST', SubAccountPaths.subTenants, { body: { name: 'Other', tenantId: 'acme-eu' } });
    expect([taken.status, taken.body.errorCode, taken.body.errors]).toEqual([409, 'ER-02451', ['An account with tenant id acme-eu already exists']]);
    expect((await callAs(server, p, 'POST', SubAccountPaths.subTenants, { body: { name: 'Bad', tenantId: '../x' } })).status).toBe(400);
    expect((await callAs(server, p, 'POST', SubAccountPaths.subTenants, { body: { name: 'Bad', tenantId: p.tenantId } })).status).toBe(409);
    for (const name of ['Acme US', 'Beta', 'acme 100%']) await createAccount(server, p, { name });
    const first = await callAs(server, p, 'GET', `${SubAccountPaths.tree}?_limit=3`);
    expect(first.body).toMatchObject({ tenantId: p.tenantId, numberOfUsers: 1, numberOfSubAccounts: 4 });
    expect(first.body.children.map((c: { name: string }) => c.name)).toEqual(['Acme EU', 'Acme US', 'Beta']);
    expect(first.body.children[0]).toMatchObject({ tenantId: 'acme-eu', numberOfUsers: 0, numberOfSubAccounts: 0, isReseller: false, tenantType: 'reseller', subAccountAccessType: 'defaultOn', parentTenantId: p.tenantId });
    const second = await callAs(server, p, 'GET', first.body.loadMoreLink);
    expect(second.body.children.map((c: { name: string }) => c.name)).toEqual(['acme 100%']);
    expect(second.body.loadMoreLink).toBeNull();
    expect((await callAs(server, p, 'GET', `${SubAccountPaths.tree}?_limit=51`)).status).toBe(400);
    const search = await callAs(server, p, 'GET', `${SubAccountPaths.search}?_filter=ACME`);
    expect(search.body.items.map((c: { name: string }) => c.name)).toEqual(['acme 100%', 'Acme EU', 'Acme US'].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect((await callAs(server, p, 'GET', `${SubAccountPaths.search}?_filter=${encodeURIComponent('acme 100%')}`)).body.items.map((c: { name: string }) => c.name)).toEqual(['acme 100%']);
    expect((await callAs(server, p, 'GET', `${SubAccountPaths.search}?_filter=${encodeURIComponent('%')}`)).body.items).toEqual([]);
    const member = await inviteMember(server, p);
    await callAs(server, p, 'POST', sub(SubAccountPaths.users, 'acme-eu'), { body: { userIds: [member.userId] } });
    expect((await callAs(server, p, 'POST', SubAccountPaths.usersCount, { body: { tenantIds: ['acme-eu', 'nope'] } })).body.items).toEqual([{ tenantId: 'acme-eu', numberOfUsers: 1 }]);
    const again = await callAs(server, p, 'POST', sub(SubAccountPaths.users, 'acme-eu'), { body: { userIds: [member.userId] } });
    expect([again.status, again.body.errorCode]).toEqual([409, 'ER-02455']);
    expect((await callAs(server, p, 'PUT', sub(SubAccountPaths.management, 'acme-eu'), { body: { isReseller: true } })).body.isReseller).toBe(true);
    const selected = await callAs(server, p, 'GET', sub(SubAccountPaths.subTenant, 'acme-eu'));
    expect(selected.body).toMatchObject({ tenantId: 'acme-eu', isReseller: true, numberOfUsers: 1, parentsAccounts: [{ tenantId: p.tenantId, name: expect.any(String) }] });
    expect((await callAs(server, p, 'DELETE', sub(SubAccountPaths.user, 'acme-eu', member.userId))).status).toBe(204);
    expect((await callAs(server, p, 'GET', sub(SubAccountPaths.users, 'acme-eu'))).body._metadata.totalItems).toBe(0);
  });

  it('answers 403 without the permission and keeps API tokens in their own tenant', async () => {
    const server = await start();
    const { p, c1 } = await hierarchy(server);
    const plain = await memberWithoutPermissions(server, p.tenantId);
    expect((await callAs(server, plain, 'GET', SubAccountPaths.tree, { tenantId: p.tenantId })).status).toBe(403);
    expect((await callAs(server, plain, 'GET', AdminPaths.usersV3, { tenantId: c1 })).status).toBe(404);
    const token = await callAs(server, p, 'POST', ApiTokenPaths.tenantAccessTokens, { body: { description: 'hierarchy', roleIds: [await roleIdByKey(server, p, 'Admin')] } });
    expect(token.status).toBe(201);
    const bearer = { accessToken: token.body.secret as string };
    // Tokens see their own tenant only: no children in the tree, nothing found by search.
    expect((await callAs(server, bearer, 'GET', SubAccountPaths.tree)).body.children).toEqual([]);
    expect((await callAs(server, bearer, 'GET', `${SubAccountPaths.search}?_filter=Child`)).body.items).toEqual([]);
    expect((await callAs(server, bearer, 'GET', AdminPaths.usersV3, { tenantId: c1 })).status).toBe(404);
    expect((await callAs(server, bearer, 'GET', sub(SubAccountPaths.users, c1))).status).toBe(404);
  });
});
