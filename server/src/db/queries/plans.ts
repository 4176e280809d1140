/** Plans and the features they grant (issue 13, migration 028): the Operator area's CRUD. */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '..';
import { changesOf } from '../patch';
import type { PlansTable } from '../schema-billing';

export type PlanRow = Selectable<PlansTable>;

/** One feature a plan grants, by key, with its typed limit (null: unlimited). */
export interface PlanFeatureRow {
  plan_id: string;
  feature_id: string;
  feature_key: string;
  limit_value: number | null;
}

/** Every plan, active or not, by name. */
export function listPlans(db: Db): Promise<PlanRow[]> {
  return db.selectFrom('plans').selectAll().orderBy('name').orderBy('id').execute();
}

export function findPlan(db: Db, id: string): Promise<PlanRow | undefined> {
  return db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findPlanBySlug(db: Db, slug: string): Promise<PlanRow | undefined> {
  return db.selectFrom('plans').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function insertPlan(db: Db, row: Insertable<PlansTable>): Promise<void> {
  await db.insertInto('plans').values(row).execute();
}

export async function updatePlan(db: Db, id: string, patch: Updateable<PlansTable>): Promise<void> {
  const changes = changesOf(patch);
  if (!changes) return;
  await db.updateTable('plans').set(changes).where('id', '=', id).execute();
}

export async function deletePlan(db: Db, id: string): Promise<boolean> {
  const res = await db.deleteFrom('plans').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** The features of the given plans, by plan then feature key. */
export async function listPlanFeatures(db: Db, planIds: string[]): Promise<PlanFeatureRow[]> {
  if (planIds.length === 0) return [];
  return db
    .selectFrom('plan_features')
    .innerJoin('features', 'features.id', 'plan_features.feature_id')
    .select(['plan_features.plan_id', 'plan_features.feature_id', 'features.key as feature_key', 'plan_features.limit_value'])
    .where('plan_features.plan_id', 'in', planIds)
    .orderBy('plan_features.plan_id')
    .orderBy('features.key')
    .execute();
}

/** Replaces the features a plan grants. */
export async function setPlanFeatures(db: Db, planId: string, features: { featureId: string; limit: number | null }[]): Promise<void> {
  await db.deleteFrom('plan_features').where('plan_id', '=', planId).execute();
  if (features.length === 0) return;
  await db.insertInto('plan_features').values(features.map((f) => ({ plan_id: planId, feature_id: f.featureId, limit_value: f.limit }))).execute();
}

/** How many subscriptions (any status, kept as billing history) name the plan. */
export async function countPlanSubscriptions(db: Db, planId: string): Promise<number> {
  const row = await db.selectFrom('subscriptions').select((eb) => eb.fn.countAll<string | number>().as('n')).where('plan_id', '=', planId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The vendor's default plan id (auto-granted to tenants without a live subscription), or null. */
export async function findDefaultPlanId(db: Db): Promise<string | null> {
  const row = await db.selectFrom('vendor_billing_config').select('default_plan_id').where('id', '=', 'vendor').executeTakeFirst();
  return row?.default_plan_id ?? null;
}
