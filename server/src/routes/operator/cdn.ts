/**
 * CDN rollouts (issue 18; OperatorPaths.cdn*): the published versions of each bundle and their
 * rollout. Publishing is the CLI's (`npm run gatehouse -- cdn publish <dir>`): it copies a folder
 * from the operator's disk, which an HTTP caller has no business naming.
 */
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { CdnBundleParam, CdnBundleRollout, CdnPinParam, CdnPromoteBody, CdnPruneBody, CdnPruneResponse, CdnVersionsResponse, OperatorPaths } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { CdnService } from '../../services/cdn';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { notFound, operatorErrors, operatorGuardFor } from './shared';

const tags = ['operator: cdn'];

export function cdnRolloutRoutes(deps: RouteDeps, cdn: CdnService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = operatorGuardFor(deps);
  const read = guard('read');
  const write = guard('write');
  const invalid = { 400: err('Invalid body or path (the message names the field): an unknown bundle, a version that is not semver, an unknown tenant, a canary of the default') };
  const invalidVersion = { 409: err('ER-04009: the version (or the build\'s cdn-manifest.json) does not verify against its files.json; nothing changed') };
  const missing = { 404: err('ER-04004: the version is not published') };

  app.openapi(
    createRoute({ method: 'get', path: OperatorPaths.cdnVersions, tags, summary: 'Every published version of every bundle, with its rollout state and size over the wire', ...read, responses: { 200: json(CdnVersionsResponse, 'The bundles, each with its rollout and versions (newest first)'), ...operatorErrors, ...invalidVersion } }),
    async (c) => c.json(await cdn.versions(), 200),
  );
  app.openapi(
    createRoute({ method: 'post', path: OperatorPaths.cdnPromote, tags, summary: 'Makes a version the default (no percent, no tenants), the canary for a percentage of users, or pinned for tenants', ...write, request: { params: CdnBundleParam, ...body(CdnPromoteBody) }, responses: { 200: json(CdnBundleRollout, 'The bundle\'s rollout as saved'), ...invalid, ...operatorErrors, ...missing, ...invalidVersion } }),
    async (c) => c.json(await cdn.promote(c.get('admin'), c.req.valid('param').bundle, c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({ method: 'post', path: OperatorPaths.cdnRollback, tags, summary: 'Makes the previous default the default again, at once', ...write, request: { params: CdnBundleParam }, responses: { 200: json(CdnBundleRollout, 'The bundle\'s rollout as saved'), ...invalid, ...operatorErrors, 409: err('ER-04010: the bundle has no previous default, or ER-04009: the previous version no longer verifies') } }),
    async (c) => c.json(await cdn.rollback(c.get('admin'), c.req.valid('param').bundle), 200),
  );
  app.openapi(
    createRoute({ method: 'delete', path: OperatorPaths.cdnCanary, tags, summary: 'Ends the bundle\'s canary: everyone not pinned gets the default', ...write, request: { params: CdnBundleParam }, responses: { 204: { description: 'Removed' }, ...invalid, ...operatorErrors, ...notFound, ...invalidVersion } }),
    async (c) => {
      await cdn.removeCanary(c.get('admin'), c.req.valid('param').bundle);
      return c.body(null, 204);
    },
  );
  app.openapi(
    createRoute({ method: 'delete', path: OperatorPaths.cdnPin, tags, summary: 'Unpins a tenant: it gets the canary or the default again', ...write, request: { params: CdnPinParam }, responses: { 204: { description: 'Removed' }, ...invalid, ...operatorErrors, ...notFound, ...invalidVersion } }),
    async (c) => {
      const { bundle, tenantId } = c.req.valid('param');
      await cdn.unpin(c.get('admin'), bundle, tenantId);
      return c.body(null, 204);
    },
  );
  app.openapi(
    createRoute({ method: 'post', path: OperatorPaths.cdnPrune, tags, summary: 'Removes unused versions beyond the newest `keep` of each bundle; never one the manifest names', ...write, request: body(CdnPruneBody), responses: { 200: json(CdnPruneResponse, 'What was removed'), ...invalid, ...operatorErrors } }),
    async (c) => c.json(await cdn.prune(c.get('admin'), c.req.valid('json').keep), 200),
  );
  return app;
}

