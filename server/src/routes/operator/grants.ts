/** Direct entitlement grants (OperatorPaths.grants, .grant): a feature for a tenant or one of its users. */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { Grant, GrantBody, OperatorPaths } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import { GRANT_LIST_LIMIT, type GrantService } from '../../services/operator/grants';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { IdParam, notFound, operatorErrors, operatorGuardFor } from './shared';

const tags = ['operator: entitlement grants'];
const GrantQuery = z.object({ tenantId: z.string().min(1).max(128).optional(), userId: z.string().min(1).max(128).optional() });

export function grantRoutes(deps: RouteDeps, grants: GrantService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = operatorGuardFor(deps);

  app.openapi(
    createRoute({ method: 'get', path: OperatorPaths.grants, tags, summary: `Lists direct grants, newest first (at most ${GRANT_LIST_LIMIT}), of one tenant and/or user when given`, ...guard('read'), request: { query: GrantQuery }, responses: { 200: json(z.array(Grant), 'The grants'), 400: err('Invalid query'), ...operatorErrors } }),
    async (c) => c.json(await grants.list(c.req.valid('query')), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: OperatorPaths.grants,
      tags,
      summary: 'Grants a feature to a tenant, or to one user of it, with an optional expiry (epoch ms)',
      ...guard('write'),
      request: body(GrantBody),
      responses: { 201: json(Grant, 'The grant'), 400: err('Invalid body, or (naming the field) an unknown feature or tenant, a user not in that tenant, an expiry in the past'), ...operatorErrors },
    }),
    async (c) => c.json(await grants.create(c.get('admin'), c.req.valid('json')), 201),
  );
  app.openapi(
    createRoute({ method: 'get', path: OperatorPaths.grant, tags, summary: 'One grant', ...guard('read'), request: { params: IdParam }, responses: { 200: json(Grant, 'The grant'), ...operatorErrors, ...notFound } }),
    async (c) => c.json(await grants.get(c.req.valid('param').id), 200),
  );
  app.openapi(
    createRoute({ method: 'delete', path: OperatorPaths.grant, tags, summary: 'Deletes a grant (the entitlement ends at the next token refresh)', ...guard('write'), request: { params: IdParam }, responses: { 204: { description: 'Deleted' }, ...operatorErrors, ...notFound } }),
    async (c) => {
      await grants.remove(c.get('admin'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
  return app;
}
