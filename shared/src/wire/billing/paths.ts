/**
 * Paths, statuses and error messages of subscriptions and billing (issue 13; seed 001 sections 3
 * "Billing", 4 "Subscription", 7 "Subscriptions", 8, 9). Plain data, no zod: the admin portal and
 * the checkout import it at run time; the schemas are in billing.ts. Every path is under
 * `/subscriptions/resources/billing/`.
 */
const billing = '/subscriptions/resources/billing';

export const BillingPaths = {
  /** GET: the active plans, `[{ id, name, description, slug, price: { amount, currency }, recurringInterval: "month" }]`. Exact (issue 13). */
  plans: `${billing}/plans/v1`,
  /** GET one active plan. */
  plan: `${billing}/plans/v1/{id}`,
  /** GET: the tenant's managed subscriptions, newest first (the portal uses the first). */
  managedSubscriptions: `${billing}/subscriptions/v1/managed`,
  /** PUT `{ paymentMethodId?, planId }`: change plan / attach a card (checkout confirm). */
  managedSubscription: `${billing}/subscriptions/v1/managed/{id}`,
  /** PUT: cancel at period end (seed 001 section 4 rules). */
  cancelSubscription: `${billing}/subscriptions/v1/managed/{id}/cancel`,
  /** PUT: undo a pending cancellation. */
  renewSubscription: `${billing}/subscriptions/v1/managed/{id}/renew`,
  /** GET: the tenant's invoices, newest first. */
  invoices: `${billing}/invoices/v1`,
  /** GET: application/pdf. */
  invoicePdf: `${billing}/invoices/v1/{id}/pdf`,
  /** GET: the tenant's payment methods (the portal uses the first, the default). */
  paymentMethods: `${billing}/payment-methods/v1`,
  /** PATCH `{ id, email, address }`. */
  paymentMethodBillingDetails: `${billing}/payment-methods/v1/{id}/billing-details`,
  /** GET: `[{ id, providerType: 'Stripe', status: '1' | '0' }]`. */
  paymentProviders: `${billing}/payment-providers/v1`,
  /** GET: `{ currentPlanId, externallyManaged, paymentMethodId }`. */
  summary: `${billing}/summaries/v1/{tenantId}`,
  /** GET: the rules that apply to the caller's tenant (allowPlanDowngrade, allowPlanCancellation). */
  tenantConfiguration: `${billing}/tenant-configurations/v1`,
  /** GET, no auth: `{ publishableKey }` (null when billing is not configured). */
  vendorPublicConfiguration: `${billing}/vendor-public-configurations/v1`,
  /** POST: create_customer for the caller's tenant (idempotent). */
  stripeCustomers: `${billing}/stripe/customers/v1`,
  /** POST `{ planId, paymentMethodId? }`: a Stripe subscription for the caller's tenant. */
  stripeSubscriptions: `${billing}/stripe/subscriptions/v1`,
  /** POST `{ paymentMethodId? }` -> `{ setupIntentSecret }`. */
  stripeSetupIntents: `${billing}/stripe/setup-intents/v1`,
  /** POST: Stripe's webhook (raw body, `Stripe-Signature`). */
  stripeWebhook: `${billing}/stripe/webhooks/v1`,
  /** GET (fe.usage.read): seats used of the plan's limit, and each limited feature's use. POST `{ featureKey, quantity }`: report use. */
  usage: `${billing}/usage/v1`,
} as const;

/** Seed 001 section 4: the subscription statuses; anything else from the provider maps to expired. */
export const SubscriptionStatuses = ['active', 'canceled', 'incomplete', 'expired', 'trialing', 'trialEnded'] as const;
export type SubscriptionStatus = (typeof SubscriptionStatuses)[number];
/** The only cancellation policy (seed 001 section 4). */
export const CANCELLATION_AT_PERIOD_END = 'atPeriodEnd';
export const TrialEndOptions = ['change_to_default', 'retain_trial'] as const;
export type TrialEndOption = (typeof TrialEndOptions)[number];
export const PAYMENT_PROVIDER_STRIPE = 'Stripe';
/** A payment provider is active when its status is this string (seed 001 section 7). */
export const PAYMENT_PROVIDER_ACTIVE = '1';
export const DEFAULT_CURRENCY = 'usd';
export const RECURRING_INTERVAL = 'month';

/** Seed 001 section 8, verbatim. */
export const BillingErrorMessages = {
  subscriptionNotFound: 'Subscription not found',
  externallyManaged: 'Billing is externally managed',
  tenantIdNotDefined: 'TenantId is not defined',
  providerNotConfigured: 'Payment provider not configured',
  internalFeatureFailure: 'Internal feature failure',
  notAuthorized: 'Not authorized',
} as const;

/** errorCode of billing errors (the body's `errors` carry the messages above or a sentence). */
export const BillingErrorCodes = {
  subscriptionNotFound: 'ER-03001',
  externallyManaged: 'ER-03002',
  tenantIdNotDefined: 'ER-03003',
  providerNotConfigured: 'ER-03004',
  cancelNotAllowed: 'ER-03005',
  renewNotAllowed: 'ER-03006',
  downgradeNotAllowed: 'ER-03007',
  planNotFound: 'ER-03008',
  seatLimitReached: 'ER-03009',
  paymentFailed: 'ER-03010',
  invalidWebhook: 'ER-03011',
  featureLimitReached: 'ER-03012',
} as const;
export type BillingErrorCode = (typeof BillingErrorCodes)[keyof typeof BillingErrorCodes];

/** Invoice amounts: minor units / 100, 2 decimals (seed 001 section 9). */
export function minorToMajor(amount: number): number {
  return Math.round(amount) / 100;
}
