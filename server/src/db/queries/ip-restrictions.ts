/** SQL of IP restrictions (migration 025): a tenant's allow and block entries and its config, always by tenant. */
import type { Db } from '..';
import { precompiled, type Params } from '../precompiled';
import type { IpRestrictionConfigsTable, IpRestrictionsTable } from '../schema-security';

export type IpRestrictionRow = IpRestrictionsTable;
export type IpRestrictionConfigRow = IpRestrictionConfigsTable;

/** A page of the tenant's entries, oldest first (stable across pages), and how many there are. */
export async function listIpRestrictions(db: Db, tenantId: string, offset: number, limit: number): Promise<{ rows: IpRestrictionRow[]; total: number }> {
  const rows = await db.selectFrom('ip_restrictions').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').offset(offset).limit(limit).execute();
  const count = await db.selectFrom('ip_restrictions').select((eb) => eb.fn.countAll<string | number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

/** Every entry of the tenant (the evaluation and the anti-lockout check read them all). */
export async function listAllIpRestrictions(db: Db, tenantId: string): Promise<IpRestrictionRow[]> {
  return db.selectFrom('ip_restrictions').selectAll().where('tenant_id', '=', tenantId).execute();
}

/** The tenant's active entries: only the columns a check needs (tenant_id leads the unique index). */
export async function listActiveIpRanges(db: Db, tenantId: string): Promise<Pick<IpRestrictionRow, 'ip' | 'strategy'>[]> {
  return db.selectFrom('ip_restrictions').select(['ip', 'strategy']).where('tenant_id', '=', tenantId).where('is_active', '=', 1).execute();
}

export async function findIpRestriction(db: Db, tenantId: string, id: string): Promise<IpRestrictionRow | undefined> {
  return db.selectFrom('ip_restrictions').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export async function findIpRestrictionByIp(db: Db, tenantId: string, ip: string, strategy: IpRestrictionRow['strategy']): Promise<IpRestrictionRow | undefined> {
  return db.selectFrom('ip_restrictions').selectAll().where('tenant_id', '=', tenantId).where('ip', '=', ip).where('strategy', '=', strategy).executeTakeFirst();
}

export async function insertIpRestriction(db: Db, row: IpRestrictionRow): Promise<void> {
  await db.insertInto('ip_restrictions').values(row).execute();
}

export async function updateIpRestriction(db: Db, tenantId: string, id: string, patch: Partial<Pick<IpRestrictionRow, 'ip' | 'is_active' | 'description' | 'strategy' | 'updated_at'>>): Promise<void> {
  await db.updateTable('ip_restrictions').set(patch).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

export async function deleteIpRestriction(db: Db, tenantId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('ip_restrictions').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function findIpRestrictionConfig(db: Db, tenantId: string): Promise<IpRestrictionConfigRow | undefined> {
  return (await ipRestrictionConfig(db, { tenantId })).rows[0];
}

const ipRestrictionConfig = precompiled((db, p: Params<{ tenantId: string }>) => db.selectFrom('ip_restriction_configs').selectAll().where('tenant_id', '=', p.tenantId));

/** Creates or replaces the tenant's config in one statement. */
export async function upsertIpRestrictionConfig(db: Db, row: IpRestrictionConfigRow): Promise<void> {
  await db
    .insertInto('ip_restriction_configs')
    .values(row)
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ is_active: row.is_active, strategy: row.strategy, updated_at: row.updated_at }))
    .execute();
}
