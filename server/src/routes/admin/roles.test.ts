import { AdminPaths, ApiPaths, Permissions } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { findPermissionByKey } from '../../db/queries/admin-roles';
import { activeMember, auditsOf, callAs, inviteMember, pathOf, roleIdByKey, signIn, superUser, tenantWithAdmin } from '../../test/admin-helpers';
import { claimsOf } from '../../test/invitation-helpers';
import { describeDialects } from '../../test/harness';

describeDialects('admin roles and permissions', (harness) => {
  const h = { start: () => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' }) };
  const permissionId = async (server: Awaited<ReturnType<typeof h.start>>, key: string) => (await findPermissionByKey(server.db, key))!.id;

  it('lists the built-in roles of a new tenant (Admin, ReadOnly default, Support) with their permissions', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const res = await callAs(server, admin, 'GET', AdminPaths.rolesV1);
    expect(res.body.map((r: { key: string; isDefault: boolean; userCount: number }) => [r.key, r.isDefault, r.userCount])).toEqual([
      ['Admin', false, 1],
      ['ReadOnly', true, 0],
      ['Support', false, 0],
    ]);
    const all = (await callAs(server, admin, 'GET', AdminPaths.permissions)).body as { id: string; key: string }[];
    const adminRole = res.body.find((r: { key: string }) => r.key === 'Admin');
    expect(adminRole.permissions.length).toBe(all.filter((p) => p.key !== Permissions.impersonate).length);
    const team = await callAs(server, admin, 'GET', AdminPaths.teamRoles);
    expect(team.body.roles).toHaveLength(3);
    expect(team.body.permissions.length).toBe(all.length);
  });

  it('creates roles with v1 and v2, refuses a taken key or a bad key, updates and deletes them', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const v1 = await callAs(server, admin, 'POST', AdminPaths.rolesV1, { body: { key: 'Auditor', name: 'Auditor', description: 'Reads audits' } });
    expect(v1.status).toBe(201);
    expect(v1.body).toMatchObject({ key: 'Auditor', permissions: [], isDefault: false, tenantId: admin.tenantId });
    const audits = await permissionId(server, Permissions.auditsRead);
    const v2 = await callAs(server, admin, 'POST', AdminPaths.rolesV2, { body: { key: 'Auditor2', name: 'Auditor 2', permissionIds: [audits] } });
    expect(v2.body.permissions).toEqual([audits]);
    expect((await callAs(server, admin, 'POST', AdminPaths.rolesV1, { body: { key: 'Auditor', name: 'Again' } })).body.errorCode).toBe('ER-02403');
    expect((await callAs(server, admin, 'POST', AdminPaths.rolesV1, { body: { key: 'has space', name: 'x' } })).status).toBe(400);
    expect((await callAs(server, admin, 'POST', AdminPaths.rolesV2, { body: { key: 'Ghost', name: 'x', permissionIds: ['nope'] } })).status).toBe(400);

    const updated = await callAs(server, admin, 'PATCH', pathOf(AdminPaths.role, { roleId: v1.body.id }), { body: { name: 'Audit reader', description: null } });
    expect(updated.body).toMatchObject({ name: 'Audit reader', description: null, key: 'Auditor' });
    expect((await callAs(server, admin, 'PATCH', pathOf(AdminPaths.role, { roleId: v1.body.id }), { body: { key: 'Auditor2' } })).status).toBe(409);
    expect((await callAs(server, admin, 'DELETE', pathOf(AdminPaths.role, { roleId: v1.body.id }))).status).toBe(204);
    expect((await callAs(server, admin, 'DELETE', pathOf(AdminPaths.role, { roleId: v1.body.id }))).status).toBe(404);
    expect((await auditsOf(server, admin.tenantId)).map((a) => a.action)).toEqual(expect.arrayContaining(['Role created', 'Role updated', 'Role deleted']));
  });

  it('keeps one default role per tenant, and invitations without roles grant it', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const support = await roleIdByKey(server, admin, 'Support');
    const made = await callAs(server, admin, 'PATCH', pathOf(AdminPaths.role, { roleId: support }), { body: { isDefault: true } });
    expect(made.body.isDefault).toBe(true);
    const roles = (await callAs(server, admin, 'GET', AdminPaths.rolesV1)).body as { key: string; isDefault: boolean }[];
    expect(roles.filter((r) => r.isDefault).map((r) => r.key)).toEqual(['Support']);
    const invited = await inviteMember(server, admin);
    const listed = await callAs(server, admin, 'GET', `${AdminPaths.usersRolesV3}?ids=${invited.userId}`);
    expect(listed.body[0].roles.map((r: { key: string }) => r.key)).toEqual(['Support']);
  });

  it("sets a role's permissions, adds one permission to many roles, and the holders' tokens follow", async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const role = await callAs(server, admin, 'POST', AdminPaths.rolesV1, { body: { key: 'Helper', name: 'Helper' } });
    const member = await activeMember(server, admin, { roleIds: [role.body.id] });
    expect(claimsOf(member.accessToken).permissions).toEqual([]);
    const [usersRead, groupsRead] = [await permissionId(server, Permissions.usersRead), await permissionId(server, Permissions.groupsRead)];
    const set = await callAs(server, admin, 'PUT', pathOf(AdminPaths.rolePermissions, { roleId: role.body.id }), { body: { permissionIds: [usersRead] } });
    expect(set.body.permissions).toEqual([usersRead]);
    const readOnly = await roleIdByKey(server, admin, 'ReadOnly');
    const attached = await callAs(server, admin, 'PUT', pathOf(AdminPaths.permissionRoles, { permissionId: groupsRead }), { body: { roleIds: [role.body.id, readOnly] } });
    expect(attached.status).toBe(200);
    expect(attached.body.every((r: { permissions: string[] }) => r.permissions.includes(groupsRead))).toBe(true);
    expect(claimsOf((await signIn(server, member.email)).body.accessToken).permissions.sort()).toEqual([Permissions.groupsRead, Permissions.usersRead].sort());
    expect((await callAs(server, member, 'GET', AdminPaths.teamMembers)).status).toBe(200);

    await callAs(server, admin, 'DELETE', pathOf(AdminPaths.role, { roleId: role.body.id }));
    expect(claimsOf((await signIn(server, member.email)).body.accessToken).permissions).toEqual([]);
  });

  it('lets nobody mint or change a role beyond their own permissions', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const managerRole = await callAs(server, admin, 'POST', AdminPaths.rolesV2, {
      body: { key: 'RoleManager', name: 'Role manager', permissionIds: [await permissionId(server, Permissions.rolesRead), await permissionId(server, Permissions.rolesWrite)] },
    });
    const manager = await activeMember(server, admin, { roleIds: [managerRole.body.id] });
    const usersWrite = await permissionId(server, Permissions.usersWrite);
    const beyond = await callAs(server, manager, 'POST', AdminPaths.rolesV2, { body: { key: 'Sneaky', name: 'Sneaky', permissionIds: [usersWrite] } });
    expect([beyond.status, beyond.body.errorCode, beyond.body.errorContext]).toEqual([403, 'ER-01105', { permissions: [Permissions.usersWrite] }]);
    expect((await callAs(server, manager, 'POST', AdminPaths.rolesV2, { body: { key: 'Viewer', name: 'Viewer', permissionIds: [await permissionId(server, Permissions.rolesRead)] } })).status).toBe(201);
    const adminRole = await roleIdByKey(server, admin, 'Admin');
    expect((await callAs(server, manager, 'PATCH', pathOf(AdminPaths.role, { roleId: adminRole }), { body: { name: 'Mine now' } })).status).toBe(403);
    expect((await callAs(server, manager, 'DELETE', pathOf(AdminPaths.role, { roleId: adminRole }))).status).toBe(403);
    expect((await callAs(server, manager, 'PUT', pathOf(AdminPaths.permissionRoles, { permissionId: usersWrite }), { body: { roleIds: [managerRole.body.id] } })).status).toBe(403);
    expect((await callAs(server, manager, 'PUT', pathOf(AdminPaths.rolePermissions, { roleId: managerRole.body.id }), { body: { permissionIds: [usersWrite] } })).status).toBe(403);
  });

  it('lets only super users change the shared catalogue; built-in permissions stay, a category with permissions stays', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const root = await superUser(server);
    const refused = await callAs(server, admin, 'POST', AdminPaths.permissions, { body: { key: 'reports.read', name: 'Read reports' } });
    expect([refused.status, refused.body.errors]).toEqual([403, ['Only super users can change the permission catalogue, which every account shares']]);

    const categories = (await callAs(server, admin, 'GET', AdminPaths.permissionCategories)).body as { id: string; name: string; permissionIds: string[] }[];
    expect(categories.find((c) => c.id === 'secure')).toMatchObject({ name: 'Secure' });
    const category = await callAs(server, root, 'POST', AdminPaths.permissionCategories, { body: { name: 'Reports' } });
    const created = await callAs(server, root, 'POST', AdminPaths.permissions, { body: { key: 'reports.read', name: 'Read reports', categoryId: category.body.id } });
    expect(created.body).toMatchObject({ key: 'reports.read', categoryId: category.body.id });
    expect((await callAs(server, root, 'POST', AdminPaths.permissions, { body: { key: 'reports.read', name: 'Again' } })).status).toBe(409);
    expect((await callAs(server, root, 'POST', AdminPaths.permissions, { body: { key: 'x.y', name: 'x', categoryId: 'nope' } })).status).toBe(400);
    expect((await callAs(server, root, 'PATCH', pathOf(AdminPaths.permission, { permissionId: created.body.id }), { body: { name: 'Reports: read' } })).body.name).toBe('Reports: read');
    expect((await callAs(server, root, 'DELETE', pathOf(AdminPaths.permissionCategory, { categoryId: category.body.id }))).body.errorCode).toBe('ER-02410');
    const builtIn = await callAs(server, root, 'DELETE', pathOf(AdminPaths.permission, { permissionId: await permissionId(server, Permissions.usersRead) }));
    expect([builtIn.status, builtIn.body.errorCode]).toEqual([400, 'ER-02406']);
    expect((await callAs(server, root, 'DELETE', pathOf(AdminPaths.permission, { permissionId: created.body.id }))).status).toBe(204);
    expect((await callAs(server, root, 'PATCH', pathOf(AdminPaths.permissionCategory, { categoryId: category.body.id }), { body: { description: 'Report access' } })).body.description).toBe('Report access');
    expect((await callAs(server, root, 'DELETE', pathOf(AdminPaths.permissionCategory, { categoryId: category.body.id }))).status).toBe(204);
    expect((await callAs(server, root, 'DELETE', pathOf(AdminPaths.permissionCategory, { categoryId: category.body.id }))).status).toBe(404);
    expect((await callAs(server, admin, 'GET', ApiPaths.me)).status).toBe(200);
  });
});
