/**
 * A user's entitlements context (seed 000 section 7.1): the features of the tenant's effective plan,
 * direct grants to the tenant and to the user, features of plans with targeting rules, and features
 * that feature flags may grant; plus the user's permissions in the tenant. Each feature remembers
 * where its expiry came from (plan or grant id) so `explain` can name it.
 */
import { NO_EXPIRATION, permissionCovers, type EntitlementsContext, type FeatureEntitlement, type FlagDefinition, type Rule } from '@gatehouse/shared/entitlements';
import type { Db } from '../../db';
import { listFlagFeatures, listFlags, listGrantsFor, listPermissionLinkedFeatures, listPlanFeatures, listTargetingPlans, type FlagRow, type GrantRow, type PlanFeatureRow } from '../../db/queries/entitlement-context';
import { findEffectivePlanId } from '../../db/queries/tenant-plan';
import { loadAuthorization } from '../admin/tenants';

/** Where a feature's expiry came from. */
export type FeatureOrigin = { kind: 'plan'; planId: string } | { kind: 'grant'; grantId: string } | { kind: 'none' };

export interface BuiltFeature extends FeatureEntitlement {
  /** The typed limit the effective plan sets, null: unlimited, absent: not from the plan. */
  limit?: number | null;
}

export interface BuiltContext {
  context: EntitlementsContext & { features: Record<string, BuiltFeature> };
  /** Per feature key: where its current expireTime came from. */
  origins: Record<string, FeatureOrigin>;
  /** Per feature key: the key of the flag that may grant it. */
  flagKeys: Record<string, string>;
  planId: string | null;
}

/** Parses a JSON column the operator API wrote; a broken value counts as none (never throws on a request). */
function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** The flag as the evaluator reads it. */
export function flagDefinition(row: FlagRow): FlagDefinition {
  const rules = parseJson<Rule[]>(row.rules, []);
  return { key: row.key, on: row.is_on === 1, offTreatment: row.off_treatment, defaultTreatment: row.default_treatment, ...(Array.isArray(rules) && rules.length > 0 ? { rules } : {}) };
}

/**
 * Is expiry `a` better than `b`? No expiry (-1) beats every date, a later date beats an earlier one,
 * and any date beats not entitled (null).
 */
function laterExpiry(a: number | null, b: number | null): boolean {
  if (a === null) return false;
  if (b === null) return true;
  if (b === NO_EXPIRATION) return false;
  return a === NO_EXPIRATION || a > b;
}

/** The vendor-wide rows a context reads, the same for every user and tenant. */
export interface VendorCatalogue {
  targeting: Awaited<ReturnType<typeof listTargetingPlans>>;
  flags: FlagRow[];
  flagFeatures: Awaited<ReturnType<typeof listFlagFeatures>>;
  gating: Awaited<ReturnType<typeof listPermissionLinkedFeatures>>;
}

/** Where buildContext reads what is not the user's own: straight from the database, or through a cache (catalogue.ts). */
export interface ContextSource {
  vendor(): Promise<VendorCatalogue>;
  effectivePlanId(tenantId: string): Promise<{ planId: string | null }>;
  planFeatures(planIds: readonly string[]): Promise<PlanFeatureRow[]>;
}

/** Reads every part from `db` each time. */
export function directSource(db: Db): ContextSource {
  return {
    vendor: async () => {
      const [targeting, flags, flagFeatures, gating] = await Promise.all([listTargetingPlans(db), listFlags(db), listFlagFeatures(db), listPermissionLinkedFeatures(db)]);
      return { targeting, flags, flagFeatures, gating };
    },
    effectivePlanId: (tenantId) => findEffectivePlanId(db, tenantId),
    planFeatures: (planIds) => listPlanFeatures(db, planIds),
  };
}

