/**
 * The checkout's calls to the billing API (BillingPaths), through the API client the runtime hands
 * to every bundle (tokens, retries and the seed's error bodies are its business).
 */
import { BillingErrorMessages, BillingPaths } from '@gatehouse/shared/admin-paths';
import type { GatehouseApi } from '@gatehouse/shared';
import type { Invoice, PaymentMethod, PublicPlan, SetupIntentResponse, Subscription, VendorPublicBillingConfiguration } from '@gatehouse/shared/wire';
import { confirmPath, type CheckoutData, type CheckoutResult } from './checkout-state';

/** An error whose message is one of the seed's texts, shown as is. */
export class CheckoutError extends Error {
  readonly kind = 'CheckoutError';
}

const withId = (path: string, id: string) => path.replace('{id}', encodeURIComponent(id));

/** Everything the dialog shows before it takes a card. Without a publishable key: 'Payment provider not configured'. */
export async function loadCheckout(api: GatehouseApi, planId: string): Promise<CheckoutData> {
  const [configuration, plan, subscriptions, paymentMethods] = await Promise.all([
    api.request<VendorPublicBillingConfiguration>('GET', BillingPaths.vendorPublicConfiguration),
    api.request<PublicPlan>('GET', withId(BillingPaths.plan, planId)),
    api.request<Subscription[]>('GET', BillingPaths.managedSubscriptions),
    api.request<PaymentMethod[]>('GET', BillingPaths.paymentMethods),
  ]);
  if (!configuration.publishableKey) throw new CheckoutError(BillingErrorMessages.providerNotConfigured);
  return { plan, subscription: subscriptions[0] ?? null, paymentMethod: paymentMethods.find((m) => m.isDefault) ?? paymentMethods[0] ?? null, publishableKey: configuration.publishableKey };
}

/** POST setup-intents: the client secret Stripe.js confirms the card on. */
export async function createSetupIntent(api: GatehouseApi): Promise<string> {
  const { setupIntentSecret } = await api.request<SetupIntentResponse>('POST', BillingPaths.stripeSetupIntents, { body: {} });
  return setupIntentSecret;
}

/**
 * Confirm (seed 001 section 4): trialing the chosen plan with a card on file needs no server call
 * (the status becomes active locally). Otherwise the managed subscription is updated with the plan
 * and the new card (or one is created when the tenant has none), then billing information, payment
 * method and invoices are reloaded.
 */
export async function confirmCheckout(api: GatehouseApi, data: CheckoutData, paymentMethodId: string | undefined): Promise<CheckoutResult> {
  const path = confirmPath(data);
  if (path === 'local') {
    return { subscription: data.subscription && { ...data.subscription, status: 'active' }, paymentMethod: data.paymentMethod, latestInvoice: null };
  }
  const body = { planId: data.plan.id, ...(paymentMethodId ? { paymentMethodId } : {}) };
  if (path === 'update') await api.request('PUT', withId(BillingPaths.managedSubscription, data.subscription!.id), { body });
  else await api.request('POST', BillingPaths.stripeSubscriptions, { body });
  const [subscriptions, paymentMethods, invoices] = await Promise.all([
    api.request<Subscription[]>('GET', BillingPaths.managedSubscriptions),
    api.request<PaymentMethod[]>('GET', BillingPaths.paymentMethods),
    api.request<Invoice[]>('GET', BillingPaths.invoices),
  ]);
  return { subscription: subscriptions[0] ?? null, paymentMethod: paymentMethods.find((m) => m.isDefault) ?? paymentMethods[0] ?? null, latestInvoice: invoices[0] ?? null };
}
