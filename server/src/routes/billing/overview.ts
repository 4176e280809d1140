/**
 * What the portal and the checkout read first: the payment providers and the tenant's rules
 * (fe.subscriptions.read), the summary by tenant (its own tenant; any tenant for a super user), and
 * the vendor's public configuration (no sign-in: only the publishable key).
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { BillingPaths, BillingSummary, PaymentProvidersResponse, Permissions, TenantBillingConfiguration, VendorPublicBillingConfiguration } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { BillingOverviewService } from '../../services/billing/overview';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { err, json } from '../openapi';

const tags = ['billing: overview'];

export function overviewRoutes(deps: RouteDeps, overview: BillingOverviewService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const read = guardFor(deps, deps.clock)(Permissions.subscriptionsRead, 'read');

  app.openapi(
    createRoute({
      method: 'get',
      path: BillingPaths.paymentProviders,
      tags,
      summary: "The payment providers: `[{ id, providerType: 'Stripe', status }]`, status '1' when the vendor configured Stripe",
      ...read,
      request: { query: TenantQuery },
      responses: { 200: json(PaymentProvidersResponse, 'The providers'), 400: err('Invalid query'), ...adminErrors },
    }),
    async (c) => c.json(await overview.paymentProviders(), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: BillingPaths.summary,
      tags,
      summary: "A tenant's billing summary `{ currentPlanId, externallyManaged, paymentMethodId }`: the caller's own tenant (403 \"Not authorized\" for another, unless a super user)",
      ...read,
      request: { params: z.object({ tenantId: z.string().max(64) }), query: TenantQuery },
      responses: { 200: json(BillingSummary, 'The summary'), 400: err('"TenantId is not defined" (ER-03003)'), ...adminErrors },
    }),
    async (c) => c.json(await overview.summary(c.get('admin'), c.req.valid('param').tenantId), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: BillingPaths.tenantConfiguration,
      tags,
      summary: "The rules that apply to the tenant's subscription: allowPlanDowngrade, allowPlanCancellation, the trial-end option and the default plan",
      ...read,
      request: { query: TenantQuery },
      responses: { 200: json(TenantBillingConfiguration, 'The rules'), 400: err('Invalid query'), ...adminErrors },
    }),
    async (c) => c.json(await overview.tenantConfiguration(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: BillingPaths.vendorPublicConfiguration,
      tags,
      summary: "The vendor's public billing configuration `{ publishableKey }` (null while Stripe is not configured); no sign-in",
      responses: { 200: json(VendorPublicBillingConfiguration, 'The public configuration') },
    }),
    async (c) => c.json(await overview.publicConfiguration(), 200),
  );

  return app;
}
