/**
 * Preview routes of the Subscription section (docs/preview-mode.md): the plans, the account's
 * subscription on Premium, its invoice and an active Stripe provider, so the section shows as it
 * would, and the Usage section's seats; cancel and renew are simulated and audited. Paying is not: the checkout's calls (the
 * publishable key, setup intents, subscriptions, a plan change) answer PREVIEW_PAYING_REFUSED,
 * which the checkout dialog shows, so no card is taken and nothing reaches Stripe.
 */
import { BillingPaths } from '../wire/billing/paths';
import type { Subscription } from '../wire/billing/billing';
import { PREVIEW_INVOICES, PREVIEW_PAYMENT_PROVIDERS, PREVIEW_PLANS, PREVIEW_SUBSCRIPTION } from './billing';
import { PREVIEW_TENANT_ID } from './sample-data';
import { fail, ok, type Handler, type PreviewState, type Route } from './routes';

const DAY = 86_400_000;

/** What the checkout shows when the visitor tries to pay in preview. */
export const PREVIEW_PAYING_REFUSED = 'Paying is not available in preview mode: no card is taken and the plan stays as it is.';

export function billingRoutes(state: PreviewState): Route[] {
  // The current period holds today (it began 10 days ago), so the section never shows a renewal date in the past.
  const periodStart = state.now() - 10 * DAY;
  const subscription: Subscription = { ...structuredClone(PREVIEW_SUBSCRIPTION), currentPeriodStart: periodStart, currentPeriodEnd: periodStart + 30 * DAY };
  const refused: Handler = () => fail(404, PREVIEW_PAYING_REFUSED);
  /** Cancel (at the period's end) or renew the sample subscription, audited. */
  const change = (cancel: boolean): Handler => ({ params }) => {
    if (params.id !== subscription.id) return fail(404, 'Subscription not found');
    subscription.cancellation = cancel ? { policy: 'atPeriodEnd' } : null;
    state.audit(cancel ? 'Subscription canceled' : 'Subscription renewed', cancel ? 'The subscription will end at the end of its period' : 'The pending cancellation was undone');
    return ok(subscription);
  };
  return [
    ['GET', BillingPaths.plans, () => ok(PREVIEW_PLANS)],
    ['GET', BillingPaths.plan, ({ params }) => {
      const plan = PREVIEW_PLANS.find((p) => p.id === params.id);
      return plan ? ok(plan) : fail(404, 'Plan not found');
    }],
    ['GET', BillingPaths.managedSubscriptions, () => ok([subscription])],
    ['GET', BillingPaths.invoices, () => ok(PREVIEW_INVOICES)],
    ['GET', BillingPaths.paymentMethods, () => ok([])],
    ['GET', BillingPaths.paymentProviders, () => ok(PREVIEW_PAYMENT_PROVIDERS)],
    ['GET', BillingPaths.summary, () => ok({ currentPlanId: subscription.planId, externallyManaged: false, paymentMethodId: null })],
    ['GET', BillingPaths.tenantConfiguration, () => ok({ tenantId: PREVIEW_TENANT_ID, allowPlanDowngrade: true, allowPlanCancellation: true, trialEndOption: 'change_to_default', defaultPlanId: 'preview-plan-free' })],
    // Usage: the seats are the sample account's users, out of the current plan's limit.
    ['GET', BillingPaths.usage, () => ok({ planId: subscription.planId, seats: { used: state.users().length, limit: PREVIEW_PLANS.find((p) => p.id === subscription.planId)?.seatLimit ?? null }, features: [] })],
    ['PUT', BillingPaths.cancelSubscription, change(true)],
    ['PUT', BillingPaths.renewSubscription, change(false)],
    ['GET', BillingPaths.vendorPublicConfiguration, refused],
    ['POST', BillingPaths.stripeCustomers, refused],
    ['POST', BillingPaths.stripeSetupIntents, refused],
    ['POST', BillingPaths.stripeSubscriptions, refused],
    ['PUT', BillingPaths.managedSubscription, refused],
  ];
}
