/** Plans (OperatorPaths.plans, .plan): every plan, active or not; the rules are services/operator/plans.ts. */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { OperatorPaths, OperatorPlan, OperatorPlanBody, OperatorPlanPatch } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { PlanService } from '../../services/operator/plans';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { IdParam, notFound, operatorErrors, operatorGuardFor } from './shared';

const tags = ['operator: plans'];

export function planRoutes(deps: RouteDeps, plans: PlanService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = operatorGuardFor(deps);
  const read = guard('read');
  const write = guard('write');
  const invalid = { 400: err('Invalid body (the message names the field): an unknown or repeated feature key, or ER-04005: a rule condition whose operand does not fit its operation') };

  app.openapi(
    createRoute({ method: 'get', path: OperatorPaths.plans, tags, summary: 'Lists every plan, active or not, with the features it grants and whether it is the default plan', ...read, responses: { 200: json(z.array(OperatorPlan), 'The plans, by name'), ...operatorErrors } }),
    async (c) => c.json(await plans.list(), 200),
  );

  app.openapi(
    createRoute({ method: 'post', path: OperatorPaths.plans, tags, summary: 'Creates a plan (price in minor units, monthly)', ...write, request: body(OperatorPlanBody), responses: { 201: json(OperatorPlan, 'The plan'), ...invalid, ...operatorErrors, 409: err('ER-04002: the slug is taken') } }),
    async (c) => c.json(await plans.create(c.get('admin'), c.req.valid('json')), 201),
  );

  app.openapi(
    createRoute({ method: 'get', path: OperatorPaths.plan, tags, summary: 'One plan', ...read, request: { params: IdParam }, responses: { 200: json(OperatorPlan, 'The plan'), ...operatorErrors, ...notFound } }),
    async (c) => c.json(await plans.get(c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: OperatorPaths.plan,
      tags,
      summary: "Changes a plan; `features` replaces the features it grants; a new price makes billing create a new Stripe plan (Stripe's prices are immutable)",
      ...write,
      request: { params: IdParam, ...body(OperatorPlanPatch) },
      responses: { 200: json(OperatorPlan, 'The plan as saved'), ...invalid, ...operatorErrors, ...notFound, 409: err("ER-04002: the slug is taken, or ER-04006: deactivating the vendor's default plan") },
    }),
    async (c) => c.json(await plans.update(c.get('admin'), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: OperatorPaths.plan,
      tags,
      summary: 'Deletes a plan; a plan a subscription names is deactivated instead (200 with the plan); the default plan is refused',
      ...write,
      request: { params: IdParam },
      responses: { 200: json(OperatorPlan, 'Deactivated, not deleted: subscriptions name it'), 204: { description: 'Deleted' }, ...operatorErrors, ...notFound, 409: err("ER-04006: the plan is the vendor's default plan") },
    }),
    async (c) => {
      const result = await plans.remove(c.get('admin'), c.req.valid('param').id);
      return result.deleted ? c.body(null, 204) : c.json(result.plan, 200);
    },
  );
  return app;
}
