/**
 * Regression (sub-tenant PATCH {} answered 500): every query that writes a caller's patch does
 * nothing when the patch sets nothing, instead of sending an UPDATE without SET (invalid SQL on
 * both dialects). Undefined values count as unset: Kysely drops them from `.set()`.
 */
import { expect, it } from 'vitest';
import { tenantWithAdmin } from '../test/admin-helpers';
import { describeDialects } from '../test/harness';
import { upsertAccountSettings, updateTenantNameAndUrl } from './queries/account-settings';
import { updateCategory, updatePermission, updateTenantRole } from './queries/admin-roles';
import { updateMembershipState } from './queries/admin-users';
import { updateGroup } from './queries/groups';
import { updateInviteLink } from './queries/invite-links';
import { updateSsoConfiguration } from './queries/sso-configurations';
import { findAccount, updateAccount } from './queries/sub-accounts';
import { findUserById, updateUser } from './queries/users';

describeDialects('update queries with an empty patch', (harness) => {
  it('write nothing and do not fail when the patch is empty or all undefined (empty UPDATE SET bug)', async () => {
    const server = await harness.start();
    const { db } = server;
    const admin = await tenantWithAdmin(server);
    const tenant = await findAccount(db, admin.tenantId);
    const user = await findUserById(db, admin.userId);

    for (const patch of [{}, { name: undefined }]) {
      await expect(updateUser(db, admin.userId, patch)).resolves.toBeUndefined();
      await expect(updateAccount(db, admin.tenantId, patch)).resolves.toBeUndefined();
      await expect(updateTenantNameAndUrl(db, admin.tenantId, patch)).resolves.toBeUndefined();
      await expect(updateGroup(db, admin.tenantId, 'no-group', patch)).resolves.toBeUndefined();
      await expect(updateTenantRole(db, admin.tenantId, 'no-role', patch)).resolves.toBeUndefined();
      await expect(updatePermission(db, 'no-permission', patch)).resolves.toBeUndefined();
      await expect(updateCategory(db, 'no-category', patch)).resolves.toBeUndefined();
      await expect(updateSsoConfiguration(db, 'no-configuration', { enabled: undefined })).resolves.toBeUndefined();
    }
    await expect(updateInviteLink(db, admin.tenantId, { expires_at: undefined })).resolves.toBeUndefined();
    await expect(updateMembershipState(db, admin.tenantId, admin.userId, { expires_at: undefined })).resolves.toBeUndefined();
    // The upsert's conflict branch with nothing to update keeps the row (ON CONFLICT DO NOTHING).
    const row = { tenant_id: admin.tenantId, website: 'https://example.com/', address: null, timezone: 'UTC', date_format: 'DD/MM/YYYY', time_format: 'HH:mm', currency: 'USD', logo_id: null, login_title: null, login_color: null, updated_at: 1 };
    await upsertAccountSettings(db, row, {});
    await expect(upsertAccountSettings(db, { ...row, website: 'https://other.example/' }, { website: undefined })).resolves.toBeUndefined();
    expect((await db.selectFrom('tenant_account_settings').select('website').where('tenant_id', '=', admin.tenantId).executeTakeFirstOrThrow()).website).toBe('https://example.com/');

    expect(await findAccount(db, admin.tenantId)).toEqual(tenant);
    expect(await findUserById(db, admin.userId)).toEqual(user);
  });
});
