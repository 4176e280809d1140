/**
 * The parts of an entitlements context that many users share, cached per process (issue 17): the
 * vendor's catalogue (targeting plans, flags and the features they may grant, permission-gating
 * features), each plan's features, and each tenant's effective plan. Every access token (sign-in,
 * refresh, tenant switch) reads them; the operator changes them rarely.
 *
 * The caches are table caches (services/platform/table-cache.ts): a write through this process to
 * one of the tables they read empties them at once; another process's write shows within 1,000 ms.
 * A user's own grants and permissions are not cached here.
 */
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import type { PlanFeatureRow } from '../../db/queries/entitlement-context';
import { createTableCache } from '../platform/table-cache';
import { directSource, type ContextSource, type VendorCatalogue } from './context';

/** How many tenants' plans, and how many plan sets' features, one process keeps. */
const TENANTS_KEPT = 10_000;
const PLAN_SETS_KEPT = 1_000;

export interface CachedContextSource extends ContextSource {
  /** Stops watching the database's writes (the server's close). */
  close(): void;
}

export function createCachedSource(deps: { db: Db; clock: Clock }): CachedContextSource {
  const { db, clock } = deps;
  const direct = directSource(db);
  const vendor = createTableCache<'vendor', VendorCatalogue>({ db, clock, max: 1, tables: ['plans', 'features', 'feature_flags', 'feature_flag_features'] });
  const plans = createTableCache<string, { planId: string | null }>({ db, clock, max: TENANTS_KEPT, tables: ['subscriptions', 'vendor_billing_config', 'plans'] });
  const planFeatures = createTableCache<string, PlanFeatureRow[]>({ db, clock, max: PLAN_SETS_KEPT, tables: ['plan_features', 'features', 'plans'] });
  return {
    vendor: () => vendor.get('vendor', direct.vendor),
    effectivePlanId: (tenantId) => plans.get(tenantId, async () => ({ planId: (await direct.effectivePlanId(tenantId)).planId })),
    planFeatures: (planIds) => (planIds.length === 0 ? Promise.resolve([]) : planFeatures.get([...planIds].sort().join('\n'), () => direct.planFeatures(planIds))),
    close() {
      vendor.close();
      plans.close();
      planFeatures.close();
    },
  };
}
