import { expect, it } from 'vitest';
import { findUserById } from '../../db/queries/users';
import { addUserToTenant } from '../../db/queries/tenants';
import { createTenantWithRoles } from '../admin/tenants';
import { describeDialects, signUpAndActivate } from '../../test/harness';
import { countStatements } from '../../test/statement-counter';
import { tenantsOfUser } from './memberships';

describeDialects('memberships shared by one request', (h) => {
  it("reads a user row's tenants once, again for another row of the same user, and again once this server wrote a membership", async () => {
    const server = await h.start();
    const user = await signUpAndActivate(server);
    const row = (await findUserById(server.db, user.userId))!;
    const now = Date.now();
    const first = await countStatements(server.db, async () => {
      expect((await tenantsOfUser(server.db, row, now)).map((t) => t.id)).toEqual([user.tenantId]);
      expect((await tenantsOfUser(server.db, row, now)).map((t) => t.id)).toEqual([user.tenantId]);
    });
    expect(first.total).toBe(1);
    const otherRow = (await findUserById(server.db, user.userId))!;
    expect((await countStatements(server.db, () => tenantsOfUser(server.db, otherRow, now))).total).toBe(1);

    const { tenantId: joined } = await createTenantWithRoles(server.db, 'Joined later', now);
    await addUserToTenant(server.db, user.userId, joined, now + 1);
    const after = await countStatements(server.db, async () => {
      expect((await tenantsOfUser(server.db, row, now + 2)).map((t) => t.id).sort()).toEqual([user.tenantId, joined].sort());
    });
    expect(after.total).toBe(1);
  });
});