/** Builds the entitlements context of `userId` in `tenantId`. */
export async function buildContext(
  db: Db,
  userId: string,
  tenantId: string,
  /** `grants`: listGrantsFor's answer when the caller has just read it (a refresh reads it with its session). */
  options: { permissions?: boolean; source?: ContextSource; grants?: readonly GrantRow[] } = {},
): Promise<BuiltContext> {
  const withPermissions = options.permissions !== false;
  const source = options.source ?? directSource(db);
  const [effective, grants, vendor, authz] = await Promise.all([
    source.effectivePlanId(tenantId),
    options.grants ?? listGrantsFor(db, tenantId, userId),
    source.vendor(),
    // Feature checks never read permissions (the token's claim): skipped there.
    withPermissions ? loadAuthorization(db, userId, tenantId) : Promise.resolve({ permissions: [] }),
  ]);
  const { flags, flagFeatures } = vendor;
  const gating = withPermissions ? vendor.gating : [];
  const planId = effective.planId;
  const targetingPlans = vendor.targeting.filter((p) => {
    const rules = parseJson<Rule[]>(p.rules, []);
    return Array.isArray(rules) && rules.length > 0;
  });
  const planFeatures = await source.planFeatures([...new Set([...(planId ? [planId] : []), ...targetingPlans.map((p) => p.id)])]);

  const features: Record<string, BuiltFeature> = {};
  const origins: Record<string, FeatureOrigin> = {};
  const flagKeys: Record<string, string> = {};
  const feature = (key: string, linkedPermissions: string): BuiltFeature => {
    // Own properties only: a feature key such as "constructor" must not find Object.prototype's.
    let f = Object.hasOwn(features, key) ? features[key] : undefined;
    if (!f) {
      const linked = parseJson<unknown>(linkedPermissions, []);
      f = { planIds: [], expireTime: null, linkedPermissions: Array.isArray(linked) ? linked.filter((p): p is string => typeof p === 'string') : [] };
      features[key] = f;
      origins[key] = { kind: 'none' };
    }
    return f;
  };

  for (const row of planFeatures) {
    const f = feature(row.key, row.linked_permissions);
    if (!f.planIds.includes(row.plan_id)) f.planIds.push(row.plan_id);
    if (row.plan_id === planId) {
      f.expireTime = NO_EXPIRATION;
      f.limit = row.limit_value;
      origins[row.key] = { kind: 'plan', planId };
    }
  }
  for (const grant of grants) {
    const f = feature(grant.key, grant.linked_permissions);
    const expiry = grant.expires_at ?? NO_EXPIRATION;
    if (laterExpiry(expiry, f.expireTime)) {
      f.expireTime = expiry;
      origins[grant.key] = { kind: 'grant', grantId: grant.id };
    }
  }
  const flagById = new Map(flags.map((f) => [f.id, f]));
  for (const link of flagFeatures) {
    const flag = flagById.get(link.flag_id);
    if (!flag) continue;
    const f = feature(link.key, link.linked_permissions);
    // One flag per feature: the first by flag key (listFlags order) when several are linked.
    if (f.featureFlag) continue;
    f.featureFlag = flagDefinition(flag);
    flagKeys[link.key] = flag.key;
  }

  // Seed 000 section 6: a permission linked to a feature the user lacks is not entitled. The
  // evaluator only knows a link through the features it is given, so every feature gating a
  // permission the user holds is listed, not entitled (expireTime null) when no source gives it;
  // otherwise the permission would look unlinked, hence entitled. Features gating only permissions
  // the user lacks stay out (those permissions are MISSING_PERMISSION anyway).
  const held = authz.permissions.map((p) => p.key);
  for (const row of gating) {
    if (Object.hasOwn(features, row.key)) continue;
    const linked = parseJson<unknown>(row.linked_permissions, []);
    if (!Array.isArray(linked) || !linked.some((p) => typeof p === 'string' && held.some((h) => permissionCovers(h, p)))) continue;
    feature(row.key, row.linked_permissions);
  }

  const plans: EntitlementsContext['plans'] = {};
  for (const p of targetingPlans) plans[p.id] = { defaultTreatment: p.default_treatment, rules: parseJson<Rule[]>(p.rules, []) };
  const permissions: Record<string, true> = {};
  for (const p of authz.permissions) permissions[p.key] = true;
  return { context: { features, plans, permissions }, origins, flagKeys, planId };
}
