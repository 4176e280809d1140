/**
 * Writes Stripe's subscriptions and invoices into our tables: from webhook events (the source of
 * truth) and from the answers of our own Stripe calls (so the portal sees a change at once, even
 * before its event arrives). Each write carries the time of what it applies (`sourceTime`, ms): a
 * row already holding something newer is left alone, so events arriving out of order never move a
 * row back. Our own calls stamp the time of Stripe's answer (its `Date` header: Stripe's clock, to
 * the second, like its events' `created`).
 * Stripe objects are read leniently (older API versions, as localstripe speaks, keep the period
 * and plan on the subscription; newer ones on its item and price).
 */
import { DEFAULT_CURRENCY } from '@gatehouse/shared/wire';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { findPlanByStripePlanId } from '../../db/queries/billing-plans';
import { findInvoiceByExternalId, insertInvoice, updateInvoiceFromSource } from '../../db/queries/invoices';
import { findSubscriptionByExternalId, insertSubscription, updateSubscriptionFromSource } from '../../db/queries/subscriptions';
import { mapStripeStatus } from './statuses';

type Obj = Record<string, any>;

const idOf = (v: unknown): string | null => (typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as Obj).id === 'string' ? (v as Obj).id : null);
const ms = (seconds: unknown): number | null => (typeof seconds === 'number' && Number.isFinite(seconds) ? Math.round(seconds * 1000) : null);

/** The time stamp of a change made by our own call: the current second, comparable with Stripe's event times. */
export const ownSourceTime = (now: number) => Math.floor(now / 1000) * 1000;

/**
 * The time stamp of what a Stripe answer says: the answer's `Date` header, Stripe's own clock (the
 * clock of its events' `created`), so a skew of our clock never makes Stripe's next events look
 * old; our current second when the header is missing.
 */
export function stripeSourceTime(answer: unknown, now: number): number {
  const date = (answer as { lastResponse?: { headers?: Record<string, unknown> } } | null)?.lastResponse?.headers?.date;
  const parsed = typeof date === 'string' ? Date.parse(date) : Number.NaN;
  return Number.isFinite(parsed) ? Math.floor(parsed / 1000) * 1000 : ownSourceTime(now);
}

/** The Stripe customer of a subscription or invoice. */
export const customerOf = (obj: Obj): string | null => idOf(obj.customer);

/** The Stripe plan (or price) id a subscription is on. */
export function stripePlanIdOf(sub: Obj): string | null {
  const item = sub.items?.data?.[0];
  return idOf(sub.plan) ?? idOf(item?.plan) ?? idOf(item?.price);
}

/** Upserts a Stripe subscription of `tenantId`; answers whether the row changed. */
export async function applySubscription(db: Db, tenantId: string, sub: Obj, sourceTime: number, now: number): Promise<boolean> {
  const item = sub.items?.data?.[0] ?? {};
  const stripePlanId = stripePlanIdOf(sub);
  const plan = stripePlanId ? await findPlanByStripePlanId(db, stripePlanId) : undefined;
  const fields = {
    status: mapStripeStatus(sub.status, sub.trial_end != null),
    start_date: ms(sub.start_date) ?? ms(sub.created),
    current_period_start: ms(sub.current_period_start) ?? ms(item.current_period_start),
    current_period_end: ms(sub.current_period_end) ?? ms(item.current_period_end),
    cancellation: sub.cancel_at_period_end === true && sub.status !== 'canceled' ? 'atPeriodEnd' : null,
    trial_end: ms(sub.trial_end),
    ...(idOf(sub.default_payment_method) ? { payment_method_id: idOf(sub.default_payment_method) } : {}),
    ...(plan ? { plan_id: plan.id } : {}),
    updated_at: now,
  };
  const existing = await findSubscriptionByExternalId(db, sub.id);
  if (existing) {
    if (existing.tenant_id !== tenantId) return false;
    return updateSubscriptionFromSource(db, existing.id, sourceTime, fields);
  }
  const inserted = await insertSubscription(db, { id: newId(), tenant_id: tenantId, external_id: sub.id, plan_id: plan?.id ?? null, payment_method_id: null, externally_managed: 0, created_at: now, source_updated_at: sourceTime, ...fields });
  if (inserted) return true;
  // Inserted meanwhile by the other writer (the webhook or our call's answer): apply as an update.
  const raced = await findSubscriptionByExternalId(db, sub.id);
  return raced && raced.tenant_id === tenantId ? updateSubscriptionFromSource(db, raced.id, sourceTime, fields) : false;
}

/** Upserts a Stripe invoice of `tenantId`; answers whether the row changed. */
export async function applyInvoice(db: Db, tenantId: string, invoice: Obj, sourceTime: number, now: number): Promise<boolean> {
  const subscriptionExternal = idOf(invoice.subscription) ?? idOf(invoice.parent?.subscription_details?.subscription);
  const subscription = subscriptionExternal ? await findSubscriptionByExternalId(db, subscriptionExternal) : undefined;
  const paid = invoice.paid === true || invoice.status === 'paid';
  const lines = (Array.isArray(invoice.lines?.data) ? invoice.lines.data : []).slice(0, 100).map((l: Obj) => ({
    description: typeof l.description === 'string' ? l.description.slice(0, 200) : '',
    amount: typeof l.amount === 'number' ? Math.round(l.amount) : 0,
    quantity: typeof l.quantity === 'number' ? l.quantity : 1,
  }));
  const fields = {
    subscription_id: subscription && subscription.tenant_id === tenantId ? subscription.id : null,
    status: typeof invoice.status === 'string' ? invoice.status.slice(0, 32) : 'draft',
    payment_date: paid ? (ms(invoice.status_transitions?.paid_at) ?? ms(invoice.created)) : null,
    total_amount: typeof invoice.total === 'number' ? Math.round(invoice.total) : 0,
    currency: typeof invoice.currency === 'string' && /^[a-z]{3}$/i.test(invoice.currency) ? invoice.currency.toLowerCase() : DEFAULT_CURRENCY,
    paid: paid ? 1 : 0,
    receipt_number: typeof invoice.number === 'string' ? invoice.number : typeof invoice.receipt_number === 'string' ? invoice.receipt_number : null,
    lines: JSON.stringify(lines),
    updated_at: now,
  };
  const existing = await findInvoiceByExternalId(db, invoice.id);
  if (existing) {
    if (existing.tenant_id !== tenantId) return false;
    return updateInvoiceFromSource(db, existing.id, sourceTime, fields);
  }
  const inserted = await insertInvoice(db, { id: newId(), tenant_id: tenantId, external_id: invoice.id, created_at: ms(invoice.created) ?? now, source_updated_at: sourceTime, ...fields });
  if (inserted) return true;
  const raced = await findInvoiceByExternalId(db, invoice.id);
  return raced && raced.tenant_id === tenantId ? updateInvoiceFromSource(db, raced.id, sourceTime, fields) : false;
}
