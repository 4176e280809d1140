/**
 * The billing area (issue 13): a tenant's subscription, invoices, payment methods and checkout,
 * with Stripe (the `stripe` SDK; STRIPE_API_URL points it at an emulator in tests), whose webhooks
 * are the source of truth. Also the operator's billing configuration (OperatorPaths.billingConfiguration).
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import { createBilling, type BillingServices } from '../../services/billing';
import type { RouteDeps } from '../deps';
import { billingConfigurationRoutes } from './configuration';
import { invoiceRoutes } from './invoices';
import { overviewRoutes } from './overview';
import { paymentMethodRoutes } from './payment-methods';
import { planRoutes } from './plans';
import { subscriptionRoutes } from './subscriptions';
import { webhookRoutes } from './webhooks';

/** Builds the billing services and registers their routes. */
export function billingArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps): BillingServices {
  const billing = createBilling(deps);
  app.route('/', planRoutes(deps, billing.plans));
  app.route('/', subscriptionRoutes(deps, billing.subscriptions));
  app.route('/', invoiceRoutes(deps, billing.invoices));
  app.route('/', paymentMethodRoutes(deps, billing.paymentMethods));
  app.route('/', overviewRoutes(deps, billing.overview));
  app.route('/', webhookRoutes(billing.webhooks));
  app.route('/', billingConfigurationRoutes(deps, billing.configuration));
  return billing;
}
