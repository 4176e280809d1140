import type { Kysely, Migration } from 'kysely';

/**
 * Sub-accounts (seed 001 sections 3 "Account", 6, 7 "Tenants: Hierarchy, Sub-tenants"; issue 5).
 *
 * - `tenants.parent_tenant_id`: the parent account (null for a top-level tenant), indexed for the
 *   children of one parent page by page. No ON DELETE: a tenant with children cannot be deleted
 *   (services/sub-accounts.ts refuses with 409), so no subtree ever disappears by accident.
 * - `tenants.sub_account_access_type`: how the tenant's own users reach its descendants
 *   (`defaultOff`: only users granted one by one; `defaultOn`: everyone unless revoked; `alwaysOn`).
 * - `tenants.tenant_type`: customer, spam, test, reseller or headquarter.
 * - `user_tenants.sub_account_access`: the per-user override of the tenant's access type
 *   (null: follow the type; 1: granted; 0: revoked). Ignored under `alwaysOn`.
 *
 * The permission keys fe.account-hierarchy.read.subAccount / write.subAccount are already in the
 * shared catalogue (services/tenants.ts seeds it on every start), so no rows are added here.
 */
export const subAccountsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('tenants').addColumn('parent_tenant_id', 'text', (c) => c.references('tenants.id')).execute();
    await db.schema.alterTable('tenants').addColumn('sub_account_access_type', 'text', (c) => c.notNull().defaultTo('defaultOn')).execute();
    await db.schema.alterTable('tenants').addColumn('tenant_type', 'text', (c) => c.notNull().defaultTo('customer')).execute();
    await db.schema.alterTable('user_tenants').addColumn('sub_account_access', 'integer').execute();
    await db.schema.createIndex('tenants_by_parent').on('tenants').columns(['parent_tenant_id', 'name', 'id']).execute();
  },

  async down(db: Kysely<any>) {
    await db.schema.dropIndex('tenants_by_parent').execute();
    await db.schema.alterTable('user_tenants').dropColumn('sub_account_access').execute();
    for (const column of ['tenant_type', 'sub_account_access_type', 'parent_tenant_id']) await db.schema.alterTable('tenants').dropColumn(column).execute();
  },
};
