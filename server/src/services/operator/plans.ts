/**
 * Plans (issue 13): what tenants subscribe to, managed by operators. Rules:
 * - the slug is unique (409 ER-04002); every feature a plan grants must exist (400 naming it);
 *   targeting rules must fit their operations (400 ER-04005);
 * - Stripe's product and plan ids are the billing area's (filled lazily when a tenant first checks
 *   out). A Stripe plan's price is immutable, so a change of amount or currency clears
 *   `stripe_plan_id` and billing makes a new Stripe plan at the next checkout;
 * - the vendor's default plan cannot be deleted or deactivated (409 ER-04006): choose another
 *   default first, or new tenants would be granted a plan nobody can see;
 * - a plan any subscription names (current or history) is deactivated instead of deleted: it leaves
 *   the public plan list and checkout, existing subscriptions keep it, and the billing history keeps
 *   its name. A plan no subscription ever named is deleted.
 */
import type { OperatorPlan, OperatorPlanBody } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { findFeaturesByKeys } from '../../db/queries/features';
import { countPlanSubscriptions, deletePlan, findDefaultPlanId, findPlan, findPlanBySlug, insertPlan, listPlanFeatures, listPlans, setPlanFeatures, updatePlan, type PlanFeatureRow, type PlanRow } from '../../db/queries/plans';
import type { PlansTable } from '../../db/schema-billing';
import { isUniqueViolation } from '../../db/unique-violation';
import type { AdminCaller } from '../admin/access';
import { OperatorAuditActions, recordOperatorAudit } from './audit';
import { OperatorErrors } from './errors';
import { assertValidRules } from './rules';
import type { Updateable } from 'kysely';
import type { Rule } from '@gatehouse/shared/entitlements';

type PlanPatch = Partial<OperatorPlanBody>;
type FeatureGrants = NonNullable<OperatorPlanBody['features']>;

export interface PlanService {
  list(): Promise<OperatorPlan[]>;
  get(id: string): Promise<OperatorPlan>;
  create(caller: AdminCaller, body: OperatorPlanBody): Promise<OperatorPlan>;
  update(caller: AdminCaller, id: string, patch: PlanPatch): Promise<OperatorPlan>;
  /** Deletes the plan, or deactivates it when a subscription names it (`deleted` false, the plan as it is now). */
  remove(caller: AdminCaller, id: string): Promise<{ deleted: true } | { deleted: false; plan: OperatorPlan }>;
}

function toWire(row: PlanRow, features: PlanFeatureRow[], defaultPlanId: string | null): OperatorPlan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    slug: row.slug,
    price: { amount: Number(row.price_amount), currency: row.currency },
    recurringInterval: 'month',
    trialDays: Number(row.trial_days),
    seatLimit: row.seat_limit === null ? null : Number(row.seat_limit),
    isActive: Number(row.is_active) === 1,
    isDefault: row.id === defaultPlanId,
    features: features.filter((f) => f.plan_id === row.id).map((f) => ({ featureKey: f.feature_key, limit: f.limit_value === null ? null : Number(f.limit_value) })),
    defaultTreatment: row.default_treatment,
    rules: row.rules ? (JSON.parse(row.rules) as Rule[]) : null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** What an audit record keeps of a plan (everything but the timestamps). */
function audited(plan: OperatorPlan) {
  const { createdAt: _c, updatedAt: _u, ...rest } = plan;
  return rest;
}

