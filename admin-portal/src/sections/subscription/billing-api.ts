/**
 * The Subscription and Usage sections' calls to the billing API (seed 001 section 7
 * "Subscriptions"): plans, the managed subscription (the first is the tenant's), invoices and their
 * PDF, payment methods (the first is the default), payment providers, the tenant's billing rules and
 * its usage. Paths from the shared wire contract; nothing here decides anything.
 */
import { BillingPaths, PAYMENT_PROVIDER_ACTIVE, PAYMENT_PROVIDER_STRIPE } from '@gatehouse/shared/admin-paths';
import type { BillingDetailsBody, BillingSummary, Invoice, PaymentMethod, PublicPlan, Subscription, TenantBillingConfiguration, UsageResponse } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';

const withId = (path: string, id: string) => path.replace('{id}', encodeURIComponent(id));

export function createBillingApi(api: GatehouseApi) {
  return {
    plans: () => api.request<PublicPlan[]>('GET', BillingPaths.plans),
    /** The tenant's subscription: the first of the managed list (seed 001 section 7), or null. */
    subscription: async (): Promise<Subscription | null> => (await api.request<Subscription[]>('GET', BillingPaths.managedSubscriptions))[0] ?? null,
    invoices: () => api.request<Invoice[]>('GET', BillingPaths.invoices),
    /** The default payment method: the first of the list (seed 001 section 7), or null. */
    paymentMethod: async (): Promise<PaymentMethod | null> => (await api.request<PaymentMethod[]>('GET', BillingPaths.paymentMethods))[0] ?? null,
    /** Seed 001 section 7: billing works only with a provider whose status is '1' and type Stripe. */
    providerActive: async (): Promise<boolean> =>
      (await api.request<Array<{ providerType: string; status: string }>>('GET', BillingPaths.paymentProviders)).some((p) => p.providerType === PAYMENT_PROVIDER_STRIPE && p.status === PAYMENT_PROVIDER_ACTIVE),
    summary: (tenantId: string) => api.request<BillingSummary>('GET', BillingPaths.summary.replace('{tenantId}', encodeURIComponent(tenantId))),
    configuration: () => api.request<TenantBillingConfiguration>('GET', BillingPaths.tenantConfiguration),
    cancel: (id: string) => api.request<Subscription>('PUT', withId(BillingPaths.cancelSubscription, id), { body: {} }),
    renew: (id: string) => api.request<Subscription>('PUT', withId(BillingPaths.renewSubscription, id), { body: {} }),
    invoicePdf: (id: string) => api.request<Blob>('GET', withId(BillingPaths.invoicePdf, id), { responseType: 'blob' }),
    updateBillingDetails: (id: string, body: BillingDetailsBody) => api.request<PaymentMethod>('PATCH', withId(BillingPaths.paymentMethodBillingDetails, id), { body }),
    usage: () => api.request<UsageResponse>('GET', BillingPaths.usage),
  };
}

export type BillingApi = ReturnType<typeof createBillingApi>;
