/** What billing reads of the operator's plans (the operator's CRUD is plans.ts): the active plans, and the Stripe ids made lazily. */
import type { Selectable } from 'kysely';
import type { Db } from '..';
import type { PlansTable } from '../schema-billing';

export type PlanRecord = Selectable<PlansTable>;

/** The active plans, cheapest first, then by name. */
export function listActivePlans(db: Db): Promise<PlanRecord[]> {
  return db.selectFrom('plans').selectAll().where('is_active', '=', 1).orderBy('price_amount', 'asc').orderBy('name', 'asc').execute();
}

export function findPlan(db: Db, id: string): Promise<PlanRecord | undefined> {
  return db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findPlanByStripePlanId(db: Db, stripePlanId: string): Promise<PlanRecord | undefined> {
  return db.selectFrom('plans').selectAll().where('stripe_plan_id', '=', stripePlanId).executeTakeFirst();
}

/** Stores the Stripe product and plan made for a plan, unless another call stored them first; answers the ids the row holds. */
export async function setStripeIds(db: Db, id: string, productId: string, stripePlanId: string, now: number): Promise<{ productId: string; stripePlanId: string }> {
  await db.updateTable('plans').set({ stripe_product_id: productId, stripe_plan_id: stripePlanId, updated_at: now }).where('id', '=', id).where('stripe_plan_id', 'is', null).execute();
  const row = await db.selectFrom('plans').select(['stripe_product_id', 'stripe_plan_id']).where('id', '=', id).executeTakeFirstOrThrow();
  return { productId: row.stripe_product_id ?? productId, stripePlanId: row.stripe_plan_id ?? stripePlanId };
}

/** The features a plan grants, with their limits, for the plan cards. */
export function planFeatures(db: Db, planIds: string[]) {
  if (planIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('plan_features')
    .innerJoin('features', 'features.id', 'plan_features.feature_id')
    .select(['plan_features.plan_id as planId', 'features.key as key', 'features.name as name', 'plan_features.limit_value as limit'])
    .where('plan_features.plan_id', 'in', planIds)
    .orderBy('features.key')
    .execute();
}
