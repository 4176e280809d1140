/**
 * Regression: eight identical role creates at once answered 500 on PostgreSQL (`duplicate key value
 * violates unique constraint`): all passed the key check before any insert committed. The
 * (tenant_id, key) index decides now, and every loser gets the duplicate's 409.
 */
import { AdminPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';

describeDialects('admin roles: concurrent identical creates', (harness) => {
  it('answers one 201 and seven 409 (role key taken), never a 500 (concurrent role create bug)', async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    const results = await Promise.all(Array.from({ length: 8 }, () => callAs(server, admin, 'POST', AdminPaths.rolesV1, { body: { key: 'Auditor', name: 'Auditor' } })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of results.filter((r) => r.status === 409)) {
      expect(refused.body).toEqual({ errors: ['A role with the key Auditor already exists in this account'], errorCode: 'ER-02403' });
    }
    const roles = await server.db.selectFrom('roles').select('id').where('tenant_id', '=', admin.tenantId).where('key', '=', 'Auditor').execute();
    expect(roles).toHaveLength(1);
  });
});
