/**
 * Regression: eight invite link creates at once answered 500 on PostgreSQL (`duplicate key value
 * violates unique constraint`): all found no live link before any insert committed. The
 * one-link-per-tenant index decides now, and every loser gets the duplicate's 409.
 */
import { AdminPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';

describeDialects('admin invite links: concurrent creates', (harness) => {
  it('answers one 201 and seven 409 (invite link exists), never a 500 (concurrent invite link create bug)', async () => {
    const server = await harness.start({ GATEHOUSE_KEY_ENCRYPTION_KEY: 'ab'.repeat(32) });
    const admin = await tenantWithAdmin(server);
    const results = await Promise.all(Array.from({ length: 8 }, () => callAs(server, admin, 'POST', AdminPaths.inviteLink, { body: {} })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of results.filter((r) => r.status === 409)) {
      expect(refused.body).toEqual({ errors: ['This account already has an invite link; update or delete it'], errorCode: 'ER-02408' });
    }
    const winner = results.find((r) => r.status === 201)!;
    expect((await callAs(server, admin, 'GET', AdminPaths.inviteLink)).body).toEqual(winner.body);
  });
});
