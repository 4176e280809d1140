/**
 * One load of everything the Subscription section shows. A tenant whose vendor has no active Stripe
 * provider gets `notConfigured` (seed 001 section 8: 'Payment provider not configured'), told
 * honestly instead of as an error; invoices and the payment method fail on their own, so one
 * unreadable list never hides the plan.
 */
import { BillingErrorCodes, BillingErrorMessages } from '@gatehouse/shared/admin-paths';
import type { Invoice, PaymentMethod, PublicPlan, Subscription, TenantBillingConfiguration } from '@gatehouse/shared/wire';
import type { BillingApi } from './billing-api';

export type BillingState =
  | { kind: 'notConfigured' }
  | {
      kind: 'ready';
      plans: PublicPlan[];
      subscription: Subscription | null;
      configuration: TenantBillingConfiguration | null;
      /** The plan the tenant has now (the server's rule: live subscription, else retained trial, else the default plan). */
      currentPlanId: string | null;
      invoices: Invoice[] | null;
      invoicesError: unknown;
      method: PaymentMethod | null;
      methodError: unknown;
    };

/** True for the seed's 'Payment provider not configured', by code or by its verbatim text. */
export function isProviderNotConfigured(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { errorCode, message } = error as { errorCode?: unknown; message?: unknown };
  return errorCode === BillingErrorCodes.providerNotConfigured || message === BillingErrorMessages.providerNotConfigured;
}

const settled = async <T>(work: Promise<T>): Promise<{ value: T | null; error: unknown }> => {
  try {
    return { value: await work, error: null };
  } catch (error) {
    return { value: null, error };
  }
};

export async function loadBilling(billing: BillingApi, tenantId: string): Promise<BillingState> {
  try {
    if (!(await billing.providerActive())) return { kind: 'notConfigured' };
    const [plans, subscription, configuration, summary, invoices, method] = await Promise.all([
      billing.plans(),
      billing.subscription(),
      // The rules only tighten what is offered: without them, downgrade and cancel stay refused.
      settled(billing.configuration()),
      settled(billing.summary(tenantId)),
      settled(billing.invoices()),
      settled(billing.paymentMethod()),
    ]);
    for (const part of [invoices, method]) if (isProviderNotConfigured(part.error)) return { kind: 'notConfigured' };
    const currentPlanId = summary.value ? summary.value.currentPlanId : (subscription?.planId ?? configuration.value?.defaultPlanId ?? null);
    return { kind: 'ready', plans, subscription, configuration: configuration.value, currentPlanId, invoices: invoices.value, invoicesError: invoices.error, method: method.value, methodError: method.error };
  } catch (error) {
    if (isProviderNotConfigured(error)) return { kind: 'notConfigured' };
    throw error;
  }
}
