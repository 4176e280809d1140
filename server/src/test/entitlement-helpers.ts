/** Helpers of the entitlements tests: plans, features, grants and flags written as the operator's API stores them, and a tenant put on a plan. */
import type { Rule } from '@gatehouse/shared/entitlements';
import type { GatehouseServer } from '../app';
import { newId } from '../crypto';

/** A feature; `linkedPermissions` are the permission keys it gates. */
export async function insertFeature(server: GatehouseServer, key: string, linkedPermissions: string[] = []): Promise<string> {
  const id = newId();
  const now = Date.now();
  await server.db.insertInto('features').values({ id, key, name: `Feature ${key}`, linked_permissions: JSON.stringify(linkedPermissions), created_at: now, updated_at: now }).execute();
  return id;
}

/** An active plan granting `features` (featureId -> limit, null: unlimited); seat limit and targeting optional. */
export async function insertPlan(
  server: GatehouseServer,
  opts: { name?: string; seatLimit?: number | null; features?: Record<string, number | null>; rules?: Rule[]; defaultTreatment?: 'true' | 'false' } = {},
): Promise<string> {
  const id = newId();
  const now = Date.now();
  await server.db
    .insertInto('plans')
    .values({
      id,
      name: opts.name ?? 'Plan',
      slug: `plan-${id}`,
      seat_limit: opts.seatLimit ?? null,
      rules: opts.rules ? JSON.stringify(opts.rules) : null,
      default_treatment: opts.defaultTreatment ?? 'false',
      stripe_product_id: null,
      stripe_plan_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  for (const [featureId, limit] of Object.entries(opts.features ?? {})) {
    await server.db.insertInto('plan_features').values({ plan_id: id, feature_id: featureId, limit_value: limit }).execute();
  }
  return id;
}

/** Puts the tenant on `planId` with a new subscription row of `status` (the newest subscription is the tenant's). */
export async function subscribe(server: GatehouseServer, tenantId: string, planId: string | null, status = 'active', at = Date.now()): Promise<string> {
  const id = newId();
  await server.db
    .insertInto('subscriptions')
    .values({
      id,
      tenant_id: tenantId,
      plan_id: planId,
      external_id: null,
      status,
      start_date: at,
      current_period_start: at,
      current_period_end: at + 30 * 86_400_000,
      cancellation: null,
      trial_end: null,
      payment_method_id: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

/** A direct grant of a feature to a tenant (every user) or to one user in it. */
export async function insertGrant(server: GatehouseServer, featureId: string, tenantId: string, opts: { userId?: string; expiresAt?: number | null } = {}): Promise<string> {
  const id = newId();
  await server.db
    .insertInto('entitlement_grants')
    .values({ id, feature_id: featureId, tenant_id: tenantId, user_id: opts.userId ?? null, expires_at: opts.expiresAt ?? null, created_by: null, created_at: Date.now() })
    .execute();
  return id;
}

/** A feature flag with rules, linked to `featureIds`. */
export async function insertFlag(
  server: GatehouseServer,
  key: string,
  opts: { on?: boolean; offTreatment?: 'true' | 'false'; defaultTreatment?: 'true' | 'false'; rules?: Rule[]; featureIds?: string[] } = {},
): Promise<string> {
  const id = newId();
  const now = Date.now();
  await server.db
    .insertInto('feature_flags')
    .values({
      id,
      key,
      name: key,
      is_on: opts.on === false ? 0 : 1,
      off_treatment: opts.offTreatment ?? 'false',
      default_treatment: opts.defaultTreatment ?? 'false',
      rules: JSON.stringify(opts.rules ?? []),
      created_at: now,
      updated_at: now,
    })
    .execute();
  for (const featureId of opts.featureIds ?? []) await server.db.insertInto('feature_flag_features').values({ flag_id: id, feature_id: featureId }).execute();
  return id;
}

/** A rule that matches when `frontegg.<attribute>` ends with `suffix` (e.g. an email domain). */
export function endsWithRule(attribute: string, suffix: string, treatment: 'true' | 'false' = 'true'): Rule {
  return { conditionLogic: 'and', treatment, conditions: [{ attribute, op: 'ends_with', value: { list: [suffix] }, negate: false }] };
}
