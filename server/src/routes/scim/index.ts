/**
 * The SCIM area (issue 15): a tenant's provisioning connections (admin routes under /directory) and
 * the SCIM 2.0 service provider at /scim/v2, authenticated by a connection's bearer token only.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import { createScimConnectionService, type ScimConnectionService } from '../../services/scim/connections';
import { createScimRequestLog, type ScimRequestLog } from '../../services/scim/request-log';
import type { RouteDeps } from '../deps';
import { scimConnectionRoutes } from './connections';

export interface ScimArea {
  connections: ScimConnectionService;
  requestLog: ScimRequestLog;
}

/** Builds the SCIM services and registers their routes. */
export function scimArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps): ScimArea {
  const { db, clock, config } = deps;
  const requestLog = createScimRequestLog({ db });
  const connections = createScimConnectionService({ db, clock, config, requestLog });
  app.route('/', scimConnectionRoutes(deps, connections));
  return { connections, requestLog };
}
