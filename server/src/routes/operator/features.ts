/** Features (OperatorPaths.features, .feature): keys, names and the permissions each gates. */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { Feature, FeatureBody, FeaturePatch, OperatorPaths } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { FeatureService } from '../../services/operator/features';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { IdParam, notFound, operatorErrors, operatorGuardFor } from './shared';

const tags = ['operator: features'];

export function featureRoutes(deps: RouteDeps, features: FeatureService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = operatorGuardFor(deps);
  const read = guard('read');
  const write = guard('write');
  const taken = { 409: err('ER-04003: the key is taken') };

  app.openapi(
    createRoute({ method: 'get', path: OperatorPaths.features, tags, summary: 'Lists every feature', ...read, responses: { 200: json(z.array(Feature), 'The features, by key'), ...operatorErrors } }),
    async (c) => c.json(await features.list(), 200),
  );
  app.openapi(
    createRoute({ method: 'post', path: OperatorPaths.features, tags, summary: 'Creates a feature', ...write, request: body(FeatureBody), responses: { 201: json(Feature, 'The feature'), 400: err('Invalid body (the message names the field)'), ...operatorErrors, ...taken } }),
    async (c) => c.json(await features.create(c.get('admin'), c.req.valid('json')), 201),
  );
  app.openapi(
    createRoute({ method: 'get', path: OperatorPaths.feature, tags, summary: 'One feature', ...read, request: { params: IdParam }, responses: { 200: json(Feature, 'The feature'), ...operatorErrors, ...notFound } }),
    async (c) => c.json(await features.get(c.req.valid('param').id), 200),
  );
  app.openapi(
    createRoute({ method: 'patch', path: OperatorPaths.feature, tags, summary: 'Changes a feature; linkedPermissions replaces the list', ...write, request: { params: IdParam, ...body(FeaturePatch) }, responses: { 200: json(Feature, 'The feature as saved'), 400: err('Invalid body (the message names the field)'), ...operatorErrors, ...notFound, ...taken } }),
    async (c) => c.json(await features.update(c.get('admin'), c.req.valid('param').id, c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({ method: 'delete', path: OperatorPaths.feature, tags, summary: 'Deletes a feature, and with it its place in every plan, its flag link and its direct grants', ...write, request: { params: IdParam }, responses: { 204: { description: 'Deleted' }, ...operatorErrors, ...notFound } }),
    async (c) => {
      await features.remove(c.get('admin'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
  return app;
}
