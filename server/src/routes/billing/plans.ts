/** The active plans (issue 13: GET plans/v1, exact shape), readable by any signed-in user: the checkout and the portal's plan cards. */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { BillingPaths, PlansResponse, PublicPlan } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import { requireAuth } from '../../http/middleware';
import type { PlanService } from '../../services/billing/plans';
import type { RouteDeps } from '../deps';
import { err, json } from '../openapi';

const tags = ['billing: plans'];

export function planRoutes(deps: RouteDeps, plans: PlanService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const signedIn = requireAuth(deps.auth);

  app.openapi(
    createRoute({
      method: 'get',
      path: BillingPaths.plans,
      tags,
      summary: 'The active plans: `[{ id, name, description, slug, price: { amount, currency }, recurringInterval: "month" }]`, cheapest first (price in minor units)',
      security: [{ Bearer: [] }],
      middleware: [signedIn] as const,
      request: { query: z.object({ tenantId: z.string().max(64).optional() }) },
      responses: { 200: json(PlansResponse, 'The active plans'), 400: err('Invalid query'), 401: err('Not signed in'), 403: err('An impersonation session naming another tenant'), 404: err('tenantId names a tenant the caller is not in') },
    }),
    async (c) => c.json(await plans.list(), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: BillingPaths.plan,
      tags,
      summary: 'One active plan',
      security: [{ Bearer: [] }],
      middleware: [signedIn] as const,
      request: { params: z.object({ id: z.string().min(1).max(128) }), query: z.object({ tenantId: z.string().max(64).optional() }) },
      responses: { 200: json(PublicPlan, 'The plan'), 400: err('Invalid query'), 401: err('Not signed in'), 403: err('An impersonation session naming another tenant'), 404: err('No active plan has this id, or tenantId names a tenant the caller is not in') },
    }),
    async (c) => c.json(await plans.get(c.req.valid('param').id), 200),
  );

  return app;
}
