/**
 * Read-only queries behind a user's entitlements (issue 13): the features of a plan, plans with
 * targeting rules, direct grants, feature flags with their features, and a tenant's seats. The
 * operator's CRUD of these tables lives in plans.ts, features.ts, feature-flags.ts and
 * entitlement-grants.ts.
 */
import type { Expression } from 'kysely';
import type { Db } from '..';
import { precompiled, type Params } from '../precompiled';

export interface PlanFeatureRow {
  plan_id: string;
  feature_id: string;
  key: string;
  name: string;
  linked_permissions: string;
  limit_value: number | null;
}

/** The features the given plans grant, with the plan's typed limit of each. */
export function listPlanFeatures(db: Db, planIds: readonly string[]): Promise<PlanFeatureRow[]> {
  if (planIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('plan_features')
    .innerJoin('features', 'features.id', 'plan_features.feature_id')
    .select(['plan_features.plan_id', 'plan_features.feature_id', 'features.key', 'features.name', 'features.linked_permissions', 'plan_features.limit_value'])
    .where('plan_features.plan_id', 'in', planIds)
    .orderBy('features.key')
    .execute();
}

export interface PlanLimitsRow {
  id: string;
  seat_limit: number | null;
}

/** A plan's id and seat limit, or undefined. */
export function findPlanLimits(db: Db, planId: string): Promise<PlanLimitsRow | undefined> {
  return db.selectFrom('plans').select(['id', 'seat_limit']).where('id', '=', planId).executeTakeFirst();
}

/** Active plans that carry targeting rules (plan targeting may grant their features to anyone they match). */
export function listTargetingPlans(db: Db): Promise<Array<{ id: string; default_treatment: 'true' | 'false'; rules: string | null }>> {
  return db.selectFrom('plans').select(['id', 'default_treatment', 'rules']).where('is_active', '=', 1).where('rules', 'is not', null).orderBy('id').execute();
}

/** Every feature that gates at least one permission (linked_permissions not empty), by key. */
export function listPermissionLinkedFeatures(db: Db): Promise<Array<{ id: string; key: string; linked_permissions: string }>> {
  return db.selectFrom('features').select(['id', 'key', 'linked_permissions']).where('linked_permissions', '!=', '[]').orderBy('key').execute();
}

export interface GrantRow {
  id: string;
  feature_id: string;
  key: string;
  name: string;
  linked_permissions: string;
  user_id: string | null;
  expires_at: number | null;
  created_at: number;
}

/** Direct grants to the tenant (every user) and to this user in it, oldest first. */
export async function listGrantsFor(db: Db, tenantId: string, userId: string): Promise<GrantRow[]> {
  return (await grantsFor(db, { tenantId, userId })).rows;
}

const grantsFor = precompiled((db, p: Params<{ tenantId: string; userId: string }>) => grantsForQuery(db, p.tenantId, p.userId));

/**
 * The statement of listGrantsFor, for a tenant and user given as values or as columns of an
 * enclosing query (the refresh reads them with its session: db/queries/sessions.ts).
 */
export function grantsForQuery(db: Db, tenantId: string | Expression<string>, userId: string | Expression<string>) {
  return db
    .selectFrom('entitlement_grants')
    .innerJoin('features', 'features.id', 'entitlement_grants.feature_id')
    .select([
      'entitlement_grants.id',
      'entitlement_grants.feature_id',
      'features.key',
      'features.name',
      'features.linked_permissions',
      'entitlement_grants.user_id',
      'entitlement_grants.expires_at',
      'entitlement_grants.created_at',
    ])
    .where('entitlement_grants.tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('entitlement_grants.user_id', 'is', null), eb('entitlement_grants.user_id', '=', userId)]))
    .orderBy('entitlement_grants.created_at')
    .orderBy('entitlement_grants.id');
}

export interface FlagRow {
  id: string;
  key: string;
  is_on: number;
  off_treatment: 'true' | 'false';
  default_treatment: 'true' | 'false';
  rules: string;
}

/** Every operator feature flag, by key. */
export function listFlags(db: Db): Promise<FlagRow[]> {
  return db.selectFrom('feature_flags').select(['id', 'key', 'is_on', 'off_treatment', 'default_treatment', 'rules']).orderBy('key').execute();
}

export interface FlagFeatureRow {
  flag_id: string;
  feature_id: string;
  key: string;
  name: string;
  linked_permissions: string;
}

/** The features feature flags may grant, with the flag's id. */
export function listFlagFeatures(db: Db): Promise<FlagFeatureRow[]> {
  return db
    .selectFrom('feature_flag_features')
    .innerJoin('features', 'features.id', 'feature_flag_features.feature_id')
    .select(['feature_flag_features.flag_id', 'feature_flag_features.feature_id', 'features.key', 'features.name', 'features.linked_permissions'])
    .orderBy('features.key')
    .execute();
}

/**
 * The seats a tenant uses: its members whose membership is not disabled and not past a temporary
 * expiry, plus people with an open (unaccepted, unexpired) invitation who are not members yet;
 * `exceptUserId` (the person joining now) is not counted.
 */
export async function countSeats(db: Db, tenantId: string, now: number, exceptUserId?: string): Promise<number> {
  let members = db
    .selectFrom('user_tenants')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('disabled_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  if (exceptUserId) members = members.where('user_id', '!=', exceptUserId);
  let pending = db
    .selectFrom('invitations')
    .select((eb) => eb.fn.count<string | number>('invitations.user_id').distinct().as('n'))
    .where('invitations.tenant_id', '=', tenantId)
    .where('invitations.accepted_at', 'is', null)
    .where('invitations.expires_at', '>', now)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('user_tenants').select('user_tenants.user_id').whereRef('user_tenants.user_id', '=', 'invitations.user_id').whereRef('user_tenants.tenant_id', '=', 'invitations.tenant_id'))),
    );
  if (exceptUserId) pending = pending.where('invitations.user_id', '!=', exceptUserId);
  const [m, p] = await Promise.all([members.executeTakeFirstOrThrow(), pending.executeTakeFirstOrThrow()]);
  return Number(m.n) + Number(p.n);
}

/**
 * Locks the tenant's row until the transaction ends (PostgreSQL: a row lock; SQLite: the write
 * makes the transaction the one writer), so seat counts of concurrent joins are taken in turn.
 */
export async function lockTenantRow(trx: Db, tenantId: string): Promise<void> {
  await trx.updateTable('tenants').set((eb) => ({ name: eb.ref('name') })).where('id', '=', tenantId).execute();
}
