import type { Db } from '..';
import type { Selectable } from 'kysely';
import type { SubscriptionsTable } from '../schema-billing';
import { precompiled, type Params } from '../precompiled';

export type SubscriptionRow = Selectable<SubscriptionsTable>;

/** Statuses whose subscription's plan is the tenant's plan. */
const LIVE_STATUSES = ['active', 'trialing'];

/** The tenant's newest subscription (the managed one), or undefined. */
export async function findCurrentSubscription(db: Db, tenantId: string): Promise<SubscriptionRow | undefined> {
  return (await currentSubscription(db, { tenantId })).rows[0];
}

const currentSubscription = precompiled((db, p: Params<{ tenantId: string }>) =>
  db.selectFrom('subscriptions').selectAll().where('tenant_id', '=', p.tenantId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1),
);

const vendorPlanOptions = precompiled((db) => db.selectFrom('vendor_billing_config').select(['default_plan_id', 'trial_end_option']).where('id', '=', 'vendor'));

/**
 * The plan that decides a tenant's entitlements and seat limit (one rule for billing and
 * entitlements): its current subscription's plan while active or trialing; after a trial ends
 * unpaid, the trial's plan when the vendor's trial-end option is retain_trial; otherwise the
 * vendor's default plan (auto-granted to every tenant without a live subscription); null when
 * there is none.
 */
export async function findEffectivePlanId(db: Db, tenantId: string): Promise<{ planId: string | null; source: 'subscription' | 'trial' | 'default' | 'none'; subscriptionId: string | null }> {
  const [subscription, vendor] = await Promise.all([
    findCurrentSubscription(db, tenantId),
    vendorPlanOptions(db, {}).then((r) => r.rows[0]),
  ]);
  if (subscription?.plan_id && LIVE_STATUSES.includes(subscription.status)) {
    return { planId: subscription.plan_id, source: 'subscription', subscriptionId: subscription.id };
  }
  if (subscription?.plan_id && subscription.status === 'trialEnded' && vendor?.trial_end_option === 'retain_trial') {
    return { planId: subscription.plan_id, source: 'trial', subscriptionId: subscription.id };
  }
  if (vendor?.default_plan_id) return { planId: vendor.default_plan_id, source: 'default', subscriptionId: null };
  return { planId: null, source: 'none', subscriptionId: null };
}
