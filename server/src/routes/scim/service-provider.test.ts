import { AdminPaths, ProvisioningPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, listUsers, pathOf, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects, movableClock, uniqueEmail } from '../../test/harness';
import { oktaUser, scim, scimConnection, SCHEMA_ERROR, SCHEMA_GROUP, SCHEMA_PATCH } from '../../test/scim-helpers';

describeDialects('SCIM service provider', (harness) => {
  const start = (env: Record<string, string> = {}) => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60', ...env }, { clock: movableClock() });

  it('answers ServiceProviderConfig (patch, filter with maxResults, etag; no bulk, sort or changePassword), ResourceTypes and Schemas', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const { token } = await scimConnection(server, admin);
    const spc = await scim(server, token, 'GET', '/ServiceProviderConfig');
    expect(spc.status).toBe(200);
    expect(spc.headers.get('content-type')).toContain('application/scim+json');
    expect(spc.body).toMatchObject({ patch: { supported: true }, bulk: { supported: false }, filter: { supported: true, maxResults: 200 }, etag: { supported: true }, sort: { supported: false }, changePassword: { supported: false }, authenticationSchemes: [expect.objectContaining({ type: 'oauthbearertoken' })] });
    const types = await scim(server, token, 'GET', '/ResourceTypes');
    expect(types.body.Resources.map((r: { id: string }) => r.id)).toEqual(['User', 'Group']);
    expect((await scim(server, token, 'GET', '/ResourceTypes/User')).body.schemaExtensions).toEqual([{ schema: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User', required: false }]);
    expect((await scim(server, token, 'GET', '/ResourceTypes/Nope')).status).toBe(404);
    const schemas = await scim(server, token, 'GET', '/Schemas');
    expect(schemas.body.totalResults).toBe(3);
    expect((await scim(server, token, 'GET', `/Schemas/${SCHEMA_GROUP}`)).body.id).toBe(SCHEMA_GROUP);
    const unknown = await scim(server, token, 'GET', '/Bulk');
    expect(unknown.status).toBe(404);
    expect(unknown.body.schemas).toEqual([SCHEMA_ERROR]);
    expect((await scim(server, null, 'GET', '/ServiceProviderConfig')).status).toBe(401);
  });

  it("logs each request of a connection with its status and what changed, never the token; the admin reads it paged, and the connection counts its users", async () => {
    const clock = movableClock();
    const server = await harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' }, { clock });
    const admin = await tenantWithAdmin(server);
    const conn = await scimConnection(server, admin);
    const userName = uniqueEmail('logged');
    const created = (await scim(server, conn.token, 'POST', '/Users', oktaUser(userName, { password: 'hunter2-secret' }))).body;
    // One second between requests, so newest-first is their order.
    clock.advance(1000);
    await scim(server, conn.token, 'PATCH', `/Users/${created.id}`, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'New Name' }] });
    clock.advance(1000);
    await scim(server, conn.token, 'POST', '/Users', oktaUser(userName));
    clock.advance(1000);
    await scim(server, conn.token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}&access_token=${conn.token}`);
    const log = await callAs(server, admin, 'GET', pathOf(ProvisioningPaths.scim2ConfigurationRequests, { id: conn.id }));
    expect(log.status).toBe(200);
    expect(log.body.total).toBe(4);
    const [list, conflict, patch, post] = log.body.items;
    expect(list).toMatchObject({ method: 'GET', status: 200, path: `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${userName}"`).replace(/%20/g, '+')}`, diff: null });
    expect(conflict).toMatchObject({ method: 'POST', status: 409, error: expect.stringContaining('userName') });
    expect(patch).toMatchObject({ method: 'PATCH', status: 200, resourceType: 'User', resourceId: created.id, diff: { displayName: [created.displayName, 'New Name'] } });
    expect(post).toMatchObject({ method: 'POST', status: 201, resourceId: created.id });
    expect(post.diff.userName).toEqual([null, userName]);
    const text = JSON.stringify(log.body);
    expect(text).not.toContain(conn.token.split('.')[2]);
    expect(text).not.toContain('hunter2-secret');
    const listed = await callAs(server, admin, 'GET', ProvisioningPaths.scim2Configurations);
    expect(listed.body.items[0]).toMatchObject({ id: conn.id, usersCount: 1 });
  });

  it('deletes a connection with deleteAll=true: its users leave the tenant and its groups go; without it they stay, editable in the portal', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const keep = await scimConnection(server, admin, 'okta');
    const purge = await scimConnection(server, admin, 'azure-ad');
    const kept = (await scim(server, keep.token, 'POST', '/Users', oktaUser(uniqueEmail('kept')))).body;
    const purged = (await scim(server, purge.token, 'POST', '/Users', oktaUser(uniqueEmail('purged')))).body;
    const group = (await scim(server, purge.token, 'POST', '/Groups', { schemas: [SCHEMA_GROUP], displayName: `Purged ${Math.random()}`, members: [{ value: purged.id }] })).body;

    expect((await callAs(server, admin, 'DELETE', `${pathOf(ProvisioningPaths.scim2Configuration, { id: purge.id })}?deleteAll=true`)).status).toBe(204);
    const ids = (await listUsers(server, admin)).items.map((u) => u.id);
    expect(ids).toContain(kept.id);
    expect(ids).not.toContain(purged.id);
    expect((await callAs(server, admin, 'GET', pathOf(AdminPaths.group, { groupId: group.id }))).status).toBe(404);
    expect((await scim(server, purge.token, 'GET', '/Users')).status).toBe(401);

    expect((await callAs(server, admin, 'DELETE', pathOf(ProvisioningPaths.scim2Configuration, { id: keep.id }))).status).toBe(204);
    // A deleted connection's token stops at once, deleteAll or not.
    expect((await scim(server, keep.token, 'GET', '/Users')).status).toBe(401);
    const after = (await listUsers(server, admin)).items.find((u) => u.id === kept.id);
    expect(after).toMatchObject({ managedBy: 'frontegg' });
    expect((await callAs(server, admin, 'POST', pathOf(AdminPaths.tenantUserDisable, { userId: kept.id }))).status).toBe(200);
  });

  it('limits requests per connection (429 in the SCIM error schema with Retry-After), each connection on its own', async () => {
    const server = await start({ RATE_LIMIT_SCIM_PER_CONNECTION: '3/60' });
    const admin = await tenantWithAdmin(server);
    const a = await scimConnection(server, admin);
    const b = await scimConnection(server, admin);
    for (let i = 0; i < 3; i += 1) expect((await scim(server, a.token, 'GET', '/Users')).status).toBe(200);
    const limited = await scim(server, a.token, 'GET', '/Users');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ schemas: [SCHEMA_ERROR], status: '429' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await scim(server, b.token, 'GET', '/Users')).status).toBe(200);
  });

  it('limits requests with a missing or wrong token per client IP (429 with Retry-After instead of 401), while a good token from elsewhere still works', async () => {
    const clock = movableClock();
    const server = await harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60', RATE_LIMIT_SCIM_BAD_TOKEN_PER_IP: '3/600' }, { clock });
    const admin = await tenantWithAdmin(server);
    const { token } = await scimConnection(server, admin);
    // A window of its own: the database (and the counters of the client, "unknown" here) may be shared with earlier tests.
    clock.advance(3_600_000);
    const guessed = `${token.slice(0, -4)}abcd`;
    for (const t of [null, 'nope', guessed]) expect((await scim(server, t, 'GET', '/Users')).status, String(t)).toBe(401);
    const limited = await scim(server, guessed, 'GET', '/Users');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ schemas: [SCHEMA_ERROR], status: '429' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Only failures count: the connection's own calls are limited per connection, not here.
    expect((await scim(server, token, 'GET', '/Users')).status).toBe(200);
  });

  it('answers the refusals of the shared layers (control characters in the path, query or body; a body over the limit) as SCIM errors in application/scim+json, and the rest of the API still in its own body', async () => {
    const server = await start({ MAX_BODY_BYTES: '2048' });
    const admin = await tenantWithAdmin(server);
    const { token } = await scimConnection(server, admin);
    const refusals = [
      await scim(server, token, 'GET', '/Users/%01x'),
      await scim(server, token, 'GET', '/Users?filter=%0D'),
      await scim(server, token, 'POST', '/Users', oktaUser(uniqueEmail('ctl'), { displayName: 'A\u0007B' })),
      await scim(server, token, 'POST', '/Groups', { schemas: [SCHEMA_GROUP], displayName: 'x'.repeat(4096) }),
    ];
    expect(refusals.map((r) => [r.status, r.headers.get('content-type'), r.body.schemas, r.body.status])).toEqual([
      [400, 'application/scim+json', [SCHEMA_ERROR], '400'],
      [400, 'application/scim+json', [SCHEMA_ERROR], '400'],
      [400, 'application/scim+json', [SCHEMA_ERROR], '400'],
      [413, 'application/scim+json', [SCHEMA_ERROR], '413'],
    ]);
    expect(refusals[0]!.body).toMatchObject({ scimType: 'invalidValue', detail: expect.stringContaining('control characters') });
    const elsewhere = await callAs(server, admin, 'GET', `${ProvisioningPaths.scim2Configurations}?x=%01`);
    expect([elsewhere.status, elsewhere.headers.get('content-type')?.startsWith('application/json'), elsewhere.body.errorCode]).toEqual([400, true, 'ER-01001']);
  });
});
