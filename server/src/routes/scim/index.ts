/**
 * The SCIM area (issue 15): a tenant's provisioning connections (admin routes under /directory) and
 * the SCIM 2.0 service provider at /scim/v2 (RFC 7643/7644), authenticated by a connection's bearer
 * token only: the token decides the tenant, and every answer, errors included, is SCIM's.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { OpenAPIHono as ScimHono } from '@hono/zod-openapi';
import { ProvisioningPaths } from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import type { AppEnv } from '../../http/env';
import { onError } from '../../http/errors';
import { createScimConnectionService, type ScimConnectionService } from '../../services/scim/connections';
import { ScimError, ScimErrors } from '../../services/scim/errors';
import { createScimGroupService } from '../../services/scim/groups';
import { createScimRequestLog, type ScimRequestLog } from '../../services/scim/request-log';
import { createScimUserService } from '../../services/scim/users';
import type { RouteDeps } from '../deps';
import { scimConnectionRoutes } from './connections';
import { scimResourceRoutes } from './resources';
import { scimSearchRoutes } from './search';
import { scimOnError, scimValidationHook, type ScimEnv } from './scim-http';
import { scimAuthentication, scimDiscoveryRoutes } from './service-provider';

export interface ScimArea {
  connections: ScimConnectionService;
  requestLog: ScimRequestLog;
}

/** Builds the SCIM services and registers their routes. */
export function scimArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps): ScimArea {
  const { db, clock, config, limiter } = deps;
  const requestLog = createScimRequestLog({ db });
  const connections = createScimConnectionService({ db, clock, config, requestLog });
  app.route('/', scimConnectionRoutes(deps, connections));

  const users = createScimUserService({ db, clock, seats: deps.entitlements, emailDomains: deps.security.emailDomains });
  const groups = createScimGroupService({ db, clock });
  const scim = new ScimHono<ScimEnv>({ defaultHook: scimValidationHook });
  scim.onError(scimOnError);
  scim.use(`${ProvisioningPaths.scimBase}/*`, scimAuthentication({ connections, requestLog, limiter, clock, config }));
  scim.route('/', scimDiscoveryRoutes());
  scim.route('/', scimSearchRoutes({ users, groups }));
  scim.route('/', scimResourceRoutes({ users, groups }));
  scim.all(`${ProvisioningPaths.scimBase}/*`, (c) => {
    // The discovery endpoints exist but only for GET (RFC 7644 section 4): another method is 405.
    if (/^\/scim\/v2\/(ServiceProviderConfig|ResourceTypes|Schemas)(\/|$)/.test(c.req.path)) throw new ScimError(405, undefined, `${c.req.method} is not supported on ${c.req.path.slice(0, 200)}: only GET`);
    throw ScimErrors.notFound(`No SCIM endpoint at ${c.req.path.slice(0, 200)}`);
  });
  // The SCIM app's variables extend AppEnv's; Hono types a mounted app by its own Env.
  app.route('/', scim as unknown as OpenAPIHono<AppEnv>);
  // The server's shared layers (body limit, control characters) refuse a request before it reaches
  // the SCIM app: under /scim/v2 those refusals too are SCIM errors, as identity providers parse them.
  const scimPrefix = `${ProvisioningPaths.scimBase}/`;
  app.onError((err, c) => (c.req.path.startsWith(scimPrefix) ? scimOnError(err, c as unknown as Context<ScimEnv>) : onError(err, c)));
  app.openAPIRegistry.registerComponent('securitySchemes', 'ScimBearer', { type: 'http', scheme: 'bearer', description: "A provisioning connection's token (ghscim.…), shown once when the connection is created or its token rotated" });
  return { connections, requestLog };
}
