import { AdminPaths, ConnectivityPaths, EVENT_CATALOGUE, Permissions } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { findPermissionByKey } from '../../db/queries/admin-roles';
import { activeMember, callAs, memberWithoutPermissions, superUser, tenantWithAdmin } from '../../test/admin-helpers';
import { call, describeDialects } from '../../test/harness';

describeDialects('GET /connectivity/resources/events/v1 (the event catalogue)', (harness) => {
  const start = () => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' });

  it("answers an admin of the tenant the whole catalogue: every key with its category, description, JSON schema and example", async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const res = await callAs(server, admin, 'GET', ConnectivityPaths.events);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(EVENT_CATALOGUE)));
    expect(res.body.find((e: { key: string }) => e.key === 'user.invited')).toMatchObject({ category: 'users', schema: { type: 'object', required: expect.arrayContaining(['userId', 'roleIds']) } });
  });

  it('is for admins holding any one of the connectivity or reports read permissions: one of them is enough, none is 403, no token is 401', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    expect((await call(server, 'GET', ConnectivityPaths.events)).status).toBe(401);
    const plain = await memberWithoutPermissions(server, admin.tenantId);
    const refused = await callAs(server, plain, 'GET', ConnectivityPaths.events, { tenantId: admin.tenantId });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain('user.created');

    // A role with the email channel's read permission alone.
    const permission = (await findPermissionByKey(server.db, Permissions.emailConfigRead))!;
    const role = await callAs(server, admin, 'POST', AdminPaths.rolesV2, { body: { key: 'email-reader', name: 'Email reader', permissionIds: [permission.id] } });
    expect(role.status).toBe(201);
    const member = await activeMember(server, admin);
    expect((await callAs(server, admin, 'PUT', AdminPaths.teamMembers, { body: { id: member.userId, roleIds: [role.body.id] } })).status).toBe(200);
    const fresh = await call(server, 'POST', '/identity/resources/auth/v1/user', { body: { email: member.email, password: member.password } });
    expect((await callAs(server, { accessToken: fresh.body.accessToken }, 'GET', ConnectivityPaths.events)).status).toBe(200);
  });

  it("another tenant's admin naming this tenant is refused (404); a super user naming it is answered", async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const stranger = await tenantWithAdmin(server, 'stranger');
    expect((await callAs(server, stranger, 'GET', ConnectivityPaths.events, { tenantId: admin.tenantId })).status).toBe(404);
    const operator = await superUser(server);
    expect((await callAs(server, operator, 'GET', ConnectivityPaths.events, { tenantId: admin.tenantId })).status).toBe(200);
  });
});
