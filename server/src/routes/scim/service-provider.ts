import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ProvisioningPaths } from '@gatehouse/shared/wire';
import type { MiddlewareHandler } from 'hono';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { clientIp } from '../../http/middleware';
import type { ScimConnectionService } from '../../services/scim/connections';
import { findResourceType, findSchema, RESOURCE_TYPES, resourceTypeBody, schemaBody, serviceProviderConfig } from '../../services/scim/discovery';
import { ScimErrors } from '../../services/scim/errors';
import { listResponse } from '../../services/scim/list-response';
import { ALL_SCHEMAS } from '../../services/scim/schemas';
import { loggablePath, type ScimRequestLog } from '../../services/scim/request-log';
import { UNKNOWN_CLIENT, type RateLimiter } from '../../services/platform/rate-limit';
import { scimCommonErrors, scimList, scimResource, scimErr, scimJson, ScimListResponseSchema, ScimResourceSchema, scimValidationHook, type ScimEnv } from './scim-http';

const base = ProvisioningPaths.scimBase;
export const scimTags = ['scim'];
/** The security of every SCIM operation: the connection's token as a bearer token. */
export const scimSecurity = [{ ScimBearer: [] }];

/**
 * Every SCIM request: the connection's bearer token (and nothing else) proves the connection, whose
 * tenant the request acts in; the connection's rate limit; then, once answered, one row of its
 * request log (method, path, status, time and what changed; never the token).
 */
export function scimAuthentication(deps: { connections: ScimConnectionService; requestLog: ScimRequestLog; limiter: RateLimiter; clock: Clock; config: Pick<Config, 'trustProxy' | 'publicUrl'> }): MiddlewareHandler<ScimEnv> {
  const baseUrl = `${deps.config.publicUrl.replace(/\/+$/, '')}${base}`;
  return async (c, next) => {
    const connection = await deps.connections.authenticate(c.req.header('authorization'));
    if (!connection) {
      // Guessing tokens is counted per client: past the limit the answer is 429, not 401.
      await deps.limiter.consume('scimBadTokenPerIp', clientIp(c, deps.config) ?? UNKNOWN_CLIENT);
      throw ScimErrors.unauthorized();
    }
    const startedAt = deps.clock.now();
    const started = performance.now();
    c.set('scim', { connection, tenantId: connection.tenant_id, ip: clientIp(c, deps.config), userAgent: c.req.header('user-agent')?.slice(0, 512) ?? null, baseUrl });
    try {
      await deps.limiter.consume('scimPerConnection', connection.id);
      await next();
    } finally {
      const change = c.get('scimChange');
      await deps.requestLog.record({
        connectionId: connection.id,
        method: c.req.method,
        path: loggablePath(new URL(c.req.url)),
        status: c.res.status,
        startedAt,
        finishedAt: startedAt + (performance.now() - started),
        resourceType: change?.resourceType ?? null,
        resourceId: change?.resourceId ?? null,
        diff: change?.diff ?? null,
        error: c.res.status >= 400 ? (c.get('scimError') ?? null) : null,
      });
    }
  };
}

/** The discovery endpoints (RFC 7644 section 4): what this service provider supports, its resource types and schemas. */
export function scimDiscoveryRoutes(): OpenAPIHono<ScimEnv> {
  const app = new OpenAPIHono<ScimEnv>({ defaultHook: scimValidationHook });
  const NameParam = z.object({ name: z.string().min(1).max(64) });
  const UrnParam = z.object({ urn: z.string().min(1).max(200) });

  app.openapi(
    createRoute({ method: 'get', path: `${base}/ServiceProviderConfig`, tags: scimTags, security: scimSecurity, summary: 'What this SCIM service provider supports (RFC 7644 section 5)', responses: { 200: scimJson(ScimResourceSchema, 'The ServiceProviderConfig'), ...scimCommonErrors } }),
    (c) => scimResource(c, 200, serviceProviderConfig(c.get('scim').baseUrl)),
  );
  app.openapi(
    createRoute({ method: 'get', path: `${base}/ResourceTypes`, tags: scimTags, security: scimSecurity, summary: 'The resource types: User (with the enterprise extension) and Group', responses: { 200: scimJson(ScimListResponseSchema, 'The resource types'), ...scimCommonErrors } }),
    (c) => {
      const items = RESOURCE_TYPES.map((rt) => resourceTypeBody(rt, c.get('scim').baseUrl));
      return scimList(c, listResponse(items, items.length, 1));
    },
  );
  app.openapi(
    createRoute({ method: 'get', path: `${base}/ResourceTypes/{name}`, tags: scimTags, security: scimSecurity, summary: 'One resource type', request: { params: NameParam }, responses: { 200: scimJson(ScimResourceSchema, 'The resource type'), 404: scimErr('No such resource type'), ...scimCommonErrors } }),
    (c) => {
      const rt = findResourceType(c.req.valid('param').name);
      if (!rt) throw ScimErrors.notFound(`Resource type ${c.req.valid('param').name} not found`);
      return scimResource(c, 200, resourceTypeBody(rt, c.get('scim').baseUrl));
    },
  );
  app.openapi(
    createRoute({ method: 'get', path: `${base}/Schemas`, tags: scimTags, security: scimSecurity, summary: 'The schemas: core User, enterprise User extension, Group', responses: { 200: scimJson(ScimListResponseSchema, 'The schemas'), ...scimCommonErrors } }),
    (c) => {
      const items = ALL_SCHEMAS.map((s) => schemaBody(s, c.get('scim').baseUrl));
      return scimList(c, listResponse(items, items.length, 1));
    },
  );
  app.openapi(
    createRoute({ method: 'get', path: `${base}/Schemas/{urn}`, tags: scimTags, security: scimSecurity, summary: 'One schema by its URN', request: { params: UrnParam }, responses: { 200: scimJson(ScimResourceSchema, 'The schema'), 404: scimErr('No such schema'), ...scimCommonErrors } }),
    (c) => {
      const schema = findSchema(c.req.valid('param').urn);
      if (!schema) throw ScimErrors.notFound(`Schema ${c.req.valid('param').urn} not found`);
      return scimResource(c, 200, schemaBody(schema, c.get('scim').baseUrl));
    },
  );
  return app;
}
