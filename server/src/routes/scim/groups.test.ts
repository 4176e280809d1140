import { AdminErrorCodes, AdminPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { auditsOf, callAs, pathOf, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects, movableClock, uniqueEmail } from '../../test/harness';
import { oktaUser, scim, scimConnection, SCHEMA_GROUP, SCHEMA_PATCH } from '../../test/scim-helpers';

describeDialects('SCIM Groups', (harness) => {
  const start = () => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' }, { clock: movableClock() });

  async function setup() {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const { token } = await scimConnection(server, admin, 'azure-ad');
    const users: string[] = [];
    for (let i = 0; i < 3; i += 1) users.push((await scim(server, token, 'POST', '/Users', oktaUser(uniqueEmail(`m${i}`)))).body.id);
    return { server, admin, token, users };
  }
  const memberIds = (group: { members?: { value: string }[] }) => (group.members ?? []).map((m) => m.value).sort();

  it('provisions a group with members (managedBy scim2, read-only in the admin API), and refuses a taken displayName (409) or a member of no tenant user (400)', async () => {
    const { server, admin, token, users } = await setup();
    const name = `Engineering ${Math.random().toString(36).slice(2, 7)}`;
    const created = await scim(server, token, 'POST', '/Groups', { schemas: [SCHEMA_GROUP], displayName: name, externalId: 'g-1', members: [{ value: users[0] }, { value: users[1] }] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ displayName: name, externalId: 'g-1', meta: { resourceType: 'Group', version: 'W/"1"' } });
    expect(memberIds(created.body)).toEqual([users[0], users[1]].sort());

    const inPortal = await callAs(server, admin, 'GET', pathOf(AdminPaths.group, { groupId: created.body.id }));
    expect(inPortal.body).toMatchObject({ name, managedBy: 'scim2' });
    const edit = await callAs(server, admin, 'PATCH', pathOf(AdminPaths.group, { groupId: created.body.id }), { body: { color: '#112233' } });
    expect([edit.status, edit.body.errorCode]).toEqual([403, AdminErrorCodes.groupManagedByProvider]);

    const taken = await scim(server, token, 'POST', '/Groups', { schemas: [SCHEMA_GROUP], displayName: name.toUpperCase() });
    expect([taken.status, taken.body.scimType]).toEqual([409, 'uniqueness']);
    const stranger = await scim(server, token, 'POST', '/Groups', { schemas: [SCHEMA_GROUP], displayName: `${name} 2`, members: [{ value: 'not-a-user' }] });
    expect([stranger.status, stranger.body.scimType]).toEqual([400, 'invalidValue']);
    expect(stranger.body.detail).toContain('not-a-user');
  });

  it("changes membership by Entra ID's PATCH (capitalised Add, remove by members[value eq]) and by Okta's PUT, each audited", async () => {
    const { server, admin, token, users } = await setup();
    const group = (await scim(server, token, 'POST', '/Groups', { schemas: [SCHEMA_GROUP], displayName: `Sales ${Math.random()}` })).body;
    const path = `/Groups/${group.id}`;
    const added = await scim(server, token, 'PATCH', path, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'Add', path: 'members', value: [{ value: users[0] }, { value: users[2] }] }] });
    expect(added.status).toBe(200);
    expect(memberIds(added.body)).toEqual([users[0], users[2]].sort());
    const removed = await scim(server, token, 'PATCH', path, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'remove', path: `members[value eq "${users[0]}"]` }] });
    expect(memberIds(removed.body)).toEqual([users[2]]);
    // The user's groups follow.
    expect((await scim(server, token, 'GET', `/Users/${users[2]}`)).body.groups).toEqual([expect.objectContaining({ value: group.id, display: group.displayName })]);

    const put = await scim(server, token, 'PUT', path, { schemas: [SCHEMA_GROUP], displayName: 'Sales EMEA', members: [{ value: users[1] }] }, { 'if-match': removed.body.meta.version });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ displayName: 'Sales EMEA', meta: { version: 'W/"4"' } });
    expect(memberIds(put.body)).toEqual([users[1]]);
    const rows = await server.db.selectFrom('group_users').select('user_id').where('group_id', '=', group.id).execute();
    expect(rows.map((r) => r.user_id)).toEqual([users[1]]);
    expect((await auditsOf(server, admin.tenantId)).filter((a) => a.action === 'Group updated by SCIM')).toHaveLength(3);
    const filtered = await scim(server, token, 'GET', `/Groups?filter=${encodeURIComponent('displayName eq "sales emea"')}&excludedAttributes=members`);
    expect(filtered.body.totalResults).toBe(1);
    expect(filtered.body.Resources[0].members).toBeUndefined();
  });

  it("deletes a group (204, then 404), and a token of another tenant neither sees nor touches it", async () => {
    const { server, token } = await setup();
    const other = await tenantWithAdmin(server, 'other');
    const otherToken = (await scimConnection(server, other)).token;
    const group = (await scim(server, token, 'POST', '/Groups', { schemas: [SCHEMA_GROUP], displayName: `Ops ${Math.random()}` })).body;
    const path = `/Groups/${group.id}`;
    expect((await scim(server, otherToken, 'GET', path)).status).toBe(404);
    expect((await scim(server, otherToken, 'PATCH', path, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'x' }] })).status).toBe(404);
    expect((await scim(server, otherToken, 'PUT', path, { schemas: [SCHEMA_GROUP], displayName: 'Hijacked' })).status).toBe(404);
    expect((await scim(server, otherToken, 'DELETE', path)).status).toBe(404);
    expect((await scim(server, otherToken, 'GET', '/Groups')).body.totalResults).toBe(0);
    expect((await scim(server, otherToken, 'GET', `/Groups?filter=${encodeURIComponent(`displayName eq "${group.displayName}"`)}`)).body.totalResults).toBe(0);
    expect((await scim(server, otherToken, 'GET', `/Groups?filter=${encodeURIComponent(`id eq "${group.id}"`)}`)).body.totalResults).toBe(0);
    expect((await scim(server, otherToken, 'POST', '/.search', { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'] })).body.totalResults).toBe(0);
    // Unchanged in its own tenant.
    expect((await scim(server, token, 'GET', path)).body).toMatchObject({ displayName: group.displayName, meta: { version: 'W/"1"' } });
    expect((await scim(server, token, 'DELETE', path)).status).toBe(204);
    expect((await scim(server, token, 'GET', path)).status).toBe(404);
    expect(await server.db.selectFrom('groups').select('id').where('id', '=', group.id).executeTakeFirst()).toBeUndefined();
  });
});
