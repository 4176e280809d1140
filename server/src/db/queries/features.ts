/** Entitlement features (issue 13, migration 028): the Operator area's CRUD. */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '..';
import { changesOf } from '../patch';
import type { FeaturesTable } from '../schema-billing';

export type FeatureRow = Selectable<FeaturesTable>;

/** Every feature, by key. */
export function listFeatures(db: Db): Promise<FeatureRow[]> {
  return db.selectFrom('features').selectAll().orderBy('key').execute();
}

export function findFeature(db: Db, id: string): Promise<FeatureRow | undefined> {
  return db.selectFrom('features').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findFeatureByKey(db: Db, key: string): Promise<FeatureRow | undefined> {
  return db.selectFrom('features').selectAll().where('key', '=', key).executeTakeFirst();
}

/** The features of the given keys (unknown keys are simply absent). */
export async function findFeaturesByKeys(db: Db, keys: string[]): Promise<FeatureRow[]> {
  if (keys.length === 0) return [];
  return db.selectFrom('features').selectAll().where('key', 'in', keys).execute();
}

export async function insertFeature(db: Db, row: Insertable<FeaturesTable>): Promise<void> {
  await db.insertInto('features').values(row).execute();
}

export async function updateFeature(db: Db, id: string, patch: Updateable<FeaturesTable>): Promise<void> {
  const changes = changesOf(patch);
  if (!changes) return;
  await db.updateTable('features').set(changes).where('id', '=', id).execute();
}

/** Deletes the feature; its plan links, flag link and direct grants go with it (ON DELETE CASCADE). */
export async function deleteFeature(db: Db, id: string): Promise<boolean> {
  const res = await db.deleteFrom('features').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** What uses a feature: the plans that grant it, the flag that grants it, and its direct grants. */
export async function featureUsage(db: Db, id: string): Promise<{ planIds: string[]; flagId: string | null; grants: number }> {
  const [plans, flag, grants] = await Promise.all([
    db.selectFrom('plan_features').select('plan_id').where('feature_id', '=', id).orderBy('plan_id').execute(),
    db.selectFrom('feature_flag_features').select('flag_id').where('feature_id', '=', id).executeTakeFirst(),
    db.selectFrom('entitlement_grants').select((eb) => eb.fn.countAll<string | number>().as('n')).where('feature_id', '=', id).executeTakeFirst(),
  ]);
  return { planIds: plans.map((p) => p.plan_id), flagId: flag?.flag_id ?? null, grants: Number(grants?.n ?? 0) };
}
