import { describe, expect, it } from 'vitest';
import type { PaymentMethod, PublicPlan, Subscription } from '@gatehouse/shared/wire';
import { checkoutReducer, confirmPath, initialCheckoutState, needsCard, type CheckoutData } from './checkout-state';

const premium: PublicPlan = { id: 'plan-premium', name: 'Premium', description: '', slug: 'premium', price: { amount: 10000, currency: 'usd' }, recurringInterval: 'month', trialDays: 14 };
const free: PublicPlan = { ...premium, id: 'plan-free', name: 'Free', slug: 'free', price: { amount: 0, currency: 'usd' } };
const subscription = (patch: Partial<Subscription>): Subscription => ({
  id: 'sub-1', externalId: 'sub_x', planId: premium.id, startDate: 0, currentPeriodStart: 0, currentPeriodEnd: 0, status: 'active', cancellation: null, trialEnd: null, externallyManaged: false, paymentMethodId: null, ...patch,
});
const card: PaymentMethod = { id: 'pm_1', type: 'card', isDefault: true, last4: '4242', expMonth: 12, expYear: 2030, brand: 'visa', billingDetails: { email: null, address: null } };
const data = (patch: Partial<CheckoutData>): CheckoutData => ({ plan: premium, subscription: null, paymentMethod: null, publishableKey: 'pk_test_1', ...patch });

describe('confirmPath (seed 001 section 4)', () => {
  it('makes no server call when trialing the chosen plan with a payment method on file', () => {
    expect(confirmPath(data({ subscription: subscription({ status: 'trialing' }), paymentMethod: card }))).toBe('local');
    expect(confirmPath(data({ subscription: subscription({ status: 'trialing', paymentMethodId: 'pm_1' }) }))).toBe('local');
  });

  it('updates the managed subscription when trialing without a card, trialing another plan, or not trialing', () => {
    expect(confirmPath(data({ subscription: subscription({ status: 'trialing' }) }))).toBe('update');
    expect(confirmPath(data({ subscription: subscription({ status: 'trialing', planId: free.id }), paymentMethod: card }))).toBe('update');
    expect(confirmPath(data({ subscription: subscription({ status: 'active' }), paymentMethod: card }))).toBe('update');
  });

  it('creates a subscription when the tenant has none yet', () => {
    expect(confirmPath(data({}))).toBe('create');
  });
});

describe('needsCard', () => {
  it('asks for a card unless the path is local, the plan is free, or the card on file is chosen', () => {
    expect(needsCard(data({}), true)).toBe(true);
    expect(needsCard(data({ plan: free }), false)).toBe(false);
    expect(needsCard(data({ subscription: subscription({ status: 'active' }), paymentMethod: card }), true)).toBe(false);
    expect(needsCard(data({ subscription: subscription({ status: 'active' }), paymentMethod: card }), false)).toBe(true);
    expect(needsCard(data({ subscription: subscription({ status: 'trialing' }), paymentMethod: card }), false)).toBe(false);
  });
});

describe('checkoutReducer (seed 001 section 4 operations)', () => {
  it('load leaves it not fetching, not loading, without error and not confirmed', () => {
    const loaded = checkoutReducer({ ...initialCheckoutState, error: 'x', confirmed: true }, { type: 'load', data: data({}) });
    expect(loaded).toMatchObject({ fetching: false, loading: false, error: null, confirmed: false });
    expect(loaded.data?.plan.id).toBe(premium.id);
  });

  it('submit is loading; a card error goes under the field, any other error is general; reset clears both', () => {
    const loaded = checkoutReducer(initialCheckoutState, { type: 'load', data: data({}) });
    const submitting = checkoutReducer(loaded, { type: 'submit' });
    expect(submitting.loading).toBe(true);
    const fieldError = checkoutReducer(submitting, { type: 'error', error: 'Your card was declined.', field: true });
    expect(fieldError).toMatchObject({ loading: false, fieldError: 'Your card was declined.', error: null });
    const general = checkoutReducer(submitting, { type: 'error', error: 'Payment provider not configured' });
    expect(general).toMatchObject({ loading: false, error: 'Payment provider not configured', fieldError: null });
    expect(checkoutReducer(general, { type: 'reset' })).toMatchObject({ error: null, fieldError: null, loading: false, confirmed: false });
  });

  it('confirmed keeps the data and the server result', () => {
    const loaded = checkoutReducer(initialCheckoutState, { type: 'load', data: data({}) });
    const result = { subscription: subscription({}), paymentMethod: card, latestInvoice: null };
    expect(checkoutReducer(checkoutReducer(loaded, { type: 'submit' }), { type: 'confirmed', result })).toMatchObject({ confirmed: true, loading: false, result, data: loaded.data });
  });
});
