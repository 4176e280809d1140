import { AdminPaths, ProvisioningErrorCodes, ProvisioningPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { activeMember, auditsOf, callAs, listUsers, pathOf, signIn, tenantWithAdmin } from '../../test/admin-helpers';
import { insertPlan, subscribe } from '../../test/entitlement-helpers';
import { call, describeDialects, movableClock, uniqueEmail } from '../../test/harness';
import { oktaUser, scim, scimConnection, SCHEMA_ENTERPRISE, SCHEMA_ERROR, SCHEMA_PATCH, SCHEMA_USER } from '../../test/scim-helpers';

describeDialects('SCIM Users', (harness) => {
  const start = () => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' }, { clock: movableClock() });

  it('provisions a user (201, Location, ETag, application/scim+json) managed by scim2 in the portal, and refuses the same userName in any case with 409 uniqueness', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const { token } = await scimConnection(server, admin);
    const userName = uniqueEmail('ada');
    const created = await scim(server, token, 'POST', '/Users', oktaUser(userName, { externalId: 'okta-1', [SCHEMA_ENTERPRISE]: { department: 'R&D' }, schemas: [SCHEMA_USER, SCHEMA_ENTERPRISE] }));
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toContain('application/scim+json');
    expect(created.body).toMatchObject({ userName, active: true, externalId: 'okta-1', [SCHEMA_ENTERPRISE]: { department: 'R&D' }, meta: { resourceType: 'User', version: 'W/"1"' } });
    expect(created.headers.get('etag')).toBe('W/"1"');
    expect(created.headers.get('location')).toBe(`${server.config.publicUrl}/scim/v2/Users/${created.body.id}`);

    const member = (await listUsers(server, admin)).items.find((u) => u.id === created.body.id);
    expect(member).toMatchObject({ email: userName, managedBy: 'scim2' });

    const again = await scim(server, token, 'POST', '/Users', oktaUser(userName.toUpperCase()));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ schemas: [SCHEMA_ERROR], status: '409', scimType: 'uniqueness', detail: expect.stringContaining('userName') });
    const bad = await scim(server, token, 'POST', '/Users', { schemas: [SCHEMA_USER], userName: '' });
    expect([bad.status, bad.body.scimType]).toEqual([400, 'invalidValue']);
    expect((await auditsOf(server, admin.tenantId)).map((a) => a.action)).toContain('User provisioned by SCIM');
  });

  it("finds users by Okta's userName eq filter and by co, sw, pr, and, or; pages with startIndex/count; selects attributes", async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const { token } = await scimConnection(server, admin);
    const names = ['anna.alpha', 'bob.beta', 'anna.gamma'].map((n) => `${n}.${Math.random().toString(36).slice(2, 7)}@example.com`);
    for (const n of names) expect((await scim(server, token, 'POST', '/Users', oktaUser(n))).status).toBe(201);
    const q = async (filter: string, extra = '') => {
      const res = await scim(server, token, 'GET', `/Users?filter=${encodeURIComponent(filter)}${extra}`);
      expect(res.status, filter).toBe(200);
      return res.body;
    };
    expect((await q(`userName eq "${names[1]!.toUpperCase()}"`)).Resources.map((r: { userName: string }) => r.userName)).toEqual([names[1]]);
    expect((await q('userName sw "anna."')).totalResults).toBe(2);
    expect((await q('userName co "gamma"')).Resources.map((r: { userName: string }) => r.userName)).toEqual([names[2]]);
    expect((await q('externalId pr')).totalResults).toBe(0);
    expect((await q(`userName sw "anna." and name.givenName eq "anna"`)).totalResults).toBe(2);
    expect((await q(`userName eq "${names[0]}" or userName eq "${names[1]}"`)).totalResults).toBe(2);
    const page = await q('userName pr', '&startIndex=2&count=1&attributes=userName');
    expect(page).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    expect(Object.keys(page.Resources[0]).sort()).toEqual(['id', 'schemas', 'userName']);
    const invalid = await scim(server, token, 'GET', `/Users?filter=${encodeURIComponent('userName eq')}`);
    expect([invalid.status, invalid.body.scimType]).toEqual([400, 'invalidFilter']);
    expect((await scim(server, token, 'GET', '/Users?count=abc')).status).toBe(400);
    // count is bounded by maxResults (200).
    expect((await scim(server, token, 'GET', '/Users?count=100000')).body.itemsPerPage).toBe(3);
  });

  it("deactivates with Okta's pathless PATCH and Entra's capitalised Replace of active: the member's sessions are revoked and it can no longer sign in; reactivates", async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const person = await activeMember(server, admin);
    const { token } = await scimConnection(server, admin, 'azure-ad');
    // An existing member of the tenant is taken over by SCIM.
    const linked = await scim(server, token, 'POST', '/Users', oktaUser(person.email));
    expect(linked.status).toBe(201);
    expect(linked.body.id).toBe(person.userId);
    expect((await signIn(server, person.email)).status).toBe(200);

    const off = await scim(server, token, 'PATCH', `/Users/${person.userId}`, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'replace', value: { active: false } }] });
    expect([off.status, off.body.active]).toEqual([200, false]);
    const live = await server.db.selectFrom('sessions').select('id').where('user_id', '=', person.userId).where('tenant_id', '=', admin.tenantId).where('revoked_at', 'is', null).execute();
    expect(live).toEqual([]);
    expect((await signIn(server, person.email)).status).not.toBe(200);
    expect((await listUsers(server, admin)).items.find((u) => u.id === person.userId)).toMatchObject({ isDisabled: true, managedBy: 'scim2' });

    const on = await scim(server, token, 'PATCH', `/Users/${person.userId}`, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'True' }] });
    expect([on.status, on.body.active, on.body.meta.version]).toEqual([200, true, 'W/"3"']);
    expect((await signIn(server, person.email)).status).toBe(200);
  });

  it('remove of active leaves it unset: answered without active while the membership stays active (sign-in works); after active=false, removing it activates again', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const person = await activeMember(server, admin);
    const { token } = await scimConnection(server, admin);
    const path = `/Users/${(await scim(server, token, 'POST', '/Users', oktaUser(person.email))).body.id}`;
    const removed = await scim(server, token, 'PATCH', path, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'remove', path: 'active' }] });
    expect(removed.status).toBe(200);
    expect(removed.body).not.toHaveProperty('active');
    expect((await scim(server, token, 'GET', path)).body).not.toHaveProperty('active');
    expect((await signIn(server, person.email)).status).toBe(200);

    expect((await scim(server, token, 'PATCH', path, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] })).body.active).toBe(false);
    expect((await signIn(server, person.email)).status).not.toBe(200);
    const again = await scim(server, token, 'PATCH', path, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'remove', path: 'active' }] });
    expect([again.status, 'active' in again.body]).toEqual([200, false]);
    expect((await listUsers(server, admin)).items.find((u) => u.id === person.userId)).toMatchObject({ isDisabled: false });
    expect((await signIn(server, person.email)).status).toBe(200);
    // A PUT without active is a PUT that leaves it unset.
    const put = await scim(server, token, 'PUT', path, { schemas: [SCHEMA_USER], userName: person.email });
    expect([put.status, 'active' in put.body]).toEqual([200, false]);
  });

  it('lists the accounts it creates outside a validated SSO domain as not yet activated (unverified: SCIM does not vouch for the address), active=false disabled', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const { token } = await scimConnection(server, admin);
    const on = (await scim(server, token, 'POST', '/Users', oktaUser(uniqueEmail('unvouched')))).body;
    const off = (await scim(server, token, 'POST', '/Users', oktaUser(uniqueEmail('dormant'), { active: false }))).body;
    const listed = (await listUsers(server, admin)).items;
    expect(listed.find((u) => u.id === on.id)).toMatchObject({ verified: false, isDisabled: false, managedBy: 'scim2' });
    expect(listed.find((u) => u.id === off.id)).toMatchObject({ verified: false, isDisabled: true, managedBy: 'scim2' });
  });

  it('finds a user by displayName eq (it was narrowed by the userName index and found nobody)', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const { token } = await scimConnection(server, admin);
    const created = (await scim(server, token, 'POST', '/Users', oktaUser(uniqueEmail('grace'), { displayName: 'Grace Hopper' }))).body;
    const found = await scim(server, token, 'GET', `/Users?filter=${encodeURIComponent('displayName eq "grace hopper"')}`);
    expect(found.body.Resources.map((r: { id: string }) => r.id)).toEqual([created.id]);
  });

  it('replaces with PUT under If-Match (412 on a stale ETag), answers 304 to If-None-Match, and a PATCH that changes nothing keeps the version', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const { token } = await scimConnection(server, admin);
    const userName = uniqueEmail('put');
    const created = (await scim(server, token, 'POST', '/Users', oktaUser(userName))).body;
    const path = `/Users/${created.id}`;
    const stale = await scim(server, token, 'PUT', path, oktaUser(userName, { displayName: 'Changed' }), { 'if-match': 'W/"7"' });
    expect([stale.status, stale.body.status]).toEqual([412, '412']);
    expect((await scim(server, token, 'GET', path)).body.displayName).toBe(created.displayName);
    const put = await scim(server, token, 'PUT', path, oktaUser(userName, { displayName: 'Grace Hopper', title: 'Admiral' }), { 'if-match': created.meta.version });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ displayName: 'Grace Hopper', title: 'Admiral', meta: { version: 'W/"2"' } });
    // The account's own fields follow (this tenant is its only one).
    const row = await server.db.selectFrom('users').select(['name', 'job_title']).where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Grace Hopper', job_title: 'Admiral' });
    const notModified = await scim(server, token, 'GET', path, undefined, { 'if-none-match': 'W/"2"' });
    expect(notModified.status).toBe(304);
    const same = await scim(server, token, 'PATCH', path, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Grace Hopper' }] });
    expect([same.status, same.headers.get('etag')]).toEqual([200, 'W/"2"']);
  });

  it('deprovisions with DELETE: the membership and (in no other tenant) the account go; 404 afterwards', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const { token } = await scimConnection(server, admin);
    const created = (await scim(server, token, 'POST', '/Users', oktaUser(uniqueEmail('gone')))).body;
    expect((await scim(server, token, 'DELETE', `/Users/${created.id}`, undefined, { 'if-match': 'W/"9"' })).status).toBe(412);
    expect((await scim(server, token, 'DELETE', `/Users/${created.id}`)).status).toBe(204);
    expect((await scim(server, token, 'GET', `/Users/${created.id}`)).status).toBe(404);
    expect(await server.db.selectFrom('users').select('id').where('id', '=', created.id).executeTakeFirst()).toBeUndefined();
    expect((await auditsOf(server, admin.tenantId)).map((a) => a.action)).toContain('User deprovisioned by SCIM');
  });

  it("applies the tenant's seat limit: past it, provisioning is a SCIM 403 and creates nothing", async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    await subscribe(server, admin.tenantId, await insertPlan(server, { seatLimit: 1 }));
    const { token } = await scimConnection(server, admin);
    const userName = uniqueEmail('seat');
    const refused = await scim(server, token, 'POST', '/Users', oktaUser(userName));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ schemas: [SCHEMA_ERROR], status: '403' });
    expect((await scim(server, token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`)).body.totalResults).toBe(0);
    expect(await server.db.selectFrom('users').select('id').where('email', '=', userName).executeTakeFirst()).toBeUndefined();
  });

  it('makes SCIM users read-only in the admin API: removing, disabling, locking or expiring one is refused with ER-02502 (roles stay grantable)', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const { token } = await scimConnection(server, admin);
    const created = (await scim(server, token, 'POST', '/Users', oktaUser(uniqueEmail('ro')))).body;
    for (const [method, template] of [['DELETE', AdminPaths.teamMember], ['POST', AdminPaths.tenantUserDisable], ['POST', AdminPaths.tenantUserLock]] as const) {
      const res = await callAs(server, admin, method, pathOf(template, { userId: created.id }));
      expect([res.status, res.body.errorCode], template).toEqual([403, ProvisioningErrorCodes.managedByScim]);
      expect(res.body.errors[0]).toContain('managed by SCIM');
    }
    expect((await callAs(server, admin, 'PUT', AdminPaths.teamMembers, { body: { id: created.id, roleIds: [] } })).status).toBe(200);
    expect((await scim(server, token, 'GET', `/Users/${created.id}`)).body.active).toBe(true);
  });

  it("confines a token to its tenant: tenant A's token never finds, changes or deletes tenant B's users, and B's filter results are never in A's", async () => {
    const server = await start();
    const a = await tenantWithAdmin(server, 'a');
    const b = await tenantWithAdmin(server, 'b');
    const tokenA = (await scimConnection(server, a)).token;
    const tokenB = (await scimConnection(server, b)).token;
    const userName = uniqueEmail('isolated');
    const inB = (await scim(server, tokenB, 'POST', '/Users', oktaUser(userName))).body;
    const path = `/Users/${inB.id}`;
    expect((await scim(server, tokenA, 'GET', path)).status).toBe(404);
    expect((await scim(server, tokenA, 'PUT', path, oktaUser(userName, { displayName: 'Hijacked' }))).status).toBe(404);
    expect((await scim(server, tokenA, 'PATCH', path, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'replace', value: { active: false } }] })).status).toBe(404);
    expect((await scim(server, tokenA, 'DELETE', path)).status).toBe(404);
    const listed = await scim(server, tokenA, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
    expect(listed.body.totalResults).toBe(0);
    expect((await scim(server, tokenA, 'GET', `/Users?filter=${encodeURIComponent(`id eq "${inB.id}"`)}`)).body.totalResults).toBe(0);
    const searched = await scim(server, tokenA, 'POST', '/Users/.search', { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'], filter: `userName eq "${userName}"` });
    expect([searched.status, searched.body.totalResults]).toEqual([200, 0]);
    expect(JSON.stringify((await scim(server, tokenA, 'GET', '/Users')).body)).not.toContain(inB.id);
    // ?tenantId= is not a SCIM parameter: it names nothing.
    expect((await scim(server, tokenA, 'GET', `${path}?tenantId=${b.tenantId}`)).status).toBe(404);
    expect((await scim(server, tokenB, 'GET', path)).body).toMatchObject({ displayName: inB.displayName, active: true, meta: { version: 'W/"1"' } });
    // The same address provisioned in A (no validated SSO domain of A) is refused, naming no tenant; B's user is untouched.
    const inA = await scim(server, tokenA, 'POST', '/Users', oktaUser(userName, { displayName: 'Other Name' }));
    expect([inA.status, inA.body.scimType]).toEqual([409, 'uniqueness']);
    expect(inA.body.detail).not.toContain(b.tenantId);
    expect((await server.db.selectFrom('users').select('name').where('id', '=', inB.id).executeTakeFirstOrThrow()).name).toBe(inB.displayName);
  });

  it('answers 401 in the SCIM error schema without a token, with a wrong one, with an admin access token, and with a rotated-out token', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const conn = await scimConnection(server, admin);
    const tampered = `${conn.token.slice(0, -2)}xx`;
    for (const token of [null, 'nope', tampered, admin.accessToken]) {
      const res = await scim(server, token, 'GET', '/Users');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ schemas: [SCHEMA_ERROR], status: '401' });
    }
    expect((await scim(server, conn.token, 'GET', '/Users')).status).toBe(200);
    const rotated = await callAs(server, admin, 'POST', pathOf(ProvisioningPaths.scim2ConfigurationToken, { id: conn.id }));
    expect((await scim(server, conn.token, 'GET', '/Users')).status).toBe(401);
    expect((await scim(server, rotated.body.token, 'GET', '/Users')).status).toBe(200);
    // The admin API does not take a SCIM token either.
    expect((await call(server, 'GET', ProvisioningPaths.scim2Configurations, { token: rotated.body.token })).status).toBe(401);
  });
});
