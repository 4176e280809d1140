import { ApiTokenPaths, BillingErrorCodes, BillingPaths, OAuthPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { auditsOf, callAs, inviteMember, memberWithoutPermissions, roleIdByKey, tenantWithAdmin } from '../../test/admin-helpers';
import { insertFeature, insertPlan, subscribe } from '../../test/entitlement-helpers';
import { call, describeDialects } from '../../test/harness';

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

async function tenantOnPlan(server: GatehouseServer) {
  const admin = await tenantWithAdmin(server);
  const reports = unique('reports');
  const exports = unique('exports');
  const unlimited = unique('unlimited');
  const planId = await insertPlan(server, {
    seatLimit: 20,
    features: { [await insertFeature(server, reports)]: 5, [await insertFeature(server, exports)]: 100, [await insertFeature(server, unlimited)]: null },
  });
  await subscribe(server, admin.tenantId, planId);
  return { admin, planId, reports, exports, unlimited };
}

describeDialects('usage of the plan', (harness) => {
  it("GET answers the plan, seats used of its limit (members and open invitations) and each limited feature's use", async () => {
    const server = await harness.start();
    const { admin, planId, reports, exports } = await tenantOnPlan(server);
    await inviteMember(server, admin);
    const res = await callAs(server, admin, 'GET', BillingPaths.usage);
    expect(res.status).toBe(200);
    expect(res.body.planId).toBe(planId);
    expect(res.body.seats).toEqual({ used: 2, limit: 20 });
    expect([...res.body.features].sort((a: any, b: any) => (a.key < b.key ? -1 : 1))).toEqual(
      [
        { key: reports, name: `Feature ${reports}`, used: 0, limit: 5 },
        { key: exports, name: `Feature ${exports}`, used: 0, limit: 100 },
      ].sort((a, b) => (a.key < b.key ? -1 : 1)),
    );
  });

  it('POST adds use up to the limit; past it 403 ER-03012 with { limit, used } and nothing changes; a negative quantity releases (never below 0); unlimited features count without a cap', async () => {
    const server = await harness.start();
    const { admin, reports, unlimited } = await tenantOnPlan(server);
    const report = (featureKey: string, quantity: number) => callAs(server, admin, 'POST', BillingPaths.usage, { body: { featureKey, quantity } });
    const used = async (key: string) => ((await callAs(server, admin, 'GET', BillingPaths.usage)).body.features as any[]).find((f) => f.key === key)?.used;

    const first = await report(reports, 3);
    expect(first.status).toBe(200);
    expect(first.body.features.find((f: any) => f.key === reports).used).toBe(3);
    const refused = await report(reports, 3);
    expect([refused.status, refused.body.errorCode]).toEqual([403, BillingErrorCodes.featureLimitReached]);
    expect(refused.body.errorContext).toMatchObject({ featureKey: reports, limit: 5, used: 3 });
    expect(await used(reports)).toBe(3);
    expect((await report(reports, 2)).status).toBe(200);
    expect(await used(reports)).toBe(5);
    // Each accepted report is audited with the use before and after; the refused one is not.
    const audits = (await auditsOf(server, admin.tenantId)).filter((a) => a.action === 'Usage reported');
    expect(audits.map((a) => JSON.parse(a.json!))).toEqual([
      { featureKey: reports, quantity: 2, old: { used: 3 }, new: { used: 5 } },
      { featureKey: reports, quantity: 3, old: { used: 0 }, new: { used: 3 } },
    ]);
    expect(audits[0]!.user_id).toBe(admin.userId);
    expect((await report(reports, -10)).status).toBe(200);
    expect(await used(reports)).toBe(0);

    expect((await report(unlimited, 1_000_000)).status).toBe(200);
    const notInPlan = await report(unique('nope'), 1);
    expect([notInPlan.status, notInPlan.body.errorCode]).toEqual([403, BillingErrorCodes.featureLimitReached]);
  });

  it('POST refuses a bad body with a 400 naming the field', async () => {
    const server = await harness.start();
    const { admin, reports } = await tenantOnPlan(server);
    for (const [body, field] of [
      [{ featureKey: reports }, 'quantity'],
      [{ featureKey: '', quantity: 1 }, 'featureKey'],
      [{ featureKey: reports, quantity: 1.5 }, 'quantity'],
      [{ featureKey: reports, quantity: 1, extra: true }, 'extra'],
    ] as const) {
      const res = await callAs(server, admin, 'POST', BillingPaths.usage, { body });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.errors)).toContain(field);
    }
  });

  it('a member without fe.usage.read / fe.subscriptions.write gets 403; another tenant sees and changes nothing; a tenant API token whose role holds fe.subscriptions.write reports', async () => {
    const server = await harness.start();
    const { admin, reports } = await tenantOnPlan(server);
    const plain = await memberWithoutPermissions(server, admin.tenantId);
    expect((await callAs(server, plain, 'GET', BillingPaths.usage, { tenantId: admin.tenantId })).status).toBe(403);
    expect((await callAs(server, plain, 'POST', BillingPaths.usage, { tenantId: admin.tenantId, body: { featureKey: reports, quantity: 1 } })).status).toBe(403);
    const other = await tenantWithAdmin(server, 'other');
    expect((await callAs(server, other, 'POST', BillingPaths.usage, { tenantId: admin.tenantId, body: { featureKey: reports, quantity: 1 } })).status).toBe(404);
    // Their own tenant has no plan: the feature is not theirs.
    expect((await callAs(server, other, 'POST', BillingPaths.usage, { body: { featureKey: reports, quantity: 1 } })).status).toBe(403);

    const token = (await callAs(server, admin, 'POST', ApiTokenPaths.tenantApiTokens, { body: { description: 'metering', roleIds: [await roleIdByKey(server, admin, 'Admin')] } })).body;
    const exchanged = await call(server, 'POST', OAuthPaths.token, {
      rawBody: new URLSearchParams({ grant_type: 'client_credentials', client_id: token.clientId, client_secret: token.secret }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const viaToken = await call(server, 'POST', BillingPaths.usage, { token: exchanged.body.access_token, body: { featureKey: reports, quantity: 4 } });
    expect(viaToken.status).toBe(200);
    expect((await callAs(server, admin, 'GET', BillingPaths.usage)).body.features.find((f: any) => f.key === reports).used).toBe(4);
  });
});
