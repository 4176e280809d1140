import { OperatorPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { auditsOf, callAs, pathOf, superUser, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';

const planPath = (id: string) => pathOf(OperatorPaths.plan, { id });
const fresh = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

async function feature(server: GatehouseServer, root: TenantAdmin, key = fresh('reports')) {
  const res = await callAs(server, root, 'POST', OperatorPaths.features, { body: { key, name: key } });
  expect(res.status).toBe(201);
  return res.body as { id: string; key: string };
}

const premium = (slug: string, extra: Record<string, unknown> = {}) => ({ name: 'Premium', description: 'Everything', slug, price: { amount: 10000, currency: 'usd' }, trialDays: 14, seatLimit: 20, ...extra });

describeDialects('operator plans', (h) => {
  it('lets a super user create, list (active or not), read, change and delete a plan, each change audited in their tenant with old and new values', async () => {
    const server = await h.start();
    const root = await superUser(server);
    const reports = await feature(server, root);
    const slug = fresh('premium');
    const created = await callAs(server, root, 'POST', OperatorPaths.plans, { body: premium(slug, { features: [{ featureKey: reports.key, limit: 1000 }], defaultTreatment: 'false', rules: [{ conditionLogic: 'and', treatment: 'true', conditions: [{ attribute: 'frontegg.email', op: 'ends_with', value: { list: ['@example.com'] }, negate: false }] }] }) });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Premium', slug, price: { amount: 10000, currency: 'usd' }, recurringInterval: 'month', trialDays: 14, seatLimit: 20, isActive: true, isDefault: false, features: [{ featureKey: reports.key, limit: 1000 }], defaultTreatment: 'false' });
    expect(created.body.rules).toHaveLength(1);
    const id = created.body.id as string;

    const inactive = await callAs(server, root, 'POST', OperatorPaths.plans, { body: premium(fresh('legacy'), { name: 'Legacy', isActive: false }) });
    expect([inactive.status, inactive.body.isActive, inactive.body.features, inactive.body.rules]).toEqual([201, false, [], null]);
    const listed = await callAs(server, root, 'GET', OperatorPaths.plans);
    expect(listed.status).toBe(200);
    expect((listed.body as { id: string }[]).map((p) => p.id)).toEqual([inactive.body.id, id]);
    expect((await callAs(server, root, 'GET', planPath(id))).body).toEqual(created.body);

    const changed = await callAs(server, root, 'PATCH', planPath(id), { body: { name: 'Premium+', features: [], seatLimit: null, rules: null } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, name: 'Premium+', slug, features: [], seatLimit: null, rules: null, price: { amount: 10000, currency: 'usd' } });

    expect((await callAs(server, root, 'DELETE', planPath(id))).status).toBe(204);
    expect((await callAs(server, root, 'GET', planPath(id))).body.errorCode).toBe('ER-04004');
    expect((await callAs(server, root, 'DELETE', planPath(id))).status).toBe(404);
    expect((await callAs(server, root, 'PATCH', planPath(id), { body: { name: 'x' } })).status).toBe(404);

    const audits = (await auditsOf(server, root.tenantId)).filter((a) => a.action.startsWith('operator.plan.')).reverse();
    expect(audits.map((a) => a.action)).toEqual(['operator.plan.created', 'operator.plan.created', 'operator.plan.updated', 'operator.plan.deleted']);
    expect(audits.every((a) => a.user_id === root.userId)).toBe(true);
    const update = JSON.parse(audits[2]!.json!);
    expect([update.old.name, update.new.name, update.old.features, update.new.features]).toEqual(['Premium', 'Premium+', [{ featureKey: reports.key, limit: 1000 }], []]);
    expect(JSON.parse(audits[3]!.json!).old).toMatchObject({ id, name: 'Premium+' });
  });

  it('refuses a taken slug (409 ER-04002), an unknown or repeated feature key and a bad body (400 naming the field), and a rule whose operand does not fit its operation (400 ER-04005 naming the rule and condition), saving nothing', async () => {
    const server = await h.start();
    const root = await superUser(server);
    const slug = fresh('basic');
    expect((await callAs(server, root, 'POST', OperatorPaths.plans, { body: premium(slug) })).status).toBe(201);
    const before = (await callAs(server, root, 'GET', OperatorPaths.plans)).body;

    const taken = await callAs(server, root, 'POST', OperatorPaths.plans, { body: premium(slug) });
    expect([taken.status, taken.body.errorCode]).toEqual([409, 'ER-04002']);
    expect(taken.body.errors[0]).toContain(`slug: a plan with the slug "${slug}" already exists`);

    const unknown = await callAs(server, root, 'POST', OperatorPaths.plans, { body: premium(fresh('p'), { features: [{ featureKey: 'no-such-feature' }] }) });
    expect([unknown.status, unknown.body.errors]).toEqual([400, ['features[0].featureKey: no feature with the key "no-such-feature"']]);
    const key = (await feature(server, root)).key;
    const twice = await callAs(server, root, 'POST', OperatorPaths.plans, { body: premium(fresh('p'), { features: [{ featureKey: key }, { featureKey: key }] }) });
    expect([twice.status, twice.body.errors[0]]).toEqual([400, `features[1].featureKey: "${key}" is listed twice`]);

    const bad = await callAs(server, root, 'POST', OperatorPaths.plans, { body: premium(fresh('p'), { price: { amount: -1, currency: 'USD' } }) });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.join(' ')).toMatch(/price\.amount/);
    expect(bad.body.errors.join(' ')).toMatch(/price\.currency/);
    const badSlug = await callAs(server, root, 'POST', OperatorPaths.plans, { body: premium('Not A Slug') });
    expect([badSlug.status, badSlug.body.errors[0]]).toEqual([400, expect.stringMatching(/^slug: /)]);
    expect((await callAs(server, root, 'POST', OperatorPaths.plans, { body: { ...premium(fresh('p')), stripePlanId: 'plan_x' } })).status).toBe(400);

    const rules = [
      { conditionLogic: 'and', treatment: 'true', conditions: [{ attribute: 'frontegg.tenantId', op: 'in_list', value: { list: ['t1'] }, negate: false }] },
      { conditionLogic: 'or', treatment: 'true', conditions: [{ attribute: 'a', op: 'is', value: { boolean: true }, negate: false }, { conditionLogic: 'and', conditions: [{ attribute: 'seats', op: 'greater_than', value: { number: '5' }, negate: false }] }] },
    ];
    const invalid = await callAs(server, root, 'POST', OperatorPaths.plans, { body: premium(fresh('p'), { rules }) });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ errorCode: 'ER-04005', errors: ['rules[1].conditions[1].conditions[0]: greater_than takes { number }'], errorContext: { field: 'rules', ruleIndex: 1, conditionIndex: [1, 0] } });
    const unknownOp = await callAs(server, root, 'POST', OperatorPaths.plans, { body: premium(fresh('p'), { rules: [{ conditionLogic: 'and', treatment: 'true', conditions: [{ attribute: 'a', op: 'sounds_like', value: {}, negate: false }] }] }) });
    expect([unknownOp.status, unknownOp.body.errors[0]]).toEqual([400, expect.stringMatching(/^rules\.0\.conditions\.0/)]);

    expect((await callAs(server, root, 'GET', OperatorPaths.plans)).body).toEqual(before);
  });

  it("clears the Stripe plan id when the price changes (Stripe's prices are immutable) and keeps both Stripe ids otherwise", async () => {
    const server = await h.start();
    const root = await superUser(server);
    const id = (await callAs(server, root, 'POST', OperatorPaths.plans, { body: premium(fresh('p')) })).body.id as string;
    // What the billing area stores once it made the Stripe product and plan.
    await server.db.updateTable('plans').set({ stripe_product_id: 'prod_1', stripe_plan_id: 'plan_1' }).where('id', '=', id).execute();
    const stripeIds = async () => server.db.selectFrom('plans').select(['stripe_product_id', 'stripe_plan_id']).where('id', '=', id).executeTakeFirstOrThrow();

    expect((await callAs(server, root, 'PATCH', planPath(id), { body: { name: 'Renamed', price: { amount: 10000, currency: 'usd' } } })).status).toBe(200);
    expect(await stripeIds()).toEqual({ stripe_product_id: 'prod_1', stripe_plan_id: 'plan_1' });
    expect((await callAs(server, root, 'PATCH', planPath(id), { body: { price: { amount: 12000, currency: 'usd' } } })).body.price).toEqual({ amount: 12000, currency: 'usd' });
    expect(await stripeIds()).toEqual({ stripe_product_id: 'prod_1', stripe_plan_id: null });
    await server.db.updateTable('plans').set({ stripe_plan_id: 'plan_2' }).where('id', '=', id).execute();
    expect((await callAs(server, root, 'PATCH', planPath(id), { body: { price: { amount: 12000, currency: 'eur' } } })).status).toBe(200);
    expect(await stripeIds()).toEqual({ stripe_product_id: 'prod_1', stripe_plan_id: null });
    const audit = (await auditsOf(server, root.tenantId)).find((a) => a.action === 'operator.plan.updated');
    expect(JSON.parse(audit!.json!)).toMatchObject({ stripePlanCleared: true, old: { price: { amount: 12000, currency: 'usd' } }, new: { price: { amount: 12000, currency: 'eur' } } });
  });

  it("refuses to delete or deactivate the vendor's default plan (409 ER-04006) and deactivates, instead of deleting, a plan a subscription names", async () => {
    const server = await h.start();
    const root = await superUser(server);
    const tenant = await tenantWithAdmin(server);
    const free = (await callAs(server, root, 'POST', OperatorPaths.plans, { body: premium(fresh('free'), { name: 'Free', price: { amount: 0, currency: 'usd' } }) })).body;
    const now = Date.now();
    await server.db.insertInto('vendor_billing_config').values({ id: 'vendor', default_plan_id: free.id, updated_at: now }).execute();
    expect((await callAs(server, root, 'GET', planPath(free.id))).body.isDefault).toBe(true);

    const deleting = await callAs(server, root, 'DELETE', planPath(free.id));
    expect([deleting.status, deleting.body.errorCode]).toEqual([409, 'ER-04006']);
    expect(deleting.body.errors[0]).toContain("is the vendor's default plan");
    const deactivating = await callAs(server, root, 'PATCH', planPath(free.id), { body: { isActive: false } });
    expect([deactivating.status, deactivating.body.errorCode]).toEqual([409, 'ER-04006']);
    expect((await callAs(server, root, 'GET', planPath(free.id))).body.isActive).toBe(true);

    const paid = (await callAs(server, root, 'POST', OperatorPaths.plans, { body: premium(fresh('premium')) })).body;
    await server.db.insertInto('subscriptions').values({ id: `sub-${paid.id}`, tenant_id: tenant.tenantId, plan_id: paid.id, status: 'canceled', created_at: now, updated_at: now }).execute();
    const removed = await callAs(server, root, 'DELETE', planPath(paid.id));
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ id: paid.id, isActive: false });
    expect((await callAs(server, root, 'GET', planPath(paid.id))).body.isActive).toBe(false);
    const sub = await server.db.selectFrom('subscriptions').select('plan_id').where('id', '=', `sub-${paid.id}`).executeTakeFirstOrThrow();
    expect(sub.plan_id).toBe(paid.id);
    const audit = (await auditsOf(server, root.tenantId)).find((a) => a.action === 'operator.plan.deactivated');
    expect(JSON.parse(audit!.json!)).toMatchObject({ planId: paid.id, subscriptions: 1, old: { isActive: true }, new: { isActive: false } });
  });
});
