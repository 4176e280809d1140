/** A tenant's invoices, written from Stripe (migration 028). */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '..';
import type { InvoicesTable } from '../schema-billing';

export type InvoiceRecord = Selectable<InvoicesTable>;

/** The tenant's invoices, newest first. */
export function listInvoices(db: Db, tenantId: string): Promise<InvoiceRecord[]> {
  return db.selectFrom('invoices').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** One invoice of the tenant (another tenant's is never found). */
export function findInvoice(db: Db, tenantId: string, id: string): Promise<InvoiceRecord | undefined> {
  return db.selectFrom('invoices').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export function findInvoiceByExternalId(db: Db, externalId: string): Promise<InvoiceRecord | undefined> {
  return db.selectFrom('invoices').selectAll().where('external_id', '=', externalId).executeTakeFirst();
}

/** Inserts the invoice unless its Stripe id is already stored; answers whether it was inserted. */
export async function insertInvoice(db: Db, row: Insertable<InvoicesTable>): Promise<boolean> {
  const res = await db.insertInto('invoices').values(row).onConflict((oc) => oc.column('external_id').doNothing()).executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Applies a change from Stripe unless the row already holds a newer one (see updateSubscriptionFromSource). */
export async function updateInvoiceFromSource(db: Db, id: string, sourceTime: number, patch: Updateable<InvoicesTable>): Promise<boolean> {
  const res = await db
    .updateTable('invoices')
    .set({ ...patch, source_updated_at: sourceTime })
    .where('id', '=', id)
    .where('source_updated_at', '<=', sourceTime)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
