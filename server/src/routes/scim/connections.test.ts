import { Permissions, ProvisioningErrorCodes, ProvisioningPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { sha256 } from '../../crypto';
import { auditsOf, callAs, memberWithoutPermissions, pathOf, superUser, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects, movableClock } from '../../test/harness';
import { createScimRequestLog } from '../../services/scim/request-log';

describeDialects('SCIM provisioning connections', (harness) => {
  const start = (clock = movableClock()) => harness.start({}, { clock });

  it('creates a connection with { source } answering { id, source, token, createdAt } once, stores only the hash, and lists it without the token', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    const created = await callAs(server, admin, 'POST', ProvisioningPaths.scim2Configurations, { body: { source: 'okta' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ source: 'okta', createdAt: new Date(clock.now()).toISOString(), baseUrl: `${server.config.publicUrl}/scim/v2` });
    expect(created.body.token).toMatch(new RegExp(`^ghscim\\.${created.body.id}\\.[A-Za-z0-9_-]{43}$`));

    const row = await server.db.selectFrom('scim_connections').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.body.token.split('.')[2]);
    expect(row.token_hash).toBe(sha256(created.body.token.split('.')[2]));

    const listed = await callAs(server, admin, 'GET', ProvisioningPaths.scim2Configurations);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([{ id: created.body.id, source: 'okta', createdAt: created.body.createdAt, rotatedAt: null, usersCount: 0, groupsCount: 0, baseUrl: created.body.baseUrl }]);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.token.split('.')[2]);

    const audits = await auditsOf(server, admin.tenantId);
    expect(audits.map((a) => a.action)).toContain('SCIM connection created');
    expect(JSON.stringify(audits)).not.toContain(created.body.token.split('.')[2]);
  });

  it('refuses a source outside frontegg, okta, azure-ad and other, naming the field, and creates nothing', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    for (const body of [{ source: 'google' }, {}, { source: 'okta', extra: 1 }]) {
      const res = await callAs(server, admin, 'POST', ProvisioningPaths.scim2Configurations, { body });
      expect(res.status).toBe(400);
      expect(res.body.errors.join(' ')).toMatch(/source|extra|Unrecognized/);
    }
    for (const source of ['frontegg', 'azure-ad', 'other']) expect((await callAs(server, admin, 'POST', ProvisioningPaths.scim2Configurations, { body: { source } })).status).toBe(201);
    expect((await callAs(server, admin, 'GET', ProvisioningPaths.scim2Configurations)).body.items.map((c: { source: string }) => c.source).sort()).toEqual(['azure-ad', 'frontegg', 'other']);
  });

  it('refuses an 11th connection of a tenant with 409 ER-02503 and creates nothing; another tenant is not counted', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    for (let i = 0; i < 10; i += 1) expect((await callAs(server, admin, 'POST', ProvisioningPaths.scim2Configurations, { body: { source: 'other' } })).status).toBe(201);
    const refused = await callAs(server, admin, 'POST', ProvisioningPaths.scim2Configurations, { body: { source: 'okta' } });
    expect([refused.status, refused.body.errorCode]).toEqual([409, ProvisioningErrorCodes.tooManyConnections]);
    expect(refused.body.errors[0]).toContain('at most 10 provisioning connections');
    expect((await callAs(server, admin, 'GET', ProvisioningPaths.scim2Configurations)).body.items).toHaveLength(10);
    const other = await tenantWithAdmin(server, 'other');
    expect((await callAs(server, other, 'POST', ProvisioningPaths.scim2Configurations, { body: { source: 'okta' } })).status).toBe(201);
  });

  it('rotates the token: a new one answered once, rotatedAt set, the stored hash replaced; audited without either token', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    const created = (await callAs(server, admin, 'POST', ProvisioningPaths.scim2Configurations, { body: { source: 'azure-ad' } })).body;
    clock.advance(60_000);
    const rotated = await callAs(server, admin, 'POST', pathOf(ProvisioningPaths.scim2ConfigurationToken, { id: created.id }));
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({ id: created.id, token: expect.stringMatching(/^ghscim\./), rotatedAt: new Date(clock.now()).toISOString() });
    expect(rotated.body.token).not.toBe(created.token);
    const row = await server.db.selectFrom('scim_connections').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(rotated.body.token.split('.')[2]));
    const listed = (await callAs(server, admin, 'GET', ProvisioningPaths.scim2Configurations)).body.items[0];
    expect(listed.rotatedAt).toBe(rotated.body.rotatedAt);
    const audits = JSON.stringify(await auditsOf(server, admin.tenantId));
    expect(audits).toContain('SCIM token rotated');
    for (const t of [created.token, rotated.body.token]) expect(audits).not.toContain(t.split('.')[2]);
    expect((await callAs(server, admin, 'POST', pathOf(ProvisioningPaths.scim2ConfigurationToken, { id: 'missing' }))).status).toBe(404);
  });

  it('deletes a connection (audited), and 404 for an unknown one or a bad deleteAll value leaves it be', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const created = (await callAs(server, admin, 'POST', ProvisioningPaths.scim2Configurations, { body: { source: 'other' } })).body;
    const one = pathOf(ProvisioningPaths.scim2Configuration, { id: created.id });
    expect((await callAs(server, admin, 'DELETE', `${one}?deleteAll=yes`)).status).toBe(400);
    expect((await callAs(server, admin, 'GET', ProvisioningPaths.scim2Configurations)).body.items).toHaveLength(1);
    expect((await callAs(server, admin, 'DELETE', one)).status).toBe(204);
    expect((await callAs(server, admin, 'DELETE', one)).status).toBe(404);
    expect((await callAs(server, admin, 'GET', ProvisioningPaths.scim2Configurations)).body.items).toEqual([]);
    const deleted = (await auditsOf(server, admin.tenantId)).find((a) => a.action === 'SCIM connection deleted');
    expect(JSON.parse(deleted!.json!)).toMatchObject({ connectionId: created.id, deleteAll: false });
  });

  it('pages the request log newest first with its total, and keeps only the newest requests of each connection', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const a = (await callAs(server, admin, 'POST', ProvisioningPaths.scim2Configurations, { body: { source: 'okta' } })).body;
    const b = (await callAs(server, admin, 'POST', ProvisioningPaths.scim2Configurations, { body: { source: 'okta' } })).body;
    // The log as the server builds it, with a small size so the drop is cheap to prove.
    const log = createScimRequestLog({ db: server.db, keep: 5 });
    for (let i = 0; i < 8; i += 1) await log.record({ connectionId: a.id, method: 'GET', path: `/scim/v2/Users/${i}`, status: 200, startedAt: 1_000 + i, finishedAt: 1_003 + i });
    await log.record({ connectionId: b.id, method: 'POST', path: '/scim/v2/Users', status: 409, startedAt: 500, finishedAt: 501, error: 'userName taken' });
    const page = await callAs(server, admin, 'GET', `${pathOf(ProvisioningPaths.scim2ConfigurationRequests, { id: a.id })}?offset=1&limit=2`);
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(5);
    expect(page.body.items.map((r: { path: string }) => r.path)).toEqual(['/scim/v2/Users/6', '/scim/v2/Users/5']);
    expect(page.body.items[0]).toMatchObject({ method: 'GET', status: 200, durationMs: 3, createdAt: new Date(1_006).toISOString(), diff: null, error: null });
    const other = await callAs(server, admin, 'GET', pathOf(ProvisioningPaths.scim2ConfigurationRequests, { id: b.id }));
    expect(other.body).toMatchObject({ total: 1, items: [{ status: 409, error: 'userName taken' }] });
    expect((await callAs(server, admin, 'GET', `${pathOf(ProvisioningPaths.scim2ConfigurationRequests, { id: a.id })}?limit=101`)).status).toBe(400);
    expect((await callAs(server, admin, 'GET', pathOf(ProvisioningPaths.scim2ConfigurationRequests, { id: 'missing' }))).status).toBe(404);
  });

  it('needs fe.secure.read/write.provisioningConfiguration: 403 without, and another tenant\'s admin finds nothing; a super user may act in any tenant', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    const created = (await callAs(server, admin, 'POST', ProvisioningPaths.scim2Configurations, { body: { source: 'okta' } })).body;
    const plain = await memberWithoutPermissions(server, admin.tenantId);
    const denied = await callAs(server, plain, 'GET', ProvisioningPaths.scim2Configurations, { tenantId: admin.tenantId });
    expect([denied.status, denied.body.errorCode]).toEqual([403, 'ER-01005']);
    expect(denied.body.errors.join(' ')).toContain(Permissions.provisioningRead);
    // Another tenant's admin: their own list is empty, and A's connection is not found from there.
    expect((await callAs(server, other, 'GET', ProvisioningPaths.scim2Configurations)).body.items).toEqual([]);
    expect((await callAs(server, other, 'POST', pathOf(ProvisioningPaths.scim2ConfigurationToken, { id: created.id }))).status).toBe(404);
    expect((await callAs(server, other, 'DELETE', pathOf(ProvisioningPaths.scim2Configuration, { id: created.id }))).status).toBe(404);
    expect((await callAs(server, other, 'GET', ProvisioningPaths.scim2Configurations, { tenantId: admin.tenantId })).status).toBe(404);
    const root = await superUser(server);
    expect((await callAs(server, root, 'GET', ProvisioningPaths.scim2Configurations, { tenantId: admin.tenantId })).body.items.map((c: { id: string }) => c.id)).toEqual([created.id]);
  });
});
