/**
 * The tenant's payment methods, read live from Stripe (fe.subscriptions.read), their billing details
 * (fe.subscriptions.write, audited), the tenant's Stripe customer (create_customer, idempotent) and
 * setup intents that collect a card in the checkout.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { BillingDetailsBody, BillingPaths, CustomerResponse, PaymentMethod, PaymentMethodsResponse, Permissions, SetupIntentBody, SetupIntentResponse } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { PaymentMethodService } from '../../services/billing/payment-methods';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { stripeErrors } from './subscriptions';

const tags = ['billing: payment methods'];

export function paymentMethodRoutes(deps: RouteDeps, methods: PaymentMethodService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, deps.clock);
  const read = guard(Permissions.subscriptionsRead, 'read');
  const write = guard(Permissions.subscriptionsWrite, 'write');

  app.openapi(
    createRoute({
      method: 'get',
      path: BillingPaths.paymentMethods,
      tags,
      summary: "The tenant's payment methods from Stripe, the default first (type unknown or card, last4, brand, expiry)",
      ...read,
      request: { query: TenantQuery },
      responses: { 200: json(PaymentMethodsResponse, 'The payment methods (none before a customer exists)'), 400: err('Invalid query'), ...adminErrors, ...stripeErrors },
    }),
    async (c) => c.json(await methods.list(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: BillingPaths.paymentMethodBillingDetails,
      tags,
      summary: "Sets a payment method's billing email and address (`{ id, email, address }`)",
      ...write,
      request: { params: z.object({ id: z.string().min(1).max(128) }), query: TenantQuery, ...body(BillingDetailsBody) },
      responses: { 200: json(PaymentMethod, 'The payment method as saved'), 400: err('Invalid body (the field is named)'), ...adminErrors, ...stripeErrors },
    }),
    async (c) => c.json(await methods.updateBillingDetails(c.get('admin'), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: BillingPaths.stripeCustomers,
      tags,
      summary: "The tenant's Stripe customer, made on first need (idempotent: the same customer every time)",
      ...write,
      request: { query: TenantQuery },
      responses: { 200: json(CustomerResponse, 'The customer'), 400: err('Invalid query'), ...adminErrors, ...stripeErrors },
    }),
    async (c) => c.json(await methods.ensureCustomer(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: BillingPaths.stripeSetupIntents,
      tags,
      summary: 'A SetupIntent to collect a card in the checkout (`{ paymentMethodId? }`: the card it replaces) -> `{ setupIntentSecret }`',
      ...write,
      request: { query: TenantQuery, body: { required: false, content: { 'application/json': { schema: SetupIntentBody } } } },
      responses: { 200: json(SetupIntentResponse, "The intent's client secret, for Stripe.js"), 400: err('Invalid body'), ...adminErrors, ...stripeErrors },
    }),
    async (c) => c.json(await methods.setupIntent(c.get('admin'), (c.req.valid('json') as z.infer<typeof SetupIntentBody> | undefined) ?? {}), 200),
  );

  return app;
}
