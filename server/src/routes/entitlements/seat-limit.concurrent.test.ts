import { ApiPaths, BillingErrorCodes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, tenantWithAdmin } from '../../test/admin-helpers';
import { insertPlan, subscribe } from '../../test/entitlement-helpers';
import { describeDialects, uniqueEmail } from '../../test/harness';

describeDialects('seat limits under concurrent joins', (harness) => {
  it('six parallel invitations for the last free seat: one is invited, five are refused (ER-03009), the tenant ends at its limit', async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    await subscribe(server, admin.tenantId, await insertPlan(server, { seatLimit: 2 }));
    const results = await Promise.all(
      Array.from({ length: 6 }, () => callAs(server, admin, 'POST', ApiPaths.inviteUser, { body: { email: uniqueEmail('racer'), name: 'Racer' } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 403, 403, 403, 403, 403]);
    expect(results.filter((r) => r.status === 403).every((r) => r.body.errorCode === BillingErrorCodes.seatLimitReached)).toBe(true);
    const members = await server.db.selectFrom('user_tenants').select('user_id').where('tenant_id', '=', admin.tenantId).execute();
    expect(members).toHaveLength(2);
  });
});
