/** Feature flags and the features they grant (issue 13, migration 028): the Operator area's CRUD. */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '..';
import { changesOf } from '../patch';
import type { FeatureFlagsTable } from '../schema-billing';

export type FeatureFlagRow = Selectable<FeatureFlagsTable>;

/** Every flag, by key. */
export function listFeatureFlags(db: Db): Promise<FeatureFlagRow[]> {
  return db.selectFrom('feature_flags').selectAll().orderBy('key').execute();
}

export function findFeatureFlag(db: Db, id: string): Promise<FeatureFlagRow | undefined> {
  return db.selectFrom('feature_flags').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findFeatureFlagByKey(db: Db, key: string): Promise<FeatureFlagRow | undefined> {
  return db.selectFrom('feature_flags').selectAll().where('key', '=', key).executeTakeFirst();
}

export async function insertFeatureFlag(db: Db, row: Insertable<FeatureFlagsTable>): Promise<void> {
  await db.insertInto('feature_flags').values(row).execute();
}

export async function updateFeatureFlag(db: Db, id: string, patch: Updateable<FeatureFlagsTable>): Promise<void> {
  const changes = changesOf(patch);
  if (!changes) return;
  await db.updateTable('feature_flags').set(changes).where('id', '=', id).execute();
}

/** Deletes the flag; its feature links go with it (ON DELETE CASCADE). */
export async function deleteFeatureFlag(db: Db, id: string): Promise<boolean> {
  const res = await db.deleteFrom('feature_flags').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** The features linked to the given flags (feature_flag_features), with their keys. */
export async function listFlagFeatures(db: Db, flagIds: string[]): Promise<{ flag_id: string; feature_id: string; feature_key: string }[]> {
  if (flagIds.length === 0) return [];
  return db
    .selectFrom('feature_flag_features')
    .innerJoin('features', 'features.id', 'feature_flag_features.feature_id')
    .select(['feature_flag_features.flag_id', 'feature_flag_features.feature_id', 'features.key as feature_key'])
    .where('feature_flag_features.flag_id', 'in', flagIds)
    .orderBy('features.key')
    .execute();
}

/** The flag each of the given features is linked to, if any (a feature has one flag at most). */
export async function findFlagLinks(db: Db, featureIds: string[]): Promise<{ feature_id: string; flag_id: string; flag_key: string }[]> {
  if (featureIds.length === 0) return [];
  return db
    .selectFrom('feature_flag_features')
    .innerJoin('feature_flags', 'feature_flags.id', 'feature_flag_features.flag_id')
    .select(['feature_flag_features.feature_id', 'feature_flag_features.flag_id', 'feature_flags.key as flag_key'])
    .where('feature_flag_features.feature_id', 'in', featureIds)
    .execute();
}

/** Replaces the features a flag grants. */
export async function setFlagFeatures(db: Db, flagId: string, featureIds: string[]): Promise<void> {
  await db.deleteFrom('feature_flag_features').where('flag_id', '=', flagId).execute();
  if (featureIds.length === 0) return;
  await db.insertInto('feature_flag_features').values(featureIds.map((featureId) => ({ flag_id: flagId, feature_id: featureId }))).execute();
}
