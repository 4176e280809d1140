/**
 * A tenant's subscription (seed 001 section 4): create one on a plan, change its plan (allowPlanDowngrade),
 * attach the card collected in the checkout, cancel at period end and renew, each following the seed's
 * rules. Every change is made at Stripe first; its answer is written at once (sync.ts) and Stripe's
 * webhooks confirm it. Every change is audited in the tenant.
 */
import { BillingErrorCodes, BillingErrorMessages, CANCELLATION_AT_PERIOD_END, type Subscription } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { findCustomerId } from '../../db/queries/billing-customers';
import { findPlan, setStripeIds, type PlanRecord } from '../../db/queries/billing-plans';
import { findSubscription, hasHadTrial, listSubscriptions, setSubscriptionPaymentMethod, type SubscriptionRecord } from '../../db/queries/subscriptions';
import { findCurrentSubscription } from '../../db/queries/tenant-plan';
import { AppError, Errors } from '../../errors';
import type { AdminCaller } from '../admin/access';
import { recordAudit } from '../admin/audit-log';
import type { BillingConfigurationService, VendorBilling } from './configuration';
import { ensureCustomer } from './customers';
import { stripeCall, type StripeClient, type StripeGateway } from './stripe-gateway';
import { applyInvoice, applySubscription, stripeSourceTime } from './sync';

export const SubscriptionAuditActions = {
  created: 'Subscription created',
  planChanged: 'Subscription plan changed',
  paymentMethodSet: 'Subscription payment method updated',
  canceled: 'Subscription canceled',
  renewed: 'Subscription renewed',
} as const;

const notFound = () => new AppError(BillingErrorCodes.subscriptionNotFound, 404, BillingErrorMessages.subscriptionNotFound);
const externallyManaged = () => new AppError(BillingErrorCodes.externallyManaged, 409, BillingErrorMessages.externallyManaged);
const planNotFound = () => new AppError(BillingErrorCodes.planNotFound, 404, 'Plan not found', { field: 'planId' });
/** Statuses after which the subscription is over: a new plan starts a new subscription. */
const ENDED = ['canceled', 'expired', 'trialEnded', 'incomplete'];

export function subscriptionToWire(row: SubscriptionRecord): Subscription {
  const n = (v: number | null) => (v === null ? null : Number(v));
  return {
    id: row.id,
    externalId: row.external_id,
    planId: row.plan_id,
    startDate: n(row.start_date),
    currentPeriodStart: n(row.current_period_start),
    currentPeriodEnd: n(row.current_period_end),
    status: row.status as Subscription['status'],
    cancellation: row.cancellation === CANCELLATION_AT_PERIOD_END ? { policy: CANCELLATION_AT_PERIOD_END } : null,
    trialEnd: n(row.trial_end),
    externallyManaged: row.externally_managed === 1,
    paymentMethodId: row.payment_method_id,
  };
}

export interface SubscriptionService {
  list(caller: AdminCaller): Promise<Subscription[]>;
  create(caller: AdminCaller, body: { planId: string; paymentMethodId?: string }): Promise<Subscription>;
  update(caller: AdminCaller, id: string, body: { planId: string; paymentMethodId?: string }): Promise<Subscription>;
  cancel(caller: AdminCaller, id: string): Promise<Subscription>;
  renew(caller: AdminCaller, id: string): Promise<Subscription>;
  /** Attaches a payment method to the tenant's customer and makes it the default; refuses another customer's. */
  attachPaymentMethod(stripe: StripeClient, tenantId: string, customerId: string, paymentMethodId: string): Promise<void>;
}

