/** A tenant's Stripe customer (migration 028: billing_customers). */
import type { Db } from '..';

/** The tenant's Stripe customer id, or undefined. */
export async function findCustomerId(db: Db, tenantId: string): Promise<string | undefined> {
  const row = await db.selectFrom('billing_customers').select('external_id').where('tenant_id', '=', tenantId).executeTakeFirst();
  return row?.external_id;
}

/** The tenant a Stripe customer belongs to, or undefined (a customer made elsewhere is nobody's here). */
export async function findTenantOfCustomer(db: Db, customerId: string): Promise<string | undefined> {
  const row = await db.selectFrom('billing_customers').select('tenant_id').where('external_id', '=', customerId).executeTakeFirst();
  return row?.tenant_id;
}

/** Records the tenant's customer unless one is already recorded; answers whether this one was stored. */
export async function insertCustomer(db: Db, tenantId: string, customerId: string, now: number): Promise<boolean> {
  const res = await db
    .insertInto('billing_customers')
    .values({ tenant_id: tenantId, external_id: customerId, created_at: now })
    .onConflict((oc) => oc.column('tenant_id').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}