export function createPlanService(deps: { db: Db; clock: Clock }): PlanService {
  const { db, clock } = deps;

  async function read(executor: Db, id: string): Promise<OperatorPlan> {
    const row = await findPlan(executor, id);
    if (!row) throw OperatorErrors.notFound('Plan');
    const [features, defaultPlanId] = await Promise.all([listPlanFeatures(executor, [id]), findDefaultPlanId(executor)]);
    return toWire(row, features, defaultPlanId);
  }

  /** The feature ids of the grants; 400 naming the first unknown or repeated key. */
  async function resolveFeatures(executor: Db, grants: FeatureGrants): Promise<{ featureId: string; limit: number | null }[]> {
    const rows = await findFeaturesByKeys(executor, grants.map((g) => g.featureKey));
    const seen = new Set<string>();
    return grants.map((grant, i) => {
      if (seen.has(grant.featureKey)) throw OperatorErrors.field(`features[${i}].featureKey`, `"${grant.featureKey}" is listed twice`);
      seen.add(grant.featureKey);
      const row = rows.find((r) => r.key === grant.featureKey);
      if (!row) throw OperatorErrors.field(`features[${i}].featureKey`, `no feature with the key "${grant.featureKey}"`);
      return { featureId: row.id, limit: grant.limit ?? null };
    });
  }

  async function assertSlugFree(executor: Db, slug: string, exceptId?: string): Promise<void> {
    const taken = await findPlanBySlug(executor, slug);
    if (taken && taken.id !== exceptId) throw OperatorErrors.slugTaken(slug);
  }

  const slugRace = (slug: string) => (error: unknown) => {
    // Two operators saving the same slug at once: the unique index decides, the loser gets the 409.
    throw isUniqueViolation(error) ? OperatorErrors.slugTaken(slug) : error;
  };

  return {
    async list() {
      const rows = await listPlans(db);
      const [features, defaultPlanId] = await Promise.all([listPlanFeatures(db, rows.map((r) => r.id)), findDefaultPlanId(db)]);
      return rows.map((row) => toWire(row, features, defaultPlanId));
    },

    get: (id) => read(db, id),

    async create(caller, body) {
      assertValidRules(body.rules);
      const id = newId();
      await db
        .transaction()
        .execute(async (trx) => {
          await assertSlugFree(trx, body.slug);
          const features = await resolveFeatures(trx, body.features ?? []);
          const now = clock.now();
          await insertPlan(trx, {
            id,
            name: body.name,
            description: body.description ?? '',
            slug: body.slug,
            price_amount: body.price.amount,
            currency: body.price.currency,
            recurring_interval: 'month',
            trial_days: body.trialDays ?? 0,
            seat_limit: body.seatLimit ?? null,
            is_active: body.isActive === false ? 0 : 1,
            default_treatment: body.defaultTreatment ?? 'false',
            rules: body.rules ? JSON.stringify(body.rules) : null,
            stripe_product_id: null,
            stripe_plan_id: null,
            created_at: now,
            updated_at: now,
          });
          await setPlanFeatures(trx, id, features);
          const plan = await read(trx, id);
          await recordOperatorAudit(trx, clock, caller, OperatorAuditActions.planCreated, `Plan "${plan.name}" (${plan.slug}) created`, { planId: id, new: audited(plan) });
        })
        .catch(slugRace(body.slug));
      return read(db, id);
    },

    async update(caller, id, patch) {
      assertValidRules(patch.rules);
      await db
        .transaction()
        .execute(async (trx) => {
          const row = await findPlan(trx, id);
          if (!row) throw OperatorErrors.notFound('Plan');
          const before = await read(trx, id);
          if (patch.slug !== undefined && patch.slug !== row.slug) await assertSlugFree(trx, patch.slug, id);
          if (patch.isActive === false && before.isDefault) {
            throw OperatorErrors.inUse(`isActive: plan "${row.name}" is the vendor's default plan; choose another default plan before deactivating it`, { field: 'isActive', planId: id });
          }
          const features = patch.features ? await resolveFeatures(trx, patch.features) : undefined;
          const priceChanged = patch.price !== undefined && (patch.price.amount !== Number(row.price_amount) || patch.price.currency !== row.currency);
          const changes: Updateable<PlansTable> = {
            name: patch.name,
            description: patch.description,
            slug: patch.slug,
            price_amount: patch.price?.amount,
            currency: patch.price?.currency,
            trial_days: patch.trialDays,
            seat_limit: patch.seatLimit,
            is_active: patch.isActive === undefined ? undefined : patch.isActive ? 1 : 0,
            default_treatment: patch.defaultTreatment,
            rules: patch.rules === undefined ? undefined : patch.rules === null ? null : JSON.stringify(patch.rules),
            // A Stripe plan's price cannot change: billing makes a new one for the new price.
            stripe_plan_id: priceChanged ? null : undefined,
            updated_at: clock.now(),
          };
          await updatePlan(trx, id, changes);
          if (features) await setPlanFeatures(trx, id, features);
          const after = await read(trx, id);
          await recordOperatorAudit(trx, clock, caller, OperatorAuditActions.planUpdated, `Plan "${after.name}" (${after.slug}) updated`, { planId: id, old: audited(before), new: audited(after), ...(priceChanged ? { stripePlanCleared: true } : {}) });
        })
        .catch(slugRace(patch.slug ?? ''));
      return read(db, id);
    },

    async remove(caller, id) {
      return db.transaction().execute(async (trx) => {
        const before = await read(trx, id);
        if (before.isDefault) throw OperatorErrors.inUse(`Plan "${before.name}" is the vendor's default plan; choose another default plan before deleting it`, { planId: id });
        const subscriptions = await countPlanSubscriptions(trx, id);
        if (subscriptions > 0) {
          if (before.isActive) await updatePlan(trx, id, { is_active: 0, updated_at: clock.now() });
          const after = await read(trx, id);
          await recordOperatorAudit(trx, clock, caller, OperatorAuditActions.planDeactivated, `Plan "${before.name}" (${before.slug}) deactivated instead of deleted: ${subscriptions} subscription(s) name it`, { planId: id, subscriptions, old: audited(before), new: audited(after) });
          return { deleted: false as const, plan: after };
        }
        await deletePlan(trx, id);
        await recordOperatorAudit(trx, clock, caller, OperatorAuditActions.planDeleted, `Plan "${before.name}" (${before.slug}) deleted`, { planId: id, old: audited(before) });
        return { deleted: true as const };
      });
    },
  };
}
