/**
 * Regression: `PATCH /tenants/resources/sub-tenants/v1/{id}` with `{}` answered 500 on both
 * dialects (Kysely `updateTable().set({})`: `syntax error at or near "where"`). An empty PATCH is a
 * no-op now: 200 with the account unchanged, nothing written or audited.
 */
import { SubAccountPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { auditsOf, callAs, pathOf, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';

describeDialects('admin sub-accounts: an empty PATCH', (harness) => {
  it('answers 200 with the account unchanged instead of a 500 from an UPDATE without SET (sub-tenant PATCH {} bug)', async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server, 'parent');
    const created = await callAs(server, admin, 'POST', SubAccountPaths.subTenants, { body: { name: 'Child', metadata: '{"a":1}' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const path = pathOf(SubAccountPaths.subTenant, { subTenantId: created.body.tenantId });
    const before = (await auditsOf(server, admin.tenantId)).length;

    const res = await callAs(server, admin, 'PATCH', path, { body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ tenantId: created.body.tenantId, name: 'Child', metadata: '{"a":1}' });
    expect((await auditsOf(server, admin.tenantId)).length).toBe(before);
    // A real change still goes through.
    const renamed = await callAs(server, admin, 'PATCH', path, { body: { name: 'Renamed' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Renamed');
  });
});
