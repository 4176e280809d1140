import { AdminPaths, ApiPaths, INVITE_LINK_DEFAULT_EXPIRY_MINUTES } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { activeMember, auditsOf, callAs, listUsers, roleIdByKey, tenantWithAdmin } from '../../test/admin-helpers';
import { claimsOf } from '../../test/invitation-helpers';
import { describeDialects, movableClock } from '../../test/harness';

describeDialects('admin invite links', (harness) => {
  const h = { start: (clock = movableClock()) => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60', ACCESS_TOKEN_TTL: '3600', GATEHOUSE_KEY_ENCRYPTION_KEY: 'ab'.repeat(32) }, { clock }) };

  it('creates the link with the default expiry of 43200 minutes, shows it again, updates its expiry and deletes it', async () => {
    const clock = movableClock();
    const server = await h.start(clock);
    const admin = await tenantWithAdmin(server);
    expect((await callAs(server, admin, 'GET', AdminPaths.inviteLink)).status).toBe(404);
    const created = await callAs(server, admin, 'POST', AdminPaths.inviteLink, { body: {} });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ expiresInMinutes: INVITE_LINK_DEFAULT_EXPIRY_MINUTES, expires: new Date(clock.now() + 43200 * 60_000).toISOString() });
    expect(created.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.body.url).toBe(`http://localhost:8787/account/sign-up?invitationToken=${created.body.token}`);
    // Stored sealed and hashed, never in clear.
    const row = await server.db.selectFrom('invite_links').selectAll().where('tenant_id', '=', admin.tenantId).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.body.token);

    expect((await callAs(server, admin, 'GET', AdminPaths.inviteLink)).body).toEqual(created.body);
    expect((await callAs(server, admin, 'POST', AdminPaths.inviteLink, { body: { expiresInMinutes: 5 } })).body.errorCode).toBe('ER-02408');
    clock.advance(60_000);
    const updated = await callAs(server, admin, 'PATCH', AdminPaths.inviteLink, { body: { expiresInMinutes: 90 } });
    expect(updated.body).toMatchObject({ token: created.body.token, expiresInMinutes: 90 });
    expect((await callAs(server, admin, 'PATCH', AdminPaths.inviteLink, { body: { expiresInMinutes: 0 } })).status).toBe(400);
    expect((await callAs(server, admin, 'DELETE', AdminPaths.inviteLink)).status).toBe(204);
    expect((await callAs(server, admin, 'DELETE', AdminPaths.inviteLink)).status).toBe(404);
    // (The admin's own sign-in records are there too: only the invite link's are checked.)
    expect((await auditsOf(server, admin.tenantId)).map((a) => a.action).filter((a) => a.startsWith('Invite link')).sort()).toEqual(['Invite link created', 'Invite link deleted', 'Invite link updated']);
  });

  it('lets a signed-in user join the tenant with its default role, once, until the link expires or is deleted', async () => {
    const clock = movableClock();
    const server = await h.start(clock);
    const admin = await tenantWithAdmin(server);
    const link = (await callAs(server, admin, 'POST', AdminPaths.inviteLink, { body: { expiresInMinutes: 10 } })).body;
    const someone = await tenantWithAdmin(server, 'someone');
    const joined = await callAs(server, someone, 'POST', AdminPaths.inviteLinkJoin, { body: { token: link.token } });
    expect(joined.body).toEqual({ tenantId: admin.tenantId, tenantName: 'example.com', joined: true });
    expect((await callAs(server, someone, 'POST', AdminPaths.inviteLinkJoin, { body: { token: link.token } })).body.joined).toBe(false);
    const switched = await callAs(server, someone, 'PUT', ApiPaths.switchTenant, { body: { tenantId: admin.tenantId } });
    expect(claimsOf(switched.body.accessToken).roles).toEqual(['ReadOnly']);
    expect((await listUsers(server, admin)).items.map((u) => u.id)).toContain(someone.userId);
    expect((await auditsOf(server, admin.tenantId)).find((a) => a.action === 'User joined by invite link')).toMatchObject({ user_id: someone.userId });

    expect((await callAs(server, someone, 'POST', AdminPaths.inviteLinkJoin, { body: { token: 'x'.repeat(43) } })).body.errorCode).toBe('ER-02407');
    const late = await tenantWithAdmin(server, 'late');
    clock.advance(11 * 60_000);
    const expired = await callAs(server, late, 'POST', AdminPaths.inviteLinkJoin, { body: { token: link.token } });
    expect([expired.status, expired.body.errors]).toEqual([400, ['This invite link is invalid or has expired']]);
    const renewed = (await callAs(server, admin, 'POST', AdminPaths.inviteLink, { body: {} })).body;
    expect(renewed.token).not.toBe(link.token);
    await callAs(server, admin, 'DELETE', AdminPaths.inviteLink);
    expect((await callAs(server, late, 'POST', AdminPaths.inviteLinkJoin, { body: { token: renewed.token } })).status).toBe(400);
    expect((await listUsers(server, admin)).items.map((u) => u.id)).not.toContain(late.userId);
  });

  it('keeps the link from readers: a ReadOnly member gets 403', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    await callAs(server, admin, 'POST', AdminPaths.inviteLink, { body: {} });
    const reader = await activeMember(server, admin, { roleIds: [await roleIdByKey(server, admin, 'ReadOnly')] });
    const res = await callAs(server, reader, 'GET', AdminPaths.inviteLink);
    expect([res.status, res.body.errorCode]).toEqual([403, 'ER-01005']);
  });
});