export function createSubscriptionService(deps: { db: Db; clock: Clock; gateway: StripeGateway; configuration: BillingConfigurationService }): SubscriptionService {
  const { db, clock, gateway, configuration } = deps;

  async function stripeFor(): Promise<{ stripe: StripeClient; vendor: VendorBilling }> {
    const vendor = await configuration.vendor();
    return { stripe: gateway.client(vendor.active ? vendor.secretKey : null), vendor };
  }

  async function activePlan(planId: string): Promise<PlanRecord> {
    const plan = await findPlan(db, planId);
    if (!plan || plan.is_active !== 1) throw planNotFound();
    return plan;
  }

  /** The plan's Stripe product and plan, made on first use and kept on the plan row. */
  async function stripePlanOf(stripe: StripeClient, plan: PlanRecord): Promise<string> {
    if (plan.stripe_plan_id) return plan.stripe_plan_id;
    const product = plan.stripe_product_id ?? (await stripeCall(() => stripe.products.create({ name: plan.name, metadata: { planId: plan.id } }))).id;
    const created = await stripeCall(() =>
      stripe.plans.create({ amount: plan.price_amount, currency: plan.currency, interval: 'month', product, nickname: plan.slug, metadata: { planId: plan.id } }),
    );
    const stored = await setStripeIds(db, plan.id, product, created.id, clock.now());
    if (stored.stripePlanId !== created.id) await stripe.plans.del(created.id).catch(() => undefined);
    return stored.stripePlanId;
  }

  async function attachPaymentMethod(stripe: StripeClient, _tenantId: string, customerId: string, paymentMethodId: string): Promise<void> {
    const pm = await stripeCall(() => stripe.paymentMethods.retrieve(paymentMethodId)).catch((err) => {
      if ((err as AppError).status === 502) throw new AppError(BillingErrorCodes.paymentFailed, 400, 'paymentMethodId: no such payment method', { field: 'paymentMethodId' });
      throw err;
    });
    const owner = typeof pm.customer === 'string' ? pm.customer : (pm.customer?.id ?? null);
    // A card of another customer is another tenant's: never move it.
    if (owner && owner !== customerId) throw new AppError(BillingErrorCodes.paymentFailed, 400, 'paymentMethodId: no such payment method', { field: 'paymentMethodId' });
    if (!owner) await stripeCall(() => stripe.paymentMethods.attach(paymentMethodId, { customer: customerId }));
    await stripeCall(() => stripe.customers.update(customerId, { invoice_settings: { default_payment_method: paymentMethodId } }));
  }

  async function hasDefaultPaymentMethod(stripe: StripeClient, customerId: string): Promise<boolean> {
    const customer = await stripeCall(() => stripe.customers.retrieve(customerId));
    return !('deleted' in customer && customer.deleted) && !!(customer as { invoice_settings?: { default_payment_method?: unknown } }).invoice_settings?.default_payment_method;
  }

  /**
   * Mirrors a Stripe subscription (and its invoices) locally and writes the admin's audit rows
   * (`audit`, which raise subscription.updated) in the same transaction: Stripe is read first, so
   * the transaction holds no network call.
   */
  async function record(stripe: StripeClient, tenantId: string, customerId: string, sub: Record<string, any>, paymentMethodId: string | undefined, audit: (trx: Db, current: SubscriptionRecord) => Promise<void>): Promise<SubscriptionRecord> {
    const now = clock.now();
    const invoices = await stripeCall(() => stripe.invoices.list({ customer: customerId, subscription: sub.id, limit: 20 }));
    const invoicesTime = stripeSourceTime(invoices, clock.now());
    return db.transaction().execute(async (trx) => {
      await applySubscription(trx, tenantId, sub, stripeSourceTime(sub, now), now);
      for (const invoice of invoices.data) await applyInvoice(trx, tenantId, invoice as unknown as Record<string, any>, invoicesTime, now);
      let current = (await listSubscriptions(trx, tenantId)).find((s) => s.external_id === sub.id)!;
      if (paymentMethodId && current.payment_method_id !== paymentMethodId) {
        await setSubscriptionPaymentMethod(trx, current.id, paymentMethodId, now);
        current = { ...current, payment_method_id: paymentMethodId };
      }
      await audit(trx, current);
      return current;
    });
  }

  async function start(caller: AdminCaller, plan: PlanRecord, paymentMethodId: string | undefined): Promise<Subscription> {
    const { stripe } = await stripeFor();
    // One trial per tenant: once a subscription had one, the next starts paid (else ending or
    // cancelling a trial and subscribing again would give a paid plan for free for ever).
    const trialDays = plan.trial_days > 0 && !(await hasHadTrial(db, caller.tenantId)) ? plan.trial_days : 0;
    const customerId = await ensureCustomer({ db, clock }, stripe, caller.tenantId);
    if (paymentMethodId) await attachPaymentMethod(stripe, caller.tenantId, customerId, paymentMethodId);
    else if (plan.price_amount > 0 && trialDays === 0 && !(await hasDefaultPaymentMethod(stripe, customerId))) {
      throw new AppError(BillingErrorCodes.paymentFailed, 402, 'A card is needed to subscribe to a paid plan', { field: 'paymentMethodId' });
    }
    const stripePlan = await stripePlanOf(stripe, plan);
    const trialEnd = trialDays > 0 ? Math.floor(clock.now() / 1000) + trialDays * 86_400 : undefined;
    const sub = await stripeCall(() =>
      stripe.subscriptions.create({ customer: customerId, items: [{ plan: stripePlan }], ...(trialEnd ? { trial_end: trialEnd } : {}), metadata: { tenantId: caller.tenantId, planId: plan.id } }),
    );
    const row = await record(stripe, caller.tenantId, customerId, sub as unknown as Record<string, any>, paymentMethodId, (trx, created) =>
      recordAudit(trx, caller, { action: SubscriptionAuditActions.created, description: `Subscription to plan ${plan.name} created`, json: { subscriptionId: created.id, old: null, new: { planId: plan.id, status: created.status } } }, clock.now()),
    );
    return subscriptionToWire(row);
  }

  async function owned(caller: AdminCaller, id: string): Promise<SubscriptionRecord> {
    const row = await findSubscription(db, caller.tenantId, id);
    if (!row) throw notFound();
    return row;
  }

  return {
    attachPaymentMethod,

    async list(caller) {
      return (await listSubscriptions(db, caller.tenantId)).map(subscriptionToWire);
    },

    async create(caller, body) {
      const plan = await activePlan(body.planId);
      const current = await findCurrentSubscription(db, caller.tenantId);
      if (current && !ENDED.includes(current.status)) return this.update(caller, current.id, body);
      return start(caller, plan, body.paymentMethodId);
    },

    async update(caller, id, body) {
      let row = await owned(caller, id);
      // Only the tenant's current subscription changes: naming an older, ended one while another is
      // live acts on the live one (else it started a second subscription, past allowPlanDowngrade).
      const current = await findCurrentSubscription(db, caller.tenantId);
      if (current && current.id !== row.id && !ENDED.includes(current.status)) row = current;
      if (row.externally_managed === 1) throw externallyManaged();
      const plan = await activePlan(body.planId);
      const { stripe, vendor } = await stripeFor();
      const currentPlan = row.plan_id ? await findPlan(db, row.plan_id) : undefined;
      if (currentPlan && plan.price_amount < currentPlan.price_amount && !vendor.allowPlanDowngrade && !ENDED.includes(row.status)) {
        throw new AppError(BillingErrorCodes.downgradeNotAllowed, 403, 'Changing to a cheaper plan is not allowed', { planId: plan.id });
      }
      if (ENDED.includes(row.status) || !row.external_id) return start(caller, plan, body.paymentMethodId);

      const customerId = (await findCustomerId(db, caller.tenantId)) ?? (await ensureCustomer({ db, clock }, stripe, caller.tenantId));
      // Stripe carries a trial over to the new plan: a plan without a trial of its own ends it and
      // is paid at once, so it needs a card (else a trial of a cheap plan gave any paid plan free).
      const endsTrial = plan.id !== row.plan_id && row.status === 'trialing' && plan.trial_days === 0 && plan.price_amount > 0;
      // Any other move to a paid plan needs a card on file too: Stripe bills the difference only at
      // the next renewal, so a card-less free subscription got a paid plan for a period for nothing.
      const needsCard = plan.id !== row.plan_id && plan.price_amount > 0 && (row.status !== 'trialing' || endsTrial);
      if (body.paymentMethodId) await attachPaymentMethod(stripe, caller.tenantId, customerId, body.paymentMethodId);
      else if (needsCard && !(await hasDefaultPaymentMethod(stripe, customerId))) {
        throw new AppError(BillingErrorCodes.paymentFailed, 402, 'A card is needed to subscribe to a paid plan', { field: 'paymentMethodId' });
      }
      let sub: Record<string, any>;
      const externalId = row.external_id;
      if (plan.id !== row.plan_id) {
        const stripePlan = await stripePlanOf(stripe, plan);
        const existing = await stripeCall(() => stripe.subscriptions.retrieve(externalId));
        const itemId = existing.items.data[0]?.id;
        sub = (await stripeCall(() =>
          stripe.subscriptions.update(externalId, {
            items: [itemId ? { id: itemId, plan: stripePlan } : { plan: stripePlan }],
            ...(endsTrial ? { trial_end: 'now' as const } : {}),
            metadata: { tenantId: caller.tenantId, planId: plan.id },
          }),
        )) as unknown as Record<string, any>;
      } else {
        sub = (await stripeCall(() => stripe.subscriptions.retrieve(externalId))) as unknown as Record<string, any>;
      }
      const updated = await record(stripe, caller.tenantId, customerId, sub, body.paymentMethodId, async (trx) => {
        const now = clock.now();
        if (plan.id !== row.plan_id) {
          await recordAudit(trx, caller, { action: SubscriptionAuditActions.planChanged, description: `Subscription plan changed to ${plan.name}`, json: { subscriptionId: row.id, old: { planId: row.plan_id }, new: { planId: plan.id } } }, now);
        }
        if (body.paymentMethodId && body.paymentMethodId !== row.payment_method_id) {
          await recordAudit(trx, caller, { action: SubscriptionAuditActions.paymentMethodSet, description: 'Subscription payment method updated', json: { subscriptionId: row.id, old: { paymentMethodId: row.payment_method_id }, new: { paymentMethodId: body.paymentMethodId } } }, now);
        }
      });
      return subscriptionToWire(updated);
    },

    async cancel(caller, id) {
      const row = await owned(caller, id);
      if (row.externally_managed === 1) throw externallyManaged();
      const { stripe, vendor } = await stripeFor();
      if (!vendor.allowPlanCancellation) throw new AppError(BillingErrorCodes.cancelNotAllowed, 403, 'Cancelling the subscription is not allowed');
      // Seed 001 section 4: only an active subscription with no cancellation pending can be cancelled.
      if (row.status !== 'active' || row.cancellation !== null || !row.external_id) {
        throw new AppError(BillingErrorCodes.cancelNotAllowed, 409, row.cancellation ? 'A cancellation is already pending' : 'Only an active subscription can be cancelled', { status: row.status });
      }
      const externalId = row.external_id;
      const sub = await stripeCall(() => stripe.subscriptions.update(externalId, { cancel_at_period_end: true }));
      const customerId = (await findCustomerId(db, caller.tenantId))!;
      const updated = await record(stripe, caller.tenantId, customerId, sub as unknown as Record<string, any>, undefined, (trx) =>
        recordAudit(trx, caller, { action: SubscriptionAuditActions.canceled, description: 'Subscription canceled at period end', json: { subscriptionId: row.id, old: { cancellation: null }, new: { cancellation: CANCELLATION_AT_PERIOD_END } } }, clock.now()),
      );
      return subscriptionToWire(updated);
    },

    async renew(caller, id) {
      const row = await owned(caller, id);
      if (row.externally_managed === 1) throw externallyManaged();
      // Seed 001 section 4: renew only undoes a pending cancellation at period end.
      if (row.cancellation !== CANCELLATION_AT_PERIOD_END || !row.external_id) throw new AppError(BillingErrorCodes.renewNotAllowed, 409, 'No cancellation is pending', { status: row.status });
      const { stripe } = await stripeFor();
      const externalId = row.external_id;
      const sub = await stripeCall(() => stripe.subscriptions.update(externalId, { cancel_at_period_end: false }));
      const customerId = (await findCustomerId(db, caller.tenantId))!;
      const updated = await record(stripe, caller.tenantId, customerId, sub as unknown as Record<string, any>, undefined, (trx) =>
        recordAudit(trx, caller, { action: SubscriptionAuditActions.renewed, description: 'Subscription renewed', json: { subscriptionId: row.id, old: { cancellation: CANCELLATION_AT_PERIOD_END }, new: { cancellation: null } } }, clock.now()),
      );
      return subscriptionToWire(updated);
    },
  };
}
