/**
 * Seed 001's preview data for billing (a later preview mode shows the portal without a server):
 * the plans Premium (10000 minor units = 100.00 usd a month) and Free (0), a tenant on Premium,
 * and its first invoice. Typed with the wire schemas' types, so a change of the contract breaks them.
 */
import type { Invoice, PublicPlan, Subscription } from '../wire/billing/billing';

const PREVIEW_START = Date.UTC(2026, 0, 1);
const MONTH = 30 * 86_400_000;

export const PREVIEW_PLANS: readonly PublicPlan[] = [
  {
    id: 'preview-plan-free',
    name: 'Free',
    description: 'For trying things out',
    slug: 'free',
    price: { amount: 0, currency: 'usd' },
    recurringInterval: 'month',
    trialDays: 0,
    seatLimit: 5,
    features: [],
  },
  {
    id: 'preview-plan-premium',
    name: 'Premium',
    description: 'For growing teams',
    slug: 'premium',
    price: { amount: 10000, currency: 'usd' },
    recurringInterval: 'month',
    trialDays: 14,
    seatLimit: 20,
    features: [],
  },
];

export const PREVIEW_SUBSCRIPTION: Subscription = {
  id: 'preview-subscription',
  externalId: null,
  planId: 'preview-plan-premium',
  startDate: PREVIEW_START,
  currentPeriodStart: PREVIEW_START,
  currentPeriodEnd: PREVIEW_START + MONTH,
  status: 'active',
  cancellation: null,
  trialEnd: null,
  externallyManaged: false,
  paymentMethodId: null,
};

export const PREVIEW_INVOICES: readonly Invoice[] = [
  { id: 'preview-invoice-1', externalId: 'in_preview_1', subscriptionId: 'preview-subscription', paymentDate: PREVIEW_START, totalAmount: 100, currency: 'usd', paid: true, receiptNumber: 'PREVIEW-0001' },
];

/** An active Stripe provider, so the Subscription section shows the plans (paying itself is refused in preview). */
export const PREVIEW_PAYMENT_PROVIDERS: ReadonlyArray<{ id: string; providerType: 'Stripe'; status: '0' | '1' }> = [{ id: 'preview-provider', providerType: 'Stripe', status: '1' }];
