import { describe, expect, it } from 'vitest';
import { createGatehouse } from '@gatehouse/shared';
import { BillingPaths } from '@gatehouse/shared/admin-paths';
import type { PaymentMethod, PublicPlan, Subscription } from '@gatehouse/shared/wire';
import { createFetchStub, json } from '../../shared/src/testing/fetch-stub';
import { confirmCheckout, loadCheckout } from './checkout-api';
import type { CheckoutData } from './checkout-state';

// The real API client over a recording fetch: what the checkout asks the billing API, in order.
const premium: PublicPlan = { id: 'plan-premium', name: 'Premium', description: '', slug: 'premium', price: { amount: 10000, currency: 'usd' }, recurringInterval: 'month' };
const subscription: Subscription = { id: 'sub-1', externalId: 'sub_x', planId: premium.id, startDate: 0, currentPeriodStart: 0, currentPeriodEnd: 0, status: 'trialing', cancellation: null, trialEnd: 1, externallyManaged: false, paymentMethodId: 'pm_1' };
const card: PaymentMethod = { id: 'pm_1', type: 'card', isDefault: true, last4: '4242', expMonth: 12, expYear: 2030, brand: 'visa', billingDetails: { email: null, address: null } };

function client(routes: Parameters<typeof createFetchStub>[0]) {
  const stub = createFetchStub(routes);
  const { api } = createGatehouse({ baseUrl: 'https://id.example.com', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', navigate: () => undefined, storage: null });
  return { api, stub };
}
const reloads = {
  [`GET ${BillingPaths.managedSubscriptions}`]: () => json([{ ...subscription, status: 'active', planId: 'plan-other' }]),
  [`GET ${BillingPaths.paymentMethods}`]: () => json([card]),
  [`GET ${BillingPaths.invoices}`]: () => json([{ id: 'i1', externalId: 'in_1', subscriptionId: 'sub-1', paymentDate: 0, totalAmount: 100, currency: 'usd', paid: true, receiptNumber: null }]),
};

describe('loadCheckout', () => {
  it("says the seed's 'Payment provider not configured' when the vendor has no publishable key", async () => {
    const { api } = client({
      [`GET ${BillingPaths.vendorPublicConfiguration}`]: () => json({ publishableKey: null }),
      [`GET ${BillingPaths.plan.replace('{id}', premium.id)}`]: () => json(premium),
      [`GET ${BillingPaths.managedSubscriptions}`]: () => json([]),
      [`GET ${BillingPaths.paymentMethods}`]: () => json([]),
    });
    await expect(loadCheckout(api, premium.id)).rejects.toThrow('Payment provider not configured');
  });

  it('takes the first managed subscription and the default card on file', async () => {
    const { api } = client({
      [`GET ${BillingPaths.vendorPublicConfiguration}`]: () => json({ publishableKey: 'pk_test_1' }),
      [`GET ${BillingPaths.plan.replace('{id}', premium.id)}`]: () => json(premium),
      [`GET ${BillingPaths.managedSubscriptions}`]: () => json([subscription, { ...subscription, id: 'sub-0' }]),
      [`GET ${BillingPaths.paymentMethods}`]: () => json([{ ...card, id: 'pm_0', isDefault: false }, card]),
    });
    const data = await loadCheckout(api, premium.id);
    expect(data).toMatchObject({ publishableKey: 'pk_test_1', plan: { id: premium.id }, subscription: { id: 'sub-1' }, paymentMethod: { id: 'pm_1' } });
  });
});

describe('confirmCheckout (seed 001 section 4)', () => {
  it('trialing this plan with a payment method on file: no server call, the status becomes active locally', async () => {
    const { api, stub } = client({});
    const data: CheckoutData = { plan: premium, subscription, paymentMethod: card, publishableKey: 'pk' };
    const result = await confirmCheckout(api, data, undefined);
    expect(stub.calls).toEqual([]);
    expect(result.subscription?.status).toBe('active');
  });

  it('otherwise updates the managed subscription with planId and paymentMethodId, then reloads billing, payment method and invoices', async () => {
    const { api, stub } = client({ [`PUT ${BillingPaths.managedSubscription.replace('{id}', 'sub-1')}`]: () => json({ ...subscription, status: 'active' }), ...reloads });
    const data: CheckoutData = { plan: premium, subscription: { ...subscription, status: 'active', planId: 'plan-free' }, paymentMethod: null, publishableKey: 'pk' };
    const result = await confirmCheckout(api, data, 'pm_new');
    expect(stub.calls[0]).toMatchObject({ method: 'PUT', body: { planId: premium.id, paymentMethodId: 'pm_new' } });
    expect(stub.calls.slice(1).map((c) => `${c.method} ${c.url.pathname}`).sort()).toEqual(Object.keys(reloads).sort());
    expect(result).toMatchObject({ subscription: { status: 'active' }, paymentMethod: { last4: '4242' }, latestInvoice: { totalAmount: 100 } });
  });

  it('creates a subscription when the tenant has none, without a paymentMethodId when the card on file is used', async () => {
    const { api, stub } = client({ [`POST ${BillingPaths.stripeSubscriptions}`]: () => json({ ...subscription, status: 'active' }, { status: 201 }), ...reloads });
    await confirmCheckout(api, { plan: premium, subscription: null, paymentMethod: card, publishableKey: 'pk' }, undefined);
    expect(stub.calls[0]).toMatchObject({ method: 'POST', body: { planId: premium.id } });
    expect(stub.calls[0]!.body).not.toHaveProperty('paymentMethodId');
  });
});
