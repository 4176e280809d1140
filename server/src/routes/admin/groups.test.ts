import { AdminPaths, Permissions } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { findPermissionByKey } from '../../db/queries/admin-roles';
import { activeMember, auditsOf, callAs, inviteMember, pathOf, roleIdByKey, signIn, tenantWithAdmin } from '../../test/admin-helpers';
import { claimsOf } from '../../test/invitation-helpers';
import { describeDialects } from '../../test/harness';

describeDialects('admin groups', (harness) => {
  const h = { start: () => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' }) };

  it('creates, reads, updates and deletes a group with name, description, color and metadata', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const created = await callAs(server, admin, 'POST', AdminPaths.groups, { body: { name: 'Support desk', description: 'First line', color: '#3366ff', metadata: '{"floor":2}' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Support desk', description: 'First line', color: '#3366ff', metadata: '{"floor":2}', managedBy: null, roles: [], users: [] });
    expect((await callAs(server, admin, 'POST', AdminPaths.groups, { body: { name: 'Support desk' } })).body.errorCode).toBe('ER-02404');
    expect((await callAs(server, admin, 'POST', AdminPaths.groups, { body: { name: 'Bad color', color: 'blue' } })).status).toBe(400);
    expect((await callAs(server, admin, 'POST', AdminPaths.groups, { body: { name: '' } })).status).toBe(400);

    const id = created.body.id as string;
    const updated = await callAs(server, admin, 'PATCH', pathOf(AdminPaths.group, { groupId: id }), { body: { name: 'Desk', color: null, description: null } });
    expect(updated.body).toMatchObject({ name: 'Desk', color: null, description: null });
    expect((await callAs(server, admin, 'GET', pathOf(AdminPaths.group, { groupId: id }))).body.name).toBe('Desk');
    expect((await callAs(server, admin, 'DELETE', pathOf(AdminPaths.group, { groupId: id }))).status).toBe(204);
    expect((await callAs(server, admin, 'GET', pathOf(AdminPaths.group, { groupId: id }))).status).toBe(404);
    expect((await auditsOf(server, admin.tenantId)).map((a) => a.action)).toEqual(expect.arrayContaining(['Group created', 'Group updated', 'Group deleted']));
  });

  it("gives a group's members its roles, and takes them away with the role or the membership", async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const member = await activeMember(server, admin);
    await callAs(server, admin, 'PUT', AdminPaths.teamMembers, { body: { id: member.userId, roleIds: [''] } });
    const support = await roleIdByKey(server, admin, 'Support');
    const group = await callAs(server, admin, 'POST', AdminPaths.groups, { body: { name: 'Helpers', roleIds: [support] } });
    expect(group.body.roles.map((r: { key: string }) => r.key)).toEqual(['Support']);

    const added = await callAs(server, admin, 'POST', pathOf(AdminPaths.groupUsers, { groupId: group.body.id }), { body: { userIds: [member.userId] } });
    expect(added.body.users).toEqual([{ id: member.userId, name: expect.any(String), email: member.email }]);
    const withGroup = claimsOf((await signIn(server, member.email)).body.accessToken);
    expect(withGroup.roles).toEqual(['Support']);
    expect(withGroup.permissions).toContain(Permissions.usersWrite);

    await callAs(server, admin, 'DELETE', pathOf(AdminPaths.groupRoles, { groupId: group.body.id }), { body: { roleIds: [support] } });
    expect(claimsOf((await signIn(server, member.email)).body.accessToken).roles).toEqual([]);
    await callAs(server, admin, 'POST', pathOf(AdminPaths.groupRoles, { groupId: group.body.id }), { body: { roleIds: [support] } });
    expect(claimsOf((await signIn(server, member.email)).body.accessToken).roles).toEqual(['Support']);
    const removed = await callAs(server, admin, 'DELETE', pathOf(AdminPaths.groupUsers, { groupId: group.body.id }), { body: { userIds: [member.userId] } });
    expect(removed.body.users).toEqual([]);
    expect(claimsOf((await signIn(server, member.email)).body.accessToken).roles).toEqual([]);
  });

  it('lists groups with the relations asked for, and bulk-gets them by id', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const member = await inviteMember(server, admin);
    const a = await callAs(server, admin, 'POST', AdminPaths.groups, { body: { name: 'A', roleIds: [await roleIdByKey(server, admin, 'ReadOnly')] } });
    const b = await callAs(server, admin, 'POST', AdminPaths.groups, { body: { name: 'B' } });
    await callAs(server, admin, 'POST', pathOf(AdminPaths.groupUsers, { groupId: a.body.id }), { body: { userIds: [member.userId] } });
    const bare = (await callAs(server, admin, 'GET', AdminPaths.groups)).body.groups;
    expect(bare.map((g: { name: string; roles: unknown[]; users: unknown[] }) => [g.name, g.roles.length, g.users.length])).toEqual([['A', 0, 0], ['B', 0, 0]]);
    const rolesOnly = (await callAs(server, admin, 'GET', `${AdminPaths.groups}?_groupsRelations=roles`)).body.groups;
    expect(rolesOnly.map((g: { roles: unknown[]; users: unknown[] }) => [g.roles.length, g.users.length])).toEqual([[1, 0], [0, 0]]);
    const both = (await callAs(server, admin, 'GET', `${AdminPaths.groups}?_groupsRelations=rolesAndUsers`)).body.groups;
    expect(both[0].users.map((u: { id: string }) => u.id)).toEqual([member.userId]);
    const bulk = await callAs(server, admin, 'POST', AdminPaths.groupsBulkGet, { body: { groupsIds: [b.body.id, 'unknown'] } });
    expect(bulk.body.groups.map((g: { id: string }) => g.id)).toEqual([b.body.id]);
  });

  it('keeps a group managed by an identity provider read-only', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const group = await callAs(server, admin, 'POST', AdminPaths.groups, { body: { name: 'Synced' } });
    await server.db.updateTable('groups').set({ managed_by: 'scim2' }).where('id', '=', group.body.id).execute();
    for (const [method, path, body] of [
      ['PATCH', AdminPaths.group, { name: 'Renamed' }],
      ['DELETE', AdminPaths.group, undefined],
      ['POST', AdminPaths.groupRoles, { roleIds: [await roleIdByKey(server, admin, 'ReadOnly')] }],
      ['POST', AdminPaths.groupUsers, { userIds: [admin.userId] }],
    ] as const) {
      const res = await callAs(server, admin, method, pathOf(path, { groupId: group.body.id }), body ? { body } : {});
      expect([res.status, res.body.errorCode], `${method} ${path}`).toEqual([403, 'ER-02405']);
    }
    expect((await callAs(server, admin, 'GET', pathOf(AdminPaths.group, { groupId: group.body.id }))).body).toMatchObject({ name: 'Synced', managedBy: 'scim2' });
  });

  it("refuses group changes that would grant or take away roles beyond the caller's permissions", async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const groupsWrite = (await findPermissionByKey(server.db, Permissions.groupsWrite))!.id;
    const groupsRead = (await findPermissionByKey(server.db, Permissions.groupsRead))!.id;
    const role = await callAs(server, admin, 'POST', AdminPaths.rolesV2, { body: { key: 'GroupManager', name: 'Group manager', permissionIds: [groupsRead, groupsWrite] } });
    const manager = await activeMember(server, admin, { roleIds: [role.body.id] });
    const member = await inviteMember(server, admin);
    const adminRole = await roleIdByKey(server, admin, 'Admin');
    expect((await callAs(server, manager, 'POST', AdminPaths.groups, { body: { name: 'Powerful', roleIds: [adminRole] } })).status).toBe(403);
    const powerful = await callAs(server, admin, 'POST', AdminPaths.groups, { body: { name: 'Powerful', roleIds: [adminRole] } });
    const join = await callAs(server, manager, 'POST', pathOf(AdminPaths.groupUsers, { groupId: powerful.body.id }), { body: { userIds: [member.userId] } });
    expect([join.status, join.body.errorCode]).toEqual([403, 'ER-01105']);
    expect((await callAs(server, manager, 'DELETE', pathOf(AdminPaths.group, { groupId: powerful.body.id }))).status).toBe(403);
    const plain = await callAs(server, manager, 'POST', AdminPaths.groups, { body: { name: 'Plain' } });
    expect((await callAs(server, manager, 'POST', pathOf(AdminPaths.groupUsers, { groupId: plain.body.id }), { body: { userIds: [member.userId] } })).status).toBe(200);
  });

  it('L4 (security review): an admin cannot demote a more privileged admin through a group, nor change their own memberships', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const groupsWrite = (await findPermissionByKey(server.db, Permissions.groupsWrite))!.id;
    const groupsRead = (await findPermissionByKey(server.db, Permissions.groupsRead))!.id;
    const readOnly = await roleIdByKey(server, admin, 'ReadOnly');
    const manager = await callAs(server, admin, 'POST', AdminPaths.rolesV2, { body: { key: 'GroupKeeper', name: 'Group keeper', permissionIds: [groupsRead, groupsWrite] } });
    const x = await activeMember(server, admin, { roleIds: [manager.body.id, readOnly] });
    const superior = await inviteMember(server, admin, { roleIds: [await roleIdByKey(server, admin, 'Admin')] });
    const peer = await inviteMember(server, admin, { roleIds: [readOnly] });
    const group = await callAs(server, admin, 'POST', AdminPaths.groups, { body: { name: 'Readers', roleIds: [readOnly] } });
    const groupId = group.body.id as string;
    await callAs(server, admin, 'POST', pathOf(AdminPaths.groupUsers, { groupId }), { body: { userIds: [superior.userId, peer.userId] } });

    const outcome = async (method: string, path: string, body?: unknown) => {
      const res = await callAs(server, x, method, pathOf(path, { groupId }), body ? { body } : {});
      return [res.status, res.body?.errorCode];
    };
    expect(await outcome('DELETE', AdminPaths.groupUsers, { userIds: [superior.userId] })).toEqual([403, 'ER-02402']);
    expect(await outcome('DELETE', AdminPaths.groupRoles, { roleIds: [readOnly] })).toEqual([403, 'ER-02402']);
    expect(await outcome('DELETE', AdminPaths.group)).toEqual([403, 'ER-02402']);
    expect(await outcome('POST', AdminPaths.groupUsers, { userIds: [x.userId] })).toEqual([400, 'ER-02401']);
    const after = await callAs(server, admin, 'GET', pathOf(AdminPaths.group, { groupId }));
    expect(after.body.users.map((u: { id: string }) => u.id)).toContain(superior.userId);
    expect(after.body.roles.map((r: { id: string }) => r.id)).toEqual([readOnly]);
    // A user no higher than the caller can still be taken out.
    expect(await outcome('DELETE', AdminPaths.groupUsers, { userIds: [peer.userId] })).toEqual([200, undefined]);
  });
});
