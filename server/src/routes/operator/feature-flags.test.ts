import { OperatorPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { auditsOf, callAs, pathOf, superUser, type TenantAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';

const flagPath = (id: string) => pathOf(OperatorPaths.featureFlag, { id });
const fresh = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

async function features(server: GatehouseServer, root: TenantAdmin, n: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await callAs(server, root, 'POST', OperatorPaths.features, { body: { key: fresh('f'), name: `Feature ${i}` } });
    expect(res.status).toBe(201);
    keys.push(res.body.key);
  }
  return keys;
}

const betaRule = { conditionLogic: 'and', treatment: 'true', conditions: [{ attribute: 'frontegg.email', op: 'ends_with', value: { list: ['@beta.example', '@preview.example'] }, negate: false }, { attribute: 'signedUp', op: 'on_or_after', value: { date: '2026-01-01T00:00:00Z' }, negate: false }] };

describeDialects('operator feature flags', (h) => {
  it('lets a super user create, list, read, change and delete a flag with rules and linked features, each change audited with old and new values', async () => {
    const server = await h.start();
    const root = await superUser(server);
    const [a, b] = await features(server, root, 2);
    const key = fresh('beta');
    const created = await callAs(server, root, 'POST', OperatorPaths.featureFlags, { body: { key, name: 'Beta', on: true, defaultTreatment: 'false', rules: [betaRule], featureKeys: [a] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ key, name: 'Beta', description: '', on: true, offTreatment: 'false', defaultTreatment: 'false', rules: [betaRule], featureKeys: [a] });
    const id = created.body.id as string;
    expect((await callAs(server, root, 'GET', OperatorPaths.featureFlags)).body).toEqual([created.body]);
    expect((await callAs(server, root, 'GET', flagPath(id))).body).toEqual(created.body);

    const changed = await callAs(server, root, 'PATCH', flagPath(id), { body: { on: false, offTreatment: 'true', rules: [], featureKeys: [b, a] } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ on: false, offTreatment: 'true', rules: [], featureKeys: [a, b].sort() });

    expect((await callAs(server, root, 'DELETE', flagPath(id))).status).toBe(204);
    expect((await callAs(server, root, 'GET', flagPath(id))).status).toBe(404);
    // The features stay, free to be linked again.
    expect((await callAs(server, root, 'POST', OperatorPaths.featureFlags, { body: { key: fresh('again'), name: 'Again', on: true, featureKeys: [a, b] } })).status).toBe(201);

    const audits = (await auditsOf(server, root.tenantId)).filter((r) => r.action.startsWith('operator.feature-flag.')).reverse();
    expect(audits.map((r) => r.action)).toEqual(['operator.feature-flag.created', 'operator.feature-flag.updated', 'operator.feature-flag.deleted', 'operator.feature-flag.created']);
    expect(JSON.parse(audits[1]!.json!)).toMatchObject({ flagId: id, old: { on: true, featureKeys: [a] }, new: { on: false, featureKeys: [a, b].sort() } });
  });

  it('refuses linking a feature another flag holds with a 409 naming both, a taken key (409 ER-04003), unknown features (400 naming the index) and misfit rule operands (400 ER-04005)', async () => {
    const server = await h.start();
    const root = await superUser(server);
    const [a, b] = await features(server, root, 2);
    const first = (await callAs(server, root, 'POST', OperatorPaths.featureFlags, { body: { key: fresh('first'), name: 'First', on: true, featureKeys: [a] } })).body;
    const second = (await callAs(server, root, 'POST', OperatorPaths.featureFlags, { body: { key: fresh('second'), name: 'Second', on: true, featureKeys: [b] } })).body;

    const held = await callAs(server, root, 'PATCH', flagPath(second.id), { body: { featureKeys: [b, a] } });
    expect(held.status).toBe(409);
    expect(held.body).toMatchObject({ errorCode: 'ER-04006', errorContext: { field: 'featureKeys[1]', featureKey: a, flagKey: first.key } });
    expect(held.body.errors[0]).toContain(`feature "${a}" is already linked to the feature flag "${first.key}"`);
    const heldOnCreate = await callAs(server, root, 'POST', OperatorPaths.featureFlags, { body: { key: fresh('third'), name: 'Third', on: true, featureKeys: [a] } });
    expect([heldOnCreate.status, heldOnCreate.body.errorCode]).toEqual([409, 'ER-04006']);
    // Saving a flag with its own features again is no conflict.
    expect((await callAs(server, root, 'PATCH', flagPath(first.id), { body: { featureKeys: [a] } })).status).toBe(200);

    const taken = await callAs(server, root, 'POST', OperatorPaths.featureFlags, { body: { key: first.key, name: 'Dup', on: false } });
    expect([taken.status, taken.body.errorCode]).toEqual([409, 'ER-04003']);
    const unknown = await callAs(server, root, 'POST', OperatorPaths.featureFlags, { body: { key: fresh('x'), name: 'X', on: false, featureKeys: ['ghost'] } });
    expect([unknown.status, unknown.body.errors]).toEqual([400, ['featureKeys[0]: no feature with the key "ghost"']]);

    for (const [condition, message] of [
      [{ attribute: 'x', op: 'matches', value: { string: '([' }, negate: false }, 'rules[0].conditions[0]: matches: "([" is not a valid regular expression'],
      [{ attribute: 'x', op: 'between_numeric', value: { start: 5, end: 1 }, negate: false }, 'rules[0].conditions[0]: between_numeric: start must not be greater than end'],
      [{ attribute: 'x', op: 'on', value: { date: 'yesterday' }, negate: false }, 'rules[0].conditions[0]: on takes { date: an ISO 8601 date: YYYY-MM-DD, '],
      [{ attribute: 'x', op: 'in_list', value: { list: [] }, negate: false }, 'rules[0].conditions[0]: in_list: the list is empty, so the condition could never hold'],
      [{ attribute: 'x', op: 'matches', value: { string: '(a+)+$' }, negate: false }, 'rules[0].conditions[0]: matches: the pattern is refused because it could backtrack for too long'],
      [{ attribute: 'frontegg.email', op: 'ends_with', value: { string: '@example.com' }, negate: false }, 'rules[0].conditions[0]: ends_with takes { list: [strings] }'],
    ] as const) {
      const res = await callAs(server, root, 'PATCH', flagPath(first.id), { body: { rules: [{ conditionLogic: 'and', treatment: 'true', conditions: [condition] }] } });
      expect([res.status, res.body.errorCode], message).toEqual([400, 'ER-04005']);
      expect(res.body.errors[0].startsWith(message), res.body.errors[0]).toBe(true);
    }
    const missingOn = await callAs(server, root, 'POST', OperatorPaths.featureFlags, { body: { key: fresh('y'), name: 'Y' } });
    expect([missingOn.status, missingOn.body.errors[0]]).toEqual([400, expect.stringMatching(/^on: /)]);

    expect((await callAs(server, root, 'GET', flagPath(first.id))).body).toMatchObject({ rules: [], featureKeys: [a] });
    expect((await callAs(server, root, 'GET', flagPath(second.id))).body.featureKeys).toEqual([b]);
  });
});
