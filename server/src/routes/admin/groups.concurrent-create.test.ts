/**
 * Regression: eight identical group creates at once answered 500 on PostgreSQL (`duplicate key value
 * violates unique constraint`): all passed the name check before any insert committed. The
 * (tenant_id, name) index decides now, and every loser gets the duplicate's 409.
 */
import { AdminPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';

describeDialects('admin groups: concurrent identical creates', (harness) => {
  it('answers one 201 and seven 409 (group name taken), never a 500 (concurrent group create bug)', async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    const results = await Promise.all(Array.from({ length: 8 }, () => callAs(server, admin, 'POST', AdminPaths.groups, { body: { name: 'Support desk' } })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of results.filter((r) => r.status === 409)) {
      expect(refused.body).toEqual({ errors: ['A group named Support desk already exists in this account'], errorCode: 'ER-02404' });
    }
    const groups = await server.db.selectFrom('groups').select('id').where('tenant_id', '=', admin.tenantId).where('name', '=', 'Support desk').execute();
    expect(groups).toHaveLength(1);
  });
});
