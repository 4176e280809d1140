/**
 * Wire schemas of subscriptions and billing (issue 13; seed 001 sections 3 "Billing", 4, 7).
 * Amounts: plan prices travel in minor units (`price.amount`, e.g. 10000 = 100.00 usd); invoice
 * totals travel as major units with 2 decimals (`totalAmount`, minor / 100), as the seed says.
 */
import { z } from 'zod';
import { SubscriptionStatuses, TrialEndOptions } from './paths';

export * from './paths';

const id = z.string().min(1).max(128);
const epochMs = z.number().int();

/** A plan as tenants see it (GET plans/v1). */
export const PublicPlan = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  slug: z.string(),
  price: z.object({ amount: z.number().int(), currency: z.string() }),
  recurringInterval: z.literal('month'),
  /** Beyond the seed: what the portal's plan cards show. */
  trialDays: z.number().int().optional(),
  seatLimit: z.number().int().nullable().optional(),
  features: z.array(z.object({ key: z.string(), name: z.string(), limit: z.number().int().nullable() })).optional(),
});
export type PublicPlan = z.infer<typeof PublicPlan>;
export const PlansResponse = z.array(PublicPlan);

export const Subscription = z.object({
  id: z.string(),
  externalId: z.string().nullable(),
  planId: z.string().nullable(),
  startDate: epochMs.nullable(),
  currentPeriodStart: epochMs.nullable(),
  currentPeriodEnd: epochMs.nullable(),
  status: z.enum(SubscriptionStatuses),
  /** `{ policy: 'atPeriodEnd' }` while a cancellation is pending, else null. */
  cancellation: z.object({ policy: z.literal('atPeriodEnd') }).nullable(),
  trialEnd: epochMs.nullable(),
  externallyManaged: z.boolean(),
  paymentMethodId: z.string().nullable(),
});
export type Subscription = z.infer<typeof Subscription>;
export const SubscriptionsResponse = z.array(Subscription);

/** PUT managed/{id}: change the plan, attach the card collected in the checkout. */
export const UpdateSubscriptionBody = z.object({ planId: id, paymentMethodId: id.optional() }).strict();
export type UpdateSubscriptionBody = z.infer<typeof UpdateSubscriptionBody>;

/** POST stripe/subscriptions/v1. */
export const CreateSubscriptionBody = z.object({ planId: id, paymentMethodId: id.optional() }).strict();
export type CreateSubscriptionBody = z.infer<typeof CreateSubscriptionBody>;

export const Invoice = z.object({
  id: z.string(),
  externalId: z.string(),
  subscriptionId: z.string().nullable(),
  paymentDate: epochMs.nullable(),
  /** Major units, 2 decimals (minor / 100). */
  totalAmount: z.number(),
  currency: z.string(),
  paid: z.boolean(),
  receiptNumber: z.string().nullable(),
});
export type Invoice = z.infer<typeof Invoice>;
export const InvoicesResponse = z.array(Invoice);

export const BillingAddress = z.object({
  line1: z.string().max(200).nullable().optional(),
  line2: z.string().max(200).nullable().optional(),
  city: z.string().max(100).nullable().optional(),
  state: z.string().max(100).nullable().optional(),
  postalCode: z.string().max(20).nullable().optional(),
  country: z.string().max(2).nullable().optional(),
}).strict();
export type BillingAddress = z.infer<typeof BillingAddress>;

export const PaymentMethod = z.object({
  id: z.string(),
  type: z.enum(['unknown', 'card']),
  isDefault: z.boolean(),
  last4: z.string().nullable(),
  expMonth: z.number().int().nullable(),
  expYear: z.number().int().nullable(),
  brand: z.string().nullable(),
  billingDetails: z.object({ id: z.string().optional(), email: z.string().nullable(), address: BillingAddress.nullable() }),
});
export type PaymentMethod = z.infer<typeof PaymentMethod>;
export const PaymentMethodsResponse = z.array(PaymentMethod);

/** PATCH payment-methods/v1/{id}/billing-details. */
export const BillingDetailsBody = z.object({ id: id.optional(), email: z.email().max(254), address: BillingAddress }).strict();
export type BillingDetailsBody = z.infer<typeof BillingDetailsBody>;

export const PaymentProvider = z.object({ id: z.string(), providerType: z.literal('Stripe'), status: z.enum(['0', '1']) });
export const PaymentProvidersResponse = z.array(PaymentProvider);

export const BillingSummary = z.object({ currentPlanId: z.string().nullable(), externallyManaged: z.boolean(), paymentMethodId: z.string().nullable() });
export type BillingSummary = z.infer<typeof BillingSummary>;

export const TenantBillingConfiguration = z.object({
  tenantId: z.string(),
  allowPlanDowngrade: z.boolean(),
  allowPlanCancellation: z.boolean(),
  trialEndOption: z.enum(TrialEndOptions),
  defaultPlanId: z.string().nullable(),
});
export type TenantBillingConfiguration = z.infer<typeof TenantBillingConfiguration>;

export const VendorPublicBillingConfiguration = z.object({ publishableKey: z.string().nullable() });
export type VendorPublicBillingConfiguration = z.infer<typeof VendorPublicBillingConfiguration>;

export const CustomerResponse = z.object({ customerId: z.string() });
export const SetupIntentBody = z.object({ paymentMethodId: id.optional() }).strict();
export const SetupIntentResponse = z.object({ setupIntentSecret: z.string() });
export type SetupIntentResponse = z.infer<typeof SetupIntentResponse>;

/** GET usage/v1. */
export const UsageResponse = z.object({
  planId: z.string().nullable(),
  seats: z.object({ used: z.number().int(), limit: z.number().int().nullable() }),
  features: z.array(z.object({ key: z.string(), name: z.string(), used: z.number().int(), limit: z.number().int().nullable() })),
});
export type UsageResponse = z.infer<typeof UsageResponse>;
/** POST usage/v1: the host app reports use of a limited feature (quantity may be negative to release). */
export const ReportUsageBody = z.object({ featureKey: z.string().min(1).max(100), quantity: z.number().int().min(-1_000_000).max(1_000_000) }).strict();
