import { describe, expect, it } from 'vitest';
import type { PublicPlan, Subscription, TenantBillingConfiguration } from '@gatehouse/shared/wire';
import { createTranslator } from '../../contract';
import { cancelRule, changeRule, invoiceAmount, invoiceFileName, isDowngrade, planPrice, renewRule } from './rules';

const plan = (id: string, amount: number, currency = 'usd'): PublicPlan => ({ id, name: id, description: '', slug: id, price: { amount, currency }, recurringInterval: 'month' });
const sub = (overrides: Partial<Subscription> = {}): Subscription => ({ id: 's', externalId: null, planId: 'p', startDate: null, currentPeriodStart: null, currentPeriodEnd: null, status: 'active', cancellation: null, trialEnd: null, externallyManaged: false, paymentMethodId: null, ...overrides });
const config = (overrides: Partial<TenantBillingConfiguration> = {}): TenantBillingConfiguration => ({ tenantId: 't', allowPlanDowngrade: false, allowPlanCancellation: true, trialEndOption: 'change_to_default', defaultPlanId: null, ...overrides });
const en = createTranslator('en', {});
const de = createTranslator('de', {});

describe('subscription rules (seed 001 section 4)', () => {
  it('allows cancel only for an active subscription with no cancellation pending, when the vendor allows it and billing is not external', () => {
    expect(cancelRule(sub(), config(), true)).toEqual({ allowed: true });
    for (const status of ['canceled', 'incomplete', 'expired', 'trialing', 'trialEnded'] as const) expect(cancelRule(sub({ status }), config(), true)).toEqual({ allowed: false, reason: 'subscription.reason.cancelNotActive' });
    expect(cancelRule(sub({ cancellation: { policy: 'atPeriodEnd' } }), config(), true)).toEqual({ allowed: false, reason: 'subscription.reason.cancellationPending' });
    expect(cancelRule(sub(), config({ allowPlanCancellation: false }), true)).toEqual({ allowed: false, reason: 'subscription.reason.cancellationNotAllowed' });
    expect(cancelRule(sub(), null, true)).toEqual({ allowed: false, reason: 'subscription.reason.cancellationNotAllowed' });
    expect(cancelRule(sub({ externallyManaged: true }), config(), true)).toEqual({ allowed: false, reason: 'subscription.reason.externallyManaged' });
    expect(cancelRule(sub(), config(), false)).toEqual({ allowed: false, reason: 'subscription.reason.noPermission' });
    expect(cancelRule(null, config(), true)).toEqual({ allowed: false, reason: 'subscription.reason.noSubscription' });
  });

  it('allows renew only while a cancellation at period end is pending and billing is not external', () => {
    expect(renewRule(sub({ cancellation: { policy: 'atPeriodEnd' } }), true)).toEqual({ allowed: true });
    expect(renewRule(sub(), true)).toEqual({ allowed: false, reason: 'subscription.reason.nothingToRenew' });
    expect(renewRule(sub({ cancellation: { policy: 'atPeriodEnd' }, externallyManaged: true }), true)).toEqual({ allowed: false, reason: 'subscription.reason.externallyManaged' });
    expect(renewRule(sub({ cancellation: { policy: 'atPeriodEnd' } }), false)).toEqual({ allowed: false, reason: 'subscription.reason.noPermission' });
  });

  it('treats a cheaper plan in the same currency as a downgrade, refused unless the vendor allows it', () => {
    const premium = plan('premium', 10000);
    expect(isDowngrade(plan('free', 0), premium)).toBe(true);
    expect(isDowngrade(plan('big', 20000), premium)).toBe(false);
    expect(isDowngrade(plan('eur', 100, 'eur'), premium)).toBe(false);
    expect(isDowngrade(plan('free', 0), null)).toBe(false);
    const options = { canWrite: true, checkout: true };
    expect(changeRule(plan('free', 0), premium, sub(), config(), options)).toEqual({ allowed: false, reason: 'subscription.reason.downgradeNotAllowed' });
    expect(changeRule(plan('free', 0), premium, sub(), config({ allowPlanDowngrade: true }), options)).toEqual({ allowed: true });
    expect(changeRule(plan('big', 20000), premium, sub(), config(), options)).toEqual({ allowed: true });
    expect(changeRule(plan('big', 20000), premium, sub(), config(), { canWrite: true, checkout: false })).toEqual({ allowed: false, reason: 'subscription.reason.checkoutUnavailable' });
    expect(changeRule(plan('big', 20000), premium, sub({ externallyManaged: true }), config(), options)).toEqual({ allowed: false, reason: 'subscription.reason.externallyManaged' });
  });

  it('writes plan prices from minor units with the currency’s own decimals, in the portal’s language', () => {
    expect(planPrice(en, { amount: 10000, currency: 'usd' })).toBe('$100.00');
    expect(planPrice(en, { amount: 0, currency: 'usd' })).toBe('$0.00');
    expect(planPrice(en, { amount: 1500, currency: 'jpy' })).toBe('¥1,500');
    expect(planPrice(de, { amount: 1999, currency: 'eur' })).toBe('19,99\u00a0€');
    expect(planPrice(en, { amount: 1234, currency: 'zz1' })).toBe('12.34 ZZ1');
  });

  it('writes invoice totals (already major units) with 2 decimals', () => {
    expect(invoiceAmount(en, 100, 'usd')).toBe('$100.00');
    expect(invoiceAmount(en, 12.5, 'eur')).toBe('€12.50');
    expect(invoiceAmount(de, 1234.5, 'usd')).toBe('1.234,50\u00a0$');
  });

  it('names the downloaded file after the receipt number, else the id, with only safe characters', () => {
    expect(invoiceFileName({ id: 'inv-1', receiptNumber: '1234-5678' })).toBe('invoice-1234-5678.pdf');
    expect(invoiceFileName({ id: 'inv-1', receiptNumber: null })).toBe('invoice-inv-1.pdf');
    expect(invoiceFileName({ id: 'x', receiptNumber: '../a b' })).toBe('invoice-..-a-b.pdf');
  });
});
