/**
 * The tenant's subscription (seed 001 sections 3, 4, 7): the managed list, a plan change or a card
 * from the checkout, cancel at period end and renew, and a new Stripe subscription. Reading needs
 * fe.subscriptions.read, every change fe.subscriptions.write and is audited.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { BillingPaths, CreateSubscriptionBody, Permissions, Subscription, SubscriptionsResponse, UpdateSubscriptionBody } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { SubscriptionService } from '../../services/billing/subscriptions';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

const tags = ['billing: subscriptions'];
const IdParam = z.object({ id: z.string().min(1).max(64) });
/** What a change answers beyond the admin errors. */
export const stripeErrors = {
  402: err('ER-03010: the card was declined (Stripe\'s sentence)'),
  409: err('ER-03004 "Payment provider not configured", ER-03002 "Billing is externally managed", or the rule refusing the change (ER-03005, ER-03006)'),
  502: err('"Internal feature failure": Stripe could not be reached or refused the call'),
};

export function subscriptionRoutes(deps: RouteDeps, subscriptions: SubscriptionService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, deps.clock);
  const read = guard(Permissions.subscriptionsRead, 'read');
  const write = guard(Permissions.subscriptionsWrite, 'write');

  app.openapi(
    createRoute({
      method: 'get',
      path: BillingPaths.managedSubscriptions,
      tags,
      summary: "The tenant's subscriptions, newest first (the portal shows the first)",
      ...read,
      request: { query: TenantQuery },
      responses: { 200: json(SubscriptionsResponse, 'The subscriptions'), 400: err('Invalid query'), ...adminErrors },
    }),
    async (c) => c.json(await subscriptions.list(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: BillingPaths.managedSubscription,
      tags,
      summary: 'Changes the plan and/or attaches the card collected in the checkout (a cheaper plan needs allowPlanDowngrade: else 403 ER-03007); an ended subscription starts anew',
      ...write,
      request: { params: IdParam, query: TenantQuery, ...body(UpdateSubscriptionBody) },
      responses: { 200: json(Subscription, 'The subscription as Stripe answered'), 400: err('Invalid body; paymentMethodId is not a card of the tenant'), ...adminErrors, 404: err('"Subscription not found" (ER-03001) or the plan (ER-03008)'), ...stripeErrors },
    }),
    async (c) => c.json(await subscriptions.update(c.get('admin'), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: BillingPaths.cancelSubscription,
      tags,
      summary: 'Cancels at period end (seed 001 section 4: only an active subscription with no cancellation pending, and only when the vendor allows cancellation)',
      ...write,
      request: { params: IdParam, query: TenantQuery },
      responses: { 200: json(Subscription, 'The subscription, cancellation pending'), 400: err('Invalid query'), ...adminErrors, 404: err('"Subscription not found" (ER-03001)'), ...stripeErrors },
    }),
    async (c) => c.json(await subscriptions.cancel(c.get('admin'), c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: BillingPaths.renewSubscription,
      tags,
      summary: 'Undoes a pending cancellation at period end (409 ER-03006 when none is pending)',
      ...write,
      request: { params: IdParam, query: TenantQuery },
      responses: { 200: json(Subscription, 'The subscription, renewing'), 400: err('Invalid query'), ...adminErrors, 404: err('"Subscription not found" (ER-03001)'), ...stripeErrors },
    }),
    async (c) => c.json(await subscriptions.renew(c.get('admin'), c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: BillingPaths.stripeSubscriptions,
      tags,
      summary: "Subscribes the tenant to a plan at Stripe (its customer made on first need, the plan's trial days applied); a live subscription changes plan instead",
      ...write,
      request: { query: TenantQuery, ...body(CreateSubscriptionBody) },
      responses: { 201: json(Subscription, 'The subscription as Stripe answered'), 400: err('Invalid body; paymentMethodId is not a card of the tenant'), ...adminErrors, 404: err('No active plan has this id (ER-03008)'), ...stripeErrors },
    }),
    async (c) => c.json(await subscriptions.create(c.get('admin'), c.req.valid('json')), 201),
  );

  return app;
}
