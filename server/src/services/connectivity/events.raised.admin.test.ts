/**
 * Events raised by admins' changes to users, roles, groups, API tokens and sub-accounts (issue 16),
 * each made over HTTP and found as an event row with the catalogue's data and the acting admin.
 * Membership and role events carry the ids added and removed (logto#8263, logto#7961).
 */
import { AdminPaths, ApiTokenPaths, SubAccountPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { recordAudit } from '../admin/audit-log';
import { activeMember, callAs, inviteMember, pathOf, roleIdByKey, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { countEvents, eventsOf, onlyEvent } from '../../test/event-helpers';
import { describeDialects, uniqueEmail } from '../../test/harness';

const ROOMY = { RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600' };
const actorOf = (admin: TenantAdmin) => ({ userId: admin.userId, email: admin.email });

describeDialects('events raised by admin changes', (h) => {
  it("a user's roles, disable, enable, lock, unlock and removal raise user.roles_updated (ids added and removed), user.disabled, user.enabled, user.locked (admin), user.unlocked and user.deleted", async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const member = await activeMember(server, admin);
    const readOnly = await roleIdByKey(server, admin, 'ReadOnly');
    const support = await roleIdByKey(server, admin, 'Support');
    const who = { userId: member.userId, email: member.email };
    const held = (await server.db.selectFrom('user_roles').select('role_id').where('tenant_id', '=', admin.tenantId).where('user_id', '=', member.userId).execute()).map((r) => r.role_id);

    expect((await callAs(server, admin, 'PUT', AdminPaths.teamMembers, { body: { id: member.userId, roleIds: [readOnly, support] } })).status).toBe(200);
    const first = await onlyEvent(server, admin.tenantId, 'user.roles_updated');
    expect(first.actor).toEqual(actorOf(admin));
    expect(first.data).toMatchObject(who);
    expect((first.data.addedRoleIds as string[]).sort()).toEqual([readOnly, support].filter((id) => !held.includes(id)).sort());
    expect((first.data.removedRoleIds as string[]).sort()).toEqual(held.filter((id) => id !== readOnly && id !== support).sort());
    expect((await callAs(server, admin, 'PUT', AdminPaths.teamMembers, { body: { id: member.userId, roleIds: [support] } })).status).toBe(200);
    expect((await eventsOf(server, admin.tenantId, 'user.roles_updated'))[1]!.data).toEqual({ ...who, addedRoleIds: [], removedRoleIds: [readOnly] });
    // Setting the same roles again changes nothing and raises nothing.
    await callAs(server, admin, 'PUT', AdminPaths.teamMembers, { body: { id: member.userId, roleIds: [support] } });
    expect(await countEvents(server, admin.tenantId, 'user.roles_updated')).toBe(2);

    for (const [action, key] of [
      ['disable', 'user.disabled'],
      ['enable', 'user.enabled'],
      ['lock', 'user.locked'],
      ['unlock', 'user.unlocked'],
    ] as const) {
      const path = pathOf(AdminPaths[`tenantUser${action[0]!.toUpperCase()}${action.slice(1)}` as 'tenantUserDisable'], { userId: member.userId });
      expect((await callAs(server, admin, 'POST', path)).status).toBe(200);
      const event = await onlyEvent(server, admin.tenantId, key);
      expect(event).toMatchObject({ data: key === 'user.locked' ? { ...who, reason: 'admin' } : who, actor: actorOf(admin) });
    }

    expect((await callAs(server, admin, 'DELETE', pathOf(AdminPaths.teamMember, { userId: member.userId }))).status).toBe(204);
    // The account went with its last membership: the event still names its address.
    expect(await onlyEvent(server, admin.tenantId, 'user.deleted')).toMatchObject({ data: who, actor: actorOf(admin) });
  });

  it('a bulk invite raises user.invited for each address invited, with the roles granted', async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const readOnly = await roleIdByKey(server, admin, 'ReadOnly');
    const emails = [uniqueEmail('bulk'), uniqueEmail('bulk')];
    const res = await callAs(server, admin, 'POST', AdminPaths.bulkInvite, { body: { emails: [...emails, 'not an address'], roleIds: [readOnly] } });
    expect(res.status).toBe(200);
    const invited = await eventsOf(server, admin.tenantId, 'user.invited');
    expect(invited.map((e) => e.data.email).sort()).toEqual([...emails].sort());
    expect(invited.every((e) => JSON.stringify(e.data.roleIds) === JSON.stringify([readOnly]) && e.actor?.userId === admin.userId)).toBe(true);
  });

  it('roles: create, update, permissions and delete raise role.created, role.updated (fields) and role.deleted', async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const created = await callAs(server, admin, 'POST', AdminPaths.rolesV1, { body: { key: 'auditor', name: 'Auditor' } });
    expect(created.status).toBe(201);
    const roleId = created.body.id as string;
    expect(await onlyEvent(server, admin.tenantId, 'role.created')).toMatchObject({ data: { roleId, key: 'auditor', name: 'Auditor' }, actor: actorOf(admin) });
    expect((await callAs(server, admin, 'PATCH', pathOf(AdminPaths.role, { roleId }), { body: { name: 'Auditors', description: 'Reads' } })).status).toBe(200);
    const updated = await onlyEvent(server, admin.tenantId, 'role.updated');
    expect(updated.data).toMatchObject({ roleId, key: 'auditor', name: 'Auditors' });
    expect((updated.data.changedFields as string[]).sort()).toEqual(['description', 'name']);
    const permissions = (await callAs(server, admin, 'GET', AdminPaths.permissions)).body as { id: string }[];
    expect((await callAs(server, admin, 'PUT', pathOf(AdminPaths.rolePermissions, { roleId }), { body: { permissionIds: [permissions[0]!.id] } })).status).toBe(200);
    expect((await eventsOf(server, admin.tenantId, 'role.updated'))[1]!.data).toEqual({ roleId, key: 'auditor', name: 'Auditors', changedFields: ['permissions'] });
    expect((await callAs(server, admin, 'DELETE', pathOf(AdminPaths.role, { roleId }))).status).toBe(204);
    expect(await onlyEvent(server, admin.tenantId, 'role.deleted')).toMatchObject({ data: { roleId, key: 'auditor', name: 'Auditors' }, actor: actorOf(admin) });
  });

  it('groups: create, update, users and roles added and removed, delete raise the group events with the ids added and removed', async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const { userId } = await inviteMember(server, admin);
    const readOnly = await roleIdByKey(server, admin, 'ReadOnly');
    const created = await callAs(server, admin, 'POST', AdminPaths.groups, { body: { name: 'Support' } });
    expect(created.status).toBe(201);
    const groupId = created.body.id as string;
    const group = pathOf(AdminPaths.group, { groupId });
    expect(await onlyEvent(server, admin.tenantId, 'group.created')).toMatchObject({ data: { groupId, name: 'Support' }, actor: actorOf(admin) });
    expect((await callAs(server, admin, 'PATCH', group, { body: { color: '#112233' } })).status).toBe(200);
    expect((await onlyEvent(server, admin.tenantId, 'group.updated')).data).toEqual({ groupId, name: 'Support', changedFields: ['color'] });

    expect((await callAs(server, admin, 'POST', pathOf(AdminPaths.groupUsers, { groupId }), { body: { userIds: [userId] } })).status).toBe(200);
    expect((await callAs(server, admin, 'DELETE', pathOf(AdminPaths.groupUsers, { groupId }), { body: { userIds: [userId] } })).status).toBe(200);
    expect((await eventsOf(server, admin.tenantId, 'group.users_updated')).map((e) => e.data)).toEqual([
      { groupId, addedUserIds: [userId], removedUserIds: [] },
      { groupId, addedUserIds: [], removedUserIds: [userId] },
    ]);
    expect((await callAs(server, admin, 'POST', pathOf(AdminPaths.groupRoles, { groupId }), { body: { roleIds: [readOnly] } })).status).toBe(200);
    expect((await callAs(server, admin, 'DELETE', pathOf(AdminPaths.groupRoles, { groupId }), { body: { roleIds: [readOnly] } })).status).toBe(200);
    expect((await eventsOf(server, admin.tenantId, 'group.roles_updated')).map((e) => e.data)).toEqual([
      { groupId, addedRoleIds: [readOnly], removedRoleIds: [] },
      { groupId, addedRoleIds: [], removedRoleIds: [readOnly] },
    ]);
    expect((await callAs(server, admin, 'DELETE', group)).status).toBe(204);
    expect(await onlyEvent(server, admin.tenantId, 'group.deleted')).toMatchObject({ data: { groupId, name: 'Support' }, actor: actorOf(admin) });
  });

  it('API tokens: creating and deleting raise api_token.created and api_token.deleted, never the secret', async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const created = await callAs(server, admin, 'POST', ApiTokenPaths.tenantApiTokens, { body: { description: 'CI deploys', roleIds: [] } });
    expect(created.status).toBe(201);
    const tokenId = created.body.id as string;
    const event = await onlyEvent(server, admin.tenantId, 'api_token.created');
    expect(event).toMatchObject({ data: { tokenId, type: 'tenant', description: 'CI deploys' }, actor: actorOf(admin) });
    expect(JSON.stringify(await eventsOf(server, admin.tenantId))).not.toContain(created.body.secret);
    expect((await callAs(server, admin, 'DELETE', pathOf(ApiTokenPaths.tenantApiToken, { tokenId }))).status).toBe(204);
    expect((await onlyEvent(server, admin.tenantId, 'api_token.deleted')).data).toEqual({ tokenId, type: 'tenant' });
  });

  it('sub-accounts: create, rename, settings and delete raise sub_account.created, .updated and .deleted in the parent', async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const created = await callAs(server, admin, 'POST', SubAccountPaths.subTenants, { body: { name: 'Acme EU' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const subAccountId = created.body.tenantId as string;
    expect(await onlyEvent(server, admin.tenantId, 'sub_account.created')).toMatchObject({ data: { subAccountId, name: 'Acme EU', parentTenantId: admin.tenantId }, actor: actorOf(admin) });
    const sub = (template: string) => pathOf(template, { subTenantId: subAccountId });
    expect((await callAs(server, admin, 'PATCH', sub(SubAccountPaths.subTenant), { body: { name: 'Acme Europe' } })).status).toBe(200);
    expect((await callAs(server, admin, 'PUT', sub(SubAccountPaths.hierarchySettings), { body: { subAccountAccessType: 'alwaysOn' } })).status).toBe(200);
    expect((await eventsOf(server, admin.tenantId, 'sub_account.updated')).map((e) => e.data)).toEqual([
      { subAccountId, name: 'Acme Europe', changedFields: ['name'] },
      { subAccountId, name: 'Acme Europe', changedFields: ['subAccountAccessType'] },
    ]);
    expect((await callAs(server, admin, 'DELETE', sub(SubAccountPaths.subTenant))).status).toBe(204);
    expect(await onlyEvent(server, admin.tenantId, 'sub_account.deleted')).toMatchObject({ data: { subAccountId, name: 'Acme Europe' }, actor: actorOf(admin) });
  });

  it('a change whose transaction rolls back after its audit record raises nothing (nor keeps the record)', async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const before = (await eventsOf(server, admin.tenantId)).length;
    const actor = { tenantId: admin.tenantId, userId: admin.userId, email: admin.email, ip: null, userAgent: null };
    await expect(
      server.db.transaction().execute(async (trx) => {
        await recordAudit(trx, actor, { action: 'Group created', description: 'Group Doomed created', json: { groupId: 'doomed-group', name: 'Doomed' } }, Date.now());
        // The same audit outside a failing change would raise group.created: inside it, it must not.
        expect((await trx.selectFrom('events').select('event_key').where('tenant_id', '=', admin.tenantId).execute()).length).toBe(before + 1);
        throw new Error('the change failed after its audit record');
      }),
    ).rejects.toThrow('the change failed');
    expect((await eventsOf(server, admin.tenantId)).length).toBe(before);
    expect(await server.db.selectFrom('audits').select('id').where('tenant_id', '=', admin.tenantId).where('description', '=', 'Group Doomed created').execute()).toEqual([]);
  });
});
