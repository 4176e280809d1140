/** A tenant's use of its plan's limited features (feature_usage, migration 028). */
import type { Db } from '..';

/** The tenant's recorded use per feature key. */
export async function listFeatureUsage(db: Db, tenantId: string): Promise<Map<string, number>> {
  const rows = await db.selectFrom('feature_usage').select(['feature_key', 'used']).where('tenant_id', '=', tenantId).execute();
  return new Map(rows.map((r) => [r.feature_key, Number(r.used)]));
}

/**
 * Adds `quantity` to the tenant's use of a feature in one conditional statement, so parallel
 * reports cannot pass `limit` together (null: no limit). Use never drops below 0. Answers false,
 * changing nothing, when the addition would pass the limit.
 */
export async function addFeatureUsage(db: Db, tenantId: string, featureKey: string, quantity: number, limit: number | null, now: number): Promise<boolean> {
  await db
    .insertInto('feature_usage')
    .values({ tenant_id: tenantId, feature_key: featureKey, used: 0, updated_at: now })
    .onConflict((oc) => oc.columns(['tenant_id', 'feature_key']).doNothing())
    .execute();
  let update = db
    .updateTable('feature_usage')
    .set((eb) => ({
      used: eb.case().when(eb('used', '+', quantity), '<', 0).then(0).else(eb('used', '+', quantity)).end(),
      updated_at: now,
    }))
    .where('tenant_id', '=', tenantId)
    .where('feature_key', '=', featureKey);
  // Releasing use is always allowed; adding stays within the limit.
  if (limit !== null && quantity > 0) update = update.where((eb) => eb(eb('used', '+', quantity), '<=', limit));
  const res = await update.executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
