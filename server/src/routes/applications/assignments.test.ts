/** Applications for a tenant's admins (issue 15, seed 001 section 7): reading and assigning, per tenant, audited. */
import { AdminErrorCodes, AdminPaths, ApplicationPaths } from '@gatehouse/shared/wire';
import { findPermissionByKey } from '../../db/queries/admin-roles';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { activeMember, auditsOf, callAs, inviteMember, pathOf, roleIdByKey, superUser, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';

/** Two applications of the vendor, made by an operator. */
async function vendorApps(server: GatehouseServer): Promise<{ free: string; managed: string }> {
  const root = await superUser(server);
  const add = async (name: string, accessType: string) => {
    const res = await callAs(server, root, 'POST', ApplicationPaths.applications, { body: { name, url: `https://${name.toLowerCase()}.example.com`, accessType } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  return { free: await add('Wiki', 'FREE_ACCESS'), managed: await add('Payroll', 'MANAGED_ACCESS') };
}
const assign = (server: GatehouseServer, admin: TenantAdmin, path: string, body: Record<string, unknown>) => callAs(server, admin, 'POST', path, { body });

describeDialects('applications: assignment by tenant admins', (h) => {
  it('assigns and unassigns a user, answering the user app ids; the users table column, users of apps, tenant apps and app data show it', async () => {
    const server = await h.start();
    const { free, managed } = await vendorApps(server);
    const admin = await tenantWithAdmin(server);
    const member = await inviteMember(server, admin);

    const assigned = await assign(server, admin, ApplicationPaths.assign, { userId: member.userId, appIds: [managed, free], tenantId: admin.tenantId });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toEqual({ userId: member.userId, appIds: [free, managed].sort() });
    expect((await callAs(server, admin, 'GET', pathOf(ApplicationPaths.userApps, { userId: member.userId }))).body).toEqual(assigned.body);
    expect((await callAs(server, admin, 'GET', `${ApplicationPaths.usersApps}?ids=${member.userId},${admin.userId},unknown`)).body).toEqual([assigned.body, { userId: admin.userId, appIds: [] }]);
    expect((await callAs(server, admin, 'GET', `${ApplicationPaths.appsUsers}?ids=${managed}`)).body).toEqual([{ id: managed, accessType: 'MANAGED_ACCESS', userIds: [member.userId] }]);
    expect((await callAs(server, admin, 'GET', ApplicationPaths.tenantApps)).body).toEqual({ tenantId: admin.tenantId, appIds: [managed, free] });
    expect((await callAs(server, admin, 'GET', `${ApplicationPaths.apps}?ids=${free}`)).body).toEqual([{ id: free, name: 'Wiki', url: 'https://wiki.example.com', logo: null, accessType: 'FREE_ACCESS' }]);
    expect((await callAs(server, admin, 'GET', ApplicationPaths.apps)).body.map((a: { name: string }) => a.name)).toEqual(['Payroll', 'Wiki']);

    // Assigning again changes nothing and records nothing.
    expect((await assign(server, admin, ApplicationPaths.assign, { userId: member.userId, appIds: [managed], tenantId: admin.tenantId })).body).toEqual(assigned.body);
    const unassigned = await assign(server, admin, ApplicationPaths.unassign, { userId: member.userId, appIds: [managed], tenantId: admin.tenantId });
    expect(unassigned.body).toEqual({ userId: member.userId, appIds: [free] });

    const audits = (await auditsOf(server, admin.tenantId)).filter((a) => a.action.includes('applications')).reverse();
    expect(audits.map((a) => a.action)).toEqual(['User assigned to applications', 'User unassigned from applications']);
    expect(JSON.parse(audits[0]!.json!)).toEqual({ userId: member.userId, appIds: [free, managed].sort(), old: [], new: [free, managed].sort() });
    expect(JSON.parse(audits[1]!.json!)).toEqual({ userId: member.userId, appIds: [managed], old: [free, managed].sort(), new: [free] });
    expect(audits[0]!.user_id).toBe(admin.userId);
  });

  it("refuses a tenantId other than the account acted in, an unknown application and a repeated one (400 naming the field), and another account's user (404), changing nothing", async () => {
    const server = await h.start();
    const { managed } = await vendorApps(server);
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server);
    const member = await inviteMember(server, admin);
    const outsider = await inviteMember(server, other);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ userId: member.userId, appIds: [managed], tenantId: other.tenantId }, 400, 'tenantId'],
      [{ userId: member.userId, appIds: ['nope'], tenantId: admin.tenantId }, 400, 'appIds'],
      [{ userId: member.userId, appIds: [managed, managed], tenantId: admin.tenantId }, 400, 'appIds'],
      [{ userId: member.userId, appIds: [], tenantId: admin.tenantId }, 400, 'appIds'],
      [{ userId: member.userId, appIds: [managed] }, 400, 'tenantId'],
      [{ userId: outsider.userId, appIds: [managed], tenantId: admin.tenantId }, 404, 'User not found'],
    ];
    for (const path of [ApplicationPaths.assign, ApplicationPaths.unassign]) {
      for (const [body, status, text] of cases) {
        const res = await assign(server, admin, path, body);
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(status);
        expect(res.body.errors.join(' ')).toContain(text);
      }
    }
    expect((await callAs(server, admin, 'GET', pathOf(ApplicationPaths.userApps, { userId: outsider.userId }))).status).toBe(404);
    expect(await server.db.selectFrom('application_users').selectAll().where('tenant_id', '=', admin.tenantId).execute()).toEqual([]);
  });

  it('lets a ReadOnly member (fe.secure.read.users) read assignments and answers them 403 on assign (fe.secure.write.users)', async () => {
    const server = await h.start();
    const { managed } = await vendorApps(server);
    const admin = await tenantWithAdmin(server);
    const reader = await activeMember(server, admin, { roleIds: [await roleIdByKey(server, admin, 'ReadOnly')] });
    expect((await callAs(server, reader, 'GET', pathOf(ApplicationPaths.userApps, { userId: reader.userId }))).status).toBe(200);
    const refused = await assign(server, reader, ApplicationPaths.assign, { userId: reader.userId, appIds: [managed], tenantId: admin.tenantId });
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe('ER-01005');
    expect(await server.db.selectFrom('application_users').selectAll().where('tenant_id', '=', admin.tenantId).execute()).toEqual([]);
  });

  it('refuses a users admin who lacks some of a user\'s permissions to assign or unassign that user (403), and lets them change their own applications', async () => {
    const server = await h.start();
    const { free, managed } = await vendorApps(server);
    const admin = await tenantWithAdmin(server);
    expect((await assign(server, admin, ApplicationPaths.assign, { userId: admin.userId, appIds: [managed], tenantId: admin.tenantId })).status).toBe(200);
    const permissionIds = await Promise.all(['fe.secure.read.users', 'fe.secure.write.users'].map(async (k) => (await findPermissionByKey(server.db, k))!.id));
    const role = await callAs(server, admin, 'POST', AdminPaths.rolesV2, { body: { key: 'UsersOnly', name: 'Users only', permissionIds } });
    expect(role.status).toBe(201);
    const usersAdmin = await activeMember(server, admin, { roleIds: [role.body.id] });
    for (const path of [ApplicationPaths.unassign, ApplicationPaths.assign]) {
      const refused = await assign(server, usersAdmin, path, { userId: admin.userId, appIds: [path === ApplicationPaths.assign ? free : managed], tenantId: admin.tenantId });
      expect(refused.status).toBe(403);
      expect(refused.body.errorCode).toBe(AdminErrorCodes.userNotManageable);
    }
    expect((await callAs(server, admin, 'GET', pathOf(ApplicationPaths.userApps, { userId: admin.userId }))).body.appIds).toEqual([managed]);
    expect((await assign(server, usersAdmin, ApplicationPaths.assign, { userId: usersAdmin.userId, appIds: [free], tenantId: admin.tenantId })).status).toBe(200);
  });

  it('removes a user\'s assignments in the account when they are removed from it, so being invited again gives none back', async () => {
    const server = await h.start();
    const { managed } = await vendorApps(server);
    const admin = await tenantWithAdmin(server);
    const member = await inviteMember(server, admin);
    expect((await assign(server, admin, ApplicationPaths.assign, { userId: member.userId, appIds: [managed], tenantId: admin.tenantId })).status).toBe(200);
    expect((await callAs(server, admin, 'DELETE', pathOf(AdminPaths.teamMember, { userId: member.userId }))).status).toBe(204);
    expect(await server.db.selectFrom('application_users').selectAll().where('tenant_id', '=', admin.tenantId).execute()).toEqual([]);
    const again = await inviteMember(server, admin, {}, member.email);
    expect((await callAs(server, admin, 'GET', pathOf(ApplicationPaths.userApps, { userId: again.userId }))).body.appIds).toEqual([]);
  });

  it("removes an application's assignments with it", async () => {
    const server = await h.start();
    const root = await superUser(server);
    const { managed } = await vendorApps(server);
    const admin = await tenantWithAdmin(server);
    const member = await inviteMember(server, admin);
    expect((await assign(server, admin, ApplicationPaths.assign, { userId: member.userId, appIds: [managed], tenantId: admin.tenantId })).status).toBe(200);
    expect((await callAs(server, root, 'DELETE', pathOf(ApplicationPaths.application, { appId: managed }))).status).toBe(204);
    expect((await callAs(server, admin, 'GET', pathOf(ApplicationPaths.userApps, { userId: member.userId }))).body).toEqual({ userId: member.userId, appIds: [] });
    expect(await server.db.selectFrom('application_users').selectAll().where('tenant_id', '=', admin.tenantId).execute()).toEqual([]);
  });
});
