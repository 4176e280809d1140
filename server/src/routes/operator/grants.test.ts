import { OperatorPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { auditsOf, callAs, inviteMember, pathOf, superUser, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects, movableClock } from '../../test/harness';

const grantPath = (id: string) => pathOf(OperatorPaths.grant, { id });
const fresh = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

describeDialects('operator entitlement grants', (h) => {
  it('grants a feature to a tenant and to one member of it with an expiry, lists them by tenant and user, reads and deletes them, each change audited', async () => {
    const clock = movableClock();
    const server = await h.start({}, { clock });
    const root = await superUser(server);
    const tenant = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server);
    const member = await inviteMember(server, tenant);
    const key = (await callAs(server, root, 'POST', OperatorPaths.features, { body: { key: fresh('api'), name: 'API' } })).body.key as string;

    const toTenant = await callAs(server, root, 'POST', OperatorPaths.grants, { body: { featureKey: key, tenantId: tenant.tenantId } });
    expect(toTenant.status).toBe(201);
    expect(toTenant.body).toEqual({ id: expect.any(String), featureKey: key, tenantId: tenant.tenantId, userId: null, expiresAt: null, createdAt: clock.now() });
    const expiresAt = clock.now() + 86_400_000;
    const toUser = await callAs(server, root, 'POST', OperatorPaths.grants, { body: { featureKey: key, tenantId: tenant.tenantId, userId: member.userId, expiresAt } });
    expect(toUser.status).toBe(201);
    expect(toUser.body).toMatchObject({ userId: member.userId, expiresAt });
    const elsewhere = (await callAs(server, root, 'POST', OperatorPaths.grants, { body: { featureKey: key, tenantId: other.tenantId } })).body;

    const ids = async (query: string) => ((await callAs(server, root, 'GET', `${OperatorPaths.grants}${query}`)).body as { id: string }[]).map((g) => g.id).sort();
    expect(await ids('')).toEqual([toTenant.body.id, toUser.body.id, elsewhere.id].sort());
    expect(await ids(`?tenantId=${tenant.tenantId}`)).toEqual([toTenant.body.id, toUser.body.id].sort());
    expect(await ids(`?tenantId=${tenant.tenantId}&userId=${member.userId}`)).toEqual([toUser.body.id]);
    expect((await callAs(server, root, 'GET', grantPath(toUser.body.id))).body).toEqual(toUser.body);

    expect((await callAs(server, root, 'DELETE', grantPath(toUser.body.id))).status).toBe(204);
    expect((await callAs(server, root, 'DELETE', grantPath(toUser.body.id))).body.errorCode).toBe('ER-04004');
    expect(await ids(`?tenantId=${tenant.tenantId}`)).toEqual([toTenant.body.id]);

    // The clock stands still, so the records share one time: compared as a set.
    const audits = (await auditsOf(server, root.tenantId)).filter((a) => a.action.startsWith('operator.grant.'));
    expect(audits.map((a) => a.action).sort()).toEqual(['operator.grant.created', 'operator.grant.created', 'operator.grant.created', 'operator.grant.deleted']);
    expect(JSON.parse(audits.find((a) => a.action === 'operator.grant.deleted')!.json!)).toEqual({ grantId: toUser.body.id, old: toUser.body });
    // Recorded in the operator's tenant only: the tenants granted to see nothing of it.
    expect((await auditsOf(server, tenant.tenantId)).some((a) => a.action.startsWith('operator.'))).toBe(false);
  });

  it('refuses an unknown feature or tenant, a user who is not a member of that tenant, and an expiry in the past, each a 400 naming the field, granting nothing', async () => {
    const clock = movableClock();
    const server = await h.start({}, { clock });
    const root = await superUser(server);
    const tenant = await tenantWithAdmin(server);
    const stranger = await tenantWithAdmin(server);
    const key = (await callAs(server, root, 'POST', OperatorPaths.features, { body: { key: fresh('api'), name: 'API' } })).body.key as string;
    const attempts: [Record<string, unknown>, string][] = [
      [{ featureKey: 'ghost', tenantId: tenant.tenantId }, 'featureKey: no feature with the key "ghost"'],
      [{ featureKey: key, tenantId: 'no-such-tenant' }, 'tenantId: no such tenant'],
      [{ featureKey: key, tenantId: tenant.tenantId, userId: stranger.userId }, 'userId: the user is not a member of that tenant'],
      [{ featureKey: key, tenantId: tenant.tenantId, expiresAt: clock.now() - 1 }, 'expiresAt: must be in the future (epoch milliseconds)'],
    ];
    for (const [body, message] of attempts) {
      const res = await callAs(server, root, 'POST', OperatorPaths.grants, { body });
      expect([res.status, res.body.errors], JSON.stringify(body)).toEqual([400, [message]]);
    }
    const typed = await callAs(server, root, 'POST', OperatorPaths.grants, { body: { featureKey: key, tenantId: tenant.tenantId, expiresAt: 'tomorrow' } });
    expect([typed.status, typed.body.errors[0]]).toEqual([400, expect.stringMatching(/^expiresAt: /)]);
    const missing = await callAs(server, root, 'POST', OperatorPaths.grants, { body: { featureKey: key } });
    expect([missing.status, missing.body.errors[0]]).toEqual([400, expect.stringMatching(/^tenantId: /)]);
    // The file's database is shared by its tests: only this test's tenants are looked at.
    for (const tenantId of [tenant.tenantId, stranger.tenantId]) expect((await callAs(server, root, 'GET', `${OperatorPaths.grants}?tenantId=${tenantId}`)).body).toEqual([]);
  });
});
