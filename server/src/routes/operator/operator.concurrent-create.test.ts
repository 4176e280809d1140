import { OperatorPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, superUser } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';

const fresh = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

/** Two operators saving the same unique name at once: the database's unique index decides, and the loser gets the area's 409, never a 500. */
describeDialects('operator concurrent creates', (h) => {
  it('answers one 201 and 409s with the right code when the same plan slug, feature key or flag key is saved at once, keeping one of each', async () => {
    const server = await h.start();
    const [a, b] = await Promise.all([superUser(server), superUser(server)]);
    const slug = fresh('race');
    const key = fresh('race');
    const flagKey = fresh('race');
    const bodies = [
      { path: OperatorPaths.plans, body: { name: 'Race', slug, price: { amount: 1, currency: 'usd' } }, code: 'ER-04002' },
      { path: OperatorPaths.features, body: { key, name: 'Race' }, code: 'ER-04003' },
      { path: OperatorPaths.featureFlags, body: { key: flagKey, name: 'Race', on: false }, code: 'ER-04003' },
    ];
    for (const { path, body, code } of bodies) {
      const results = await Promise.all([a, b, a, b].map((who) => callAs(server, who, 'POST', path, { body })));
      expect(results.map((r) => r.status).sort(), path).toEqual([201, 409, 409, 409]);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body.errorCode, path).toBe(code);
    }
    const plans = (await callAs(server, a, 'GET', OperatorPaths.plans)).body as { slug: string }[];
    expect(plans.filter((p) => p.slug === slug)).toHaveLength(1);
  });
});
