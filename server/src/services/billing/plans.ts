/** The active plans as tenants see them (GET plans/v1: `[{ id, name, description, slug, price: { amount, currency }, recurringInterval: "month" }]`, issue 13), with the features they grant. */
import { RECURRING_INTERVAL, type PublicPlan } from '@gatehouse/shared/wire';
import type { Db } from '../../db';
import { findPlan, listActivePlans, planFeatures, type PlanRecord } from '../../db/queries/billing-plans';
import { AppError } from '../../errors';
import { BillingErrorCodes } from '@gatehouse/shared/wire';

export interface PlanService {
  list(): Promise<PublicPlan[]>;
  get(id: string): Promise<PublicPlan>;
}

export function createPlanService(deps: { db: Db }): PlanService {
  const toWire = async (plans: PlanRecord[]): Promise<PublicPlan[]> => {
    const features = await planFeatures(deps.db, plans.map((p) => p.id));
    return plans.map((p) => ({
      id: p.id,
      name: p.name,
      description: p.description,
      slug: p.slug,
      price: { amount: Number(p.price_amount), currency: p.currency },
      recurringInterval: RECURRING_INTERVAL,
      trialDays: Number(p.trial_days),
      seatLimit: p.seat_limit === null ? null : Number(p.seat_limit),
      features: features.filter((f) => f.planId === p.id).map((f) => ({ key: f.key, name: f.name, limit: f.limit === null ? null : Number(f.limit) })),
    }));
  };
  return {
    async list() {
      return toWire(await listActivePlans(deps.db));
    },
    async get(id) {
      const plan = await findPlan(deps.db, id);
      if (!plan || plan.is_active !== 1) throw new AppError(BillingErrorCodes.planNotFound, 404, 'Plan not found');
      return (await toWire([plan]))[0]!;
    },
  };
}
