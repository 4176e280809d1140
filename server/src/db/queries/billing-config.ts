/** The vendor's billing configuration: one row, id 'vendor' (migration 028). Secrets are stored as given (sealed by the caller). */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '..';
import type { VendorBillingConfigTable } from '../schema-billing';

export type BillingConfigRow = Selectable<VendorBillingConfigTable>;
export const VENDOR_CONFIG_ID = 'vendor';

/** The vendor's row, or undefined before an operator saved one. */
export function findBillingConfig(db: Db): Promise<BillingConfigRow | undefined> {
  return db.selectFrom('vendor_billing_config').selectAll().where('id', '=', VENDOR_CONFIG_ID).executeTakeFirst();
}

/** Creates or replaces the vendor's row. */
export async function saveBillingConfig(db: Db, row: Omit<Insertable<VendorBillingConfigTable>, 'id'>): Promise<void> {
  const values = { ...row, id: VENDOR_CONFIG_ID };
  await db
    .insertInto('vendor_billing_config')
    .values(values)
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...row }))
    .execute();
}
