import { expect, it, vi } from 'vitest';
import { createApiClient } from '../api/client';
import { AuditPaths } from '../wire/admin/audit-paths';
import { AuditsResponse } from '../wire/admin/audits';
import { BillingPaths } from '../wire/billing/paths';
import { PaymentProvidersResponse, Subscription, SubscriptionsResponse, UsageResponse } from '../wire/billing/billing';
import { isGatehouseError } from '../errors';
import { createPreviewFetch } from './preview-api';
import { PREVIEW_PAYING_REFUSED } from './billing-routes';

const BASE = 'https://auth.example.test/api';

function setup() {
  const fetch = createPreviewFetch({ baseUrl: BASE, sleep: async () => {} });
  return createApiClient({ baseUrl: BASE, clientId: 'preview', getAccessToken: () => 'preview-access-token', fetch, retry: { attempts: 1 } });
}

it('shows an active Stripe provider, so the Subscription section lists the plans, and simulates cancel and renew, audited', async () => {
  const api = setup();
  expect(PaymentProvidersResponse.parse(await api.request('GET', BillingPaths.paymentProviders)).some((p) => p.status === '1')).toBe(true);
  const [subscription] = SubscriptionsResponse.parse(await api.request('GET', BillingPaths.managedSubscriptions));
  // Its current period holds today, so the renewal date shown is never in the past.
  expect(subscription!.currentPeriodStart! < Date.now() && Date.now() < subscription!.currentPeriodEnd!).toBe(true);
  const canceled = Subscription.parse(await api.request('PUT', BillingPaths.cancelSubscription.replace('{id}', subscription!.id), { body: {} }));
  expect(canceled.cancellation).toEqual({ policy: 'atPeriodEnd' });
  expect(SubscriptionsResponse.parse(await api.request('GET', BillingPaths.managedSubscriptions))[0]!.cancellation).toEqual({ policy: 'atPeriodEnd' });
  expect(AuditsResponse.parse(await api.request('GET', AuditPaths.audits)).data[0]).toMatchObject({ action: 'Subscription canceled' });
  await api.request('PUT', BillingPaths.renewSubscription.replace('{id}', subscription!.id), { body: {} });
  expect(SubscriptionsResponse.parse(await api.request('GET', BillingPaths.managedSubscriptions))[0]!.cancellation).toBeNull();
});

it("counts the Usage section's seats: the account's users out of Premium's 20", async () => {
  const api = setup();
  expect(UsageResponse.parse(await api.request('GET', BillingPaths.usage))).toEqual({ planId: 'preview-plan-premium', seats: { used: 10, limit: 20 }, features: [] });
  await api.request('DELETE', '/team/resources/members/v1/preview-user-3');
  expect(UsageResponse.parse(await api.request('GET', BillingPaths.usage)).seats.used).toBe(9);
});

it("refuses every step of paying with the preview's sentence, without the network, and the plan stays", async () => {
  const network = vi.spyOn(globalThis, 'fetch');
  const api = setup();
  const calls: Array<['GET' | 'POST' | 'PUT', string]> = [
    ['GET', BillingPaths.vendorPublicConfiguration],
    ['POST', BillingPaths.stripeSetupIntents],
    ['POST', BillingPaths.stripeSubscriptions],
    ['PUT', BillingPaths.managedSubscription.replace('{id}', 'preview-subscription')],
  ];
  for (const [method, path] of calls) {
    const error = await api.request(method, path, { body: method === 'GET' ? undefined : { planId: 'preview-plan-free' } }).then(() => null, (e: unknown) => e);
    expect(isGatehouseError(error) && error.message).toBe(PREVIEW_PAYING_REFUSED);
  }
  expect(SubscriptionsResponse.parse(await api.request('GET', BillingPaths.managedSubscriptions))[0]!.planId).toBe('preview-plan-premium');
  expect(network).not.toHaveBeenCalled();
  network.mockRestore();
});
