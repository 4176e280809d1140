/** CDN rollouts (issue 18, migration 042): each bundle's rollout row and its tenant pins. */
import type { Selectable } from 'kysely';
import type { Db } from '..';
import type { CdnPinsTable, CdnRolloutsTable } from '../schema-cdn';

export type CdnRolloutRow = Selectable<CdnRolloutsTable>;
export type CdnPinRow = Selectable<CdnPinsTable>;

export function listCdnRollouts(db: Db): Promise<CdnRolloutRow[]> {
  return db.selectFrom('cdn_rollouts').selectAll().orderBy('bundle').execute();
}

export function findCdnRollout(db: Db, bundle: string): Promise<CdnRolloutRow | undefined> {
  return db.selectFrom('cdn_rollouts').selectAll().where('bundle', '=', bundle).executeTakeFirst();
}

/** Every pin, by bundle then tenant. */
export function listCdnPins(db: Db, bundle?: string): Promise<CdnPinRow[]> {
  let query = db.selectFrom('cdn_pins').selectAll();
  if (bundle) query = query.where('bundle', '=', bundle);
  return query.orderBy('bundle').orderBy('tenant_id').execute();
}

export type CdnRolloutValues = Pick<CdnRolloutRow, 'default_version' | 'previous_version' | 'canary_version' | 'canary_percent'>;

/**
 * Writes a bundle's rollout if it is still at `revision` (0: no row yet). False when another change
 * came first (the caller reads again and retries).
 */
export async function saveCdnRollout(db: Db, bundle: string, revision: number, values: CdnRolloutValues, now: number): Promise<boolean> {
  if (revision === 0) {
    const inserted = await db
      .insertInto('cdn_rollouts')
      .values({ bundle, ...values, revision: 1, updated_at: now })
      .onConflict((oc) => oc.column('bundle').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
  }
  const updated = await db
    .updateTable('cdn_rollouts')
    .set({ ...values, revision: revision + 1, updated_at: now })
    .where('bundle', '=', bundle)
    .where('revision', '=', revision)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

export async function upsertCdnPin(db: Db, row: CdnPinRow): Promise<void> {
  await db
    .insertInto('cdn_pins')
    .values(row)
    .onConflict((oc) => oc.columns(['bundle', 'tenant_id']).doUpdateSet({ version: row.version, created_at: row.created_at }))
    .execute();
}

export async function deleteCdnPin(db: Db, bundle: string, tenantId: string): Promise<boolean> {
  const deleted = await db.deleteFrom('cdn_pins').where('bundle', '=', bundle).where('tenant_id', '=', tenantId).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** The ids among `ids` that are tenants. */
export async function existingTenantIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('tenants').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** The first super user (oldest account): the CLI's changes are audited in their tenant. */
export function firstSuperUser(db: Db): Promise<{ id: string; last_tenant_id: string | null } | undefined> {
  return db.selectFrom('users').select(['id', 'last_tenant_id']).where('super_user', '=', 1).orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
}
