/**
 * CDN rollouts (issue 18; OperatorPaths.cdn*): the published versions of each bundle and their
 * rollout, and publishing a version. An HTTP caller never names a folder on the server's disk: it
 * sends the version folder's files, which are staged in a temporary folder and published with the
 * CLI's checks (services/cdn/publish-upload.ts). That route alone takes a body up to
 * CDN_PUBLISH_MAX_BODY_BYTES (http/body-limit.ts).
 */
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { CDN_PUBLISH_MAX_BODY_BYTES, CDN_PUBLISH_MAX_BYTES, CDN_PUBLISH_MAX_FILES, ErrorCodes, CdnBundleParam, CdnBundleRollout, CdnPinParam, CdnPromoteBody, CdnPruneBody, CdnPruneResponse, CdnPublishBody, CdnPublishResponse, CdnVersionsResponse, OperatorPaths } from '@gatehouse/shared/wire';
import { AppError } from '../../errors';
import { limitBody } from '../../http/body-limit';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import { requireRecentAuth } from '../../services/auth/recent-auth';
import type { CdnService } from '../../services/cdn';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { notFound, operatorErrors, operatorGuardFor } from './shared';

const tags = ['operator: cdn'];

/** The publish route's body limit: a version folder's files in base64, with their names. */
const publishBodyLimit = limitBody({
  maxSize: CDN_PUBLISH_MAX_BODY_BYTES,
  onError: () => {
    throw new AppError(ErrorCodes.payloadTooLarge, 413, `Error request is too large: at most ${CDN_PUBLISH_MAX_BODY_BYTES} bytes`);
  },
});

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
    createRoute({ method: 'post', path: OperatorPaths.cdnPromote, tags, summary: 'Makes a version the default (no percent, no tenants), the canary for a percentage of users, or pinned for tenants', ...write, request: { params: CdnBundleParam, ...body(CdnPromoteBody) }, responses: { 200: json(CdnBundleRollout, 'The bundle\'s rollout as saved'), ...invalid, ...operatorErrors, 403: err('ER-04001: the caller is not a super user, or a change from an impersonation session; ER-01306: signed in more than 10 minutes ago (sign in again)'), ...missing, ...invalidVersion } }),
    async (c) => {
      // What goes live on every tenant's pages: a stolen or left-open token alone does not do it.
      requireRecentAuth(c.get('auth'), deps.clock.now());
      return c.json(await cdn.promote(c.get('admin'), c.req.valid('param').bundle, c.req.valid('json')), 200);
    },
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
  app.openapi(
    createRoute({
      method: 'post',
      path: OperatorPaths.cdnPublish,
      tags,
      summary: `Publishes a version folder sent as its files (path inside the folder: base64), checked as \`cdn publish <dir>\` checks it; at most ${CDN_PUBLISH_MAX_FILES} files and ${CDN_PUBLISH_MAX_BYTES / 1024 / 1024} MB decoded`,
      security: write.security,
      // Its own body limit, after the guard: the server-wide one skips this route (http/body-limit.ts),
      // so no body of an unauthenticated caller is read, and a super user's may be a version folder.
      middleware: [...write.middleware, publishBodyLimit],
      request: body(CdnPublishBody),
      responses: {
        201: json(CdnPublishResponse, 'Published'),
        200: json(CdnPublishResponse, 'Already published with the same bytes: nothing changed'),
        400: err('A bad bundle, version or file name, too many files or bytes, or files that do not verify (files.json, sha384, .br/.gz, the entry); the message names the field; nothing written'),
        ...operatorErrors,
        403: err('ER-04001: the caller is not a super user, or a change from an impersonation session; ER-01306: signed in more than 10 minutes ago (sign in again)'),
        409: err('ER-04008: the version is already published with other bytes'),
        413: err('The body is over the route\'s limit'),
      },
    }),
    async (c) => {
      // Script for the identity origin's pages: a stolen or left-open token alone does not publish it.
      requireRecentAuth(c.get('auth'), deps.clock.now());
      const { audited: _, ...done } = await cdn.publishUpload(c.get('admin'), c.req.valid('json'));
      return done.outcome === 'published' ? c.json(done, 201) : c.json(done, 200);
    },
  );
  return app;
}

