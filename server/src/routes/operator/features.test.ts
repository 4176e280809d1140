import { OperatorPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { auditsOf, callAs, pathOf, superUser, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';

const featurePath = (id: string) => pathOf(OperatorPaths.feature, { id });
const fresh = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

describeDialects('operator features', (h) => {
  it('lets a super user create, list, read, change and delete a feature with its linked permissions, each change audited with old and new values', async () => {
    const server = await h.start();
    const root = await superUser(server);
    const key = fresh('sso');
    const created = await callAs(server, root, 'POST', OperatorPaths.features, { body: { key, name: 'SSO', description: 'Single sign-on', linkedPermissions: ['fe.secure.*', 'fe.secure.read.sso', 'fe.secure.*'] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ key, name: 'SSO', description: 'Single sign-on', linkedPermissions: ['fe.secure.*', 'fe.secure.read.sso'] });
    const id = created.body.id as string;
    expect((await callAs(server, root, 'GET', OperatorPaths.features)).body).toEqual([created.body]);
    expect((await callAs(server, root, 'GET', featurePath(id))).body).toEqual(created.body);

    const changed = await callAs(server, root, 'PATCH', featurePath(id), { body: { name: 'Enterprise SSO', linkedPermissions: [] } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, key, name: 'Enterprise SSO', linkedPermissions: [] });
    expect((await callAs(server, root, 'PATCH', featurePath(id), { body: {} })).status).toBe(200);

    expect((await callAs(server, root, 'DELETE', featurePath(id))).status).toBe(204);
    const gone = await callAs(server, root, 'GET', featurePath(id));
    expect([gone.status, gone.body.errorCode]).toEqual([404, 'ER-04004']);

    const audits = (await auditsOf(server, root.tenantId)).filter((a) => a.action.startsWith('operator.feature.')).reverse();
    expect(audits.map((a) => a.action)).toEqual(['operator.feature.created', 'operator.feature.updated', 'operator.feature.updated', 'operator.feature.deleted']);
    expect(JSON.parse(audits[1]!.json!)).toMatchObject({ featureId: id, old: { name: 'SSO', linkedPermissions: ['fe.secure.*', 'fe.secure.read.sso'] }, new: { name: 'Enterprise SSO', linkedPermissions: [] } });
  });

  it('refuses a taken key (409 ER-04003) on create and rename, and a bad body with 400 naming the field', async () => {
    const server = await h.start();
    const root = await superUser(server);
    const a = (await callAs(server, root, 'POST', OperatorPaths.features, { body: { key: fresh('a'), name: 'A' } })).body;
    const b = (await callAs(server, root, 'POST', OperatorPaths.features, { body: { key: fresh('b'), name: 'B' } })).body;
    const taken = await callAs(server, root, 'POST', OperatorPaths.features, { body: { key: a.key, name: 'Again' } });
    expect([taken.status, taken.body.errorCode, taken.body.errors[0]]).toEqual([409, 'ER-04003', `key: a feature with the key "${a.key}" already exists`]);
    const renamed = await callAs(server, root, 'PATCH', featurePath(b.id), { body: { key: a.key } });
    expect([renamed.status, renamed.body.errorCode]).toEqual([409, 'ER-04003']);
    expect((await callAs(server, root, 'GET', featurePath(b.id))).body.key).toBe(b.key);

    const badKey = await callAs(server, root, 'POST', OperatorPaths.features, { body: { key: 'has space', name: 'x' } });
    expect([badKey.status, badKey.body.errors[0]]).toEqual([400, expect.stringMatching(/^key: /)]);
    const noName = await callAs(server, root, 'POST', OperatorPaths.features, { body: { key: fresh('c') } });
    expect([noName.status, noName.body.errors[0]]).toEqual([400, expect.stringMatching(/^name: /)]);
    const extra = await callAs(server, root, 'POST', OperatorPaths.features, { body: { key: fresh('c'), name: 'C', id: 'mine' } });
    expect(extra.status).toBe(400);
    expect((await callAs(server, root, 'GET', OperatorPaths.features)).body).toHaveLength(2);
  });

  it('deleting a feature removes it from the plans, the flag and the direct grants that gave it, and the audit record lists them', async () => {
    const server = await h.start();
    const root = await superUser(server);
    const tenant = await tenantWithAdmin(server);
    const key = fresh('exports');
    const featureId = (await callAs(server, root, 'POST', OperatorPaths.features, { body: { key, name: 'Exports' } })).body.id as string;
    const plan = (await callAs(server, root, 'POST', OperatorPaths.plans, { body: { name: 'Pro', slug: fresh('pro'), price: { amount: 100, currency: 'usd' }, features: [{ featureKey: key }] } })).body;
    const flag = (await callAs(server, root, 'POST', OperatorPaths.featureFlags, { body: { key: fresh('flag'), name: 'Flag', on: true, featureKeys: [key] } })).body;
    const grant = (await callAs(server, root, 'POST', OperatorPaths.grants, { body: { featureKey: key, tenantId: tenant.tenantId } })).body;
    expect([plan.features, flag.featureKeys, grant.featureKey]).toEqual([[{ featureKey: key, limit: null }], [key], key]);

    expect((await callAs(server, root, 'DELETE', featurePath(featureId))).status).toBe(204);
    expect((await callAs(server, root, 'GET', pathOf(OperatorPaths.plan, { id: plan.id }))).body.features).toEqual([]);
    expect((await callAs(server, root, 'GET', pathOf(OperatorPaths.featureFlag, { id: flag.id }))).body.featureKeys).toEqual([]);
    expect((await callAs(server, root, 'GET', pathOf(OperatorPaths.grant, { id: grant.id }))).status).toBe(404);
    const audit = (await auditsOf(server, root.tenantId)).find((a) => a.action === 'operator.feature.deleted');
    expect(JSON.parse(audit!.json!).unlinked).toEqual({ planIds: [plan.id], flagId: flag.id, grants: 1 });
  });
});
