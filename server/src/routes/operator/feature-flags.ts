/** Feature flags with targeting rules (OperatorPaths.featureFlags, .featureFlag). */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { FeatureFlag, FeatureFlagBody, FeatureFlagPatch, OperatorPaths } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { FeatureFlagService } from '../../services/operator/feature-flags';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { IdParam, notFound, operatorErrors, operatorGuardFor } from './shared';

const tags = ['operator: feature flags'];

export function featureFlagRoutes(deps: RouteDeps, flags: FeatureFlagService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = operatorGuardFor(deps);
  const read = guard('read');
  const write = guard('write');
  const invalid = { 400: err('Invalid body (the message names the field): an unknown or repeated feature key, or ER-04005: a rule condition whose operand does not fit its operation') };
  const conflict = { 409: err('ER-04003: the key is taken, or ER-04006: a feature in featureKeys is already linked to another flag') };

  app.openapi(
    createRoute({ method: 'get', path: OperatorPaths.featureFlags, tags, summary: 'Lists every feature flag with its rules and linked features', ...read, responses: { 200: json(z.array(FeatureFlag), 'The flags, by key'), ...operatorErrors } }),
    async (c) => c.json(await flags.list(), 200),
  );
  app.openapi(
    createRoute({ method: 'post', path: OperatorPaths.featureFlags, tags, summary: 'Creates a feature flag; featureKeys are the features it grants while its treatment is true', ...write, request: body(FeatureFlagBody), responses: { 201: json(FeatureFlag, 'The flag'), ...invalid, ...operatorErrors, ...conflict } }),
    async (c) => c.json(await flags.create(c.get('admin'), c.req.valid('json')), 201),
  );
  app.openapi(
    createRoute({ method: 'get', path: OperatorPaths.featureFlag, tags, summary: 'One feature flag', ...read, request: { params: IdParam }, responses: { 200: json(FeatureFlag, 'The flag'), ...operatorErrors, ...notFound } }),
    async (c) => c.json(await flags.get(c.req.valid('param').id), 200),
  );
  app.openapi(
    createRoute({ method: 'patch', path: OperatorPaths.featureFlag, tags, summary: 'Changes a feature flag; rules and featureKeys replace the lists', ...write, request: { params: IdParam, ...body(FeatureFlagPatch) }, responses: { 200: json(FeatureFlag, 'The flag as saved'), ...invalid, ...operatorErrors, ...notFound, ...conflict } }),
    async (c) => c.json(await flags.update(c.get('admin'), c.req.valid('param').id, c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({ method: 'delete', path: OperatorPaths.featureFlag, tags, summary: 'Deletes a feature flag (its features stay, unlinked)', ...write, request: { params: IdParam }, responses: { 204: { description: 'Deleted' }, ...operatorErrors, ...notFound } }),
    async (c) => {
      await flags.remove(c.get('admin'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
  return app;
}
