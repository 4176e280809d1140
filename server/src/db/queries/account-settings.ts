import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index';
import { changesOf } from '../patch';
import type { TenantAccountSettingsTable, TenantLogosTable } from '../schema-account';

export type AccountSettingsRow = Selectable<TenantAccountSettingsTable>;
export type TenantLogoRow = Selectable<TenantLogosTable>;

export function findAccountSettings(db: Db, tenantId: string): Promise<AccountSettingsRow | undefined> {
  return db.selectFrom('tenant_account_settings').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
}

/** Writes the tenant's row: inserts it on the first save, else updates the given columns (none given: keeps it). */
export async function upsertAccountSettings(db: Db, row: Insertable<TenantAccountSettingsTable>, patch: Updateable<TenantAccountSettingsTable>): Promise<void> {
  const changes = changesOf(patch);
  await db
    .insertInto('tenant_account_settings')
    .values(row)
    .onConflict((oc) => (changes ? oc.column('tenant_id').doUpdateSet(changes) : oc.column('tenant_id').doNothing()))
    .execute();
}

export async function updateTenantNameAndUrl(db: Db, tenantId: string, patch: { name?: string; application_url?: string | null }): Promise<void> {
  const changes = changesOf(patch);
  if (!changes) return;
  await db.updateTable('tenants').set(changes).where('id', '=', tenantId).execute();
}

export async function insertTenantLogo(db: Db, row: Insertable<TenantLogosTable>): Promise<void> {
  await db.insertInto('tenant_logos').values(row).execute();
}

export function findTenantLogo(db: Db, id: string): Promise<TenantLogoRow | undefined> {
  return db.selectFrom('tenant_logos').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Drops the tenant's logos other than the current one (a replaced logo's URL then answers 404). */
export async function deleteTenantLogosExcept(db: Db, tenantId: string, keepId: string | null): Promise<void> {
  let query = db.deleteFrom('tenant_logos').where('tenant_id', '=', tenantId);
  if (keepId) query = query.where('id', '!=', keepId);
  await query.execute();
}
