/**
 * The vendor's billing configuration (OperatorPaths.billingConfiguration): super users only
 * (operatorGuard). Secrets are never answered, only whether they are set; every change is audited
 * without them.
 */
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { BillingConfiguration, BillingConfigurationBody, OperatorPaths } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import { operatorGuard } from '../../http/operator-guard';
import type { BillingConfigurationService } from '../../services/billing/configuration';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

const tags = ['operator: billing configuration'];
const operatorErrors = { 401: err('Not signed in'), 403: err('Not a super user (ER-04001), an API token, or a change from an impersonation session') };

export function billingConfigurationRoutes(deps: RouteDeps, configuration: BillingConfigurationService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const operator = operatorGuard(deps);

  app.openapi(
    createRoute({
      method: 'get',
      path: OperatorPaths.billingConfiguration,
      tags,
      summary: 'The billing configuration: whether the Stripe keys are set (never the secrets), the plan rules, the trial-end option and the default plan',
      security: [{ Bearer: [] }],
      middleware: [operator('read')] as const,
      responses: { 200: json(BillingConfiguration, 'The configuration'), ...operatorErrors },
    }),
    async (c) => c.json(await configuration.get(), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: OperatorPaths.billingConfiguration,
      tags,
      summary: 'Saves the billing configuration; a secret left out is kept, null clears it. Stripe is active (status 1) while a secret key is set',
      security: [{ Bearer: [] }],
      middleware: [operator('write')] as const,
      request: { ...body(BillingConfigurationBody) },
      responses: { 200: json(BillingConfiguration, 'The configuration as saved'), 400: err('Invalid body (the field is named)'), ...operatorErrors },
    }),
    async (c) => c.json(await configuration.save(c.get('admin'), c.req.valid('json')), 200),
  );

  return app;
}
