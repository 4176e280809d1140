import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { ConnectivityPaths, EVENT_CATALOGUE, EventCatalogueSchema, Permissions, type PermissionKey } from '@gatehouse/shared/wire';
import type { MiddlewareHandler } from 'hono';
import type { AppError } from '../../errors';
import { adminGuard } from '../../http/admin-guard';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { RouteDeps } from '../deps';
import { adminErrors, TenantQuery } from '../admin/shared';
import { json } from '../openapi';

const tags = ['admin: connectivity'];

/** Every section that subscribes to events reads the catalogue: holding any of their read keys is enough. */
export const CATALOGUE_READ_PERMISSIONS: readonly PermissionKey[] = [
  Permissions.webhooksRead,
  Permissions.emailConfigRead,
  Permissions.smsConfigRead,
  Permissions.slackAppRead,
  Permissions.reportsRead,
];

/** The admin guard, passed when the caller holds any one of `permissions` (super users hold all). */
function anyOf(deps: RouteDeps, permissions: readonly PermissionKey[]): MiddlewareHandler<AppEnv> {
  const admin = adminGuard({ db: deps.db, auth: deps.auth, keys: deps.keys, clock: deps.clock, config: deps.config, ipRestrictions: deps.security.ipRestrictions });
  return async (c, next) => {
    let refusal: unknown;
    for (const permission of permissions) {
      try {
        return await admin(permission, 'read')(c, next);
      } catch (err) {
        // Only a missing permission tries the next key; 401 and 404 answer at once.
        if ((err as AppError).status !== 403) throw err;
        refusal = err;
      }
    }
    throw refusal;
  };
}

/** The event catalogue (issue 16 "served to the portal"): the same for every tenant, read by the sections that subscribe to events. */
export function eventCatalogueRoutes(deps: RouteDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.openapi(
    createRoute({
      method: 'get',
      path: ConnectivityPaths.events,
      tags,
      summary: 'The event catalogue: every event key with its category, description, the JSON schema of its data and an example (any admin holding a connectivity or reports read permission)',
      security: [{ Bearer: [] }],
      middleware: [anyOf(deps, CATALOGUE_READ_PERMISSIONS)] as const,
      request: { query: TenantQuery },
      responses: { 200: json(EventCatalogueSchema, 'The catalogue, in catalogue order'), ...adminErrors },
    }),
    (c) => c.json([...EVENT_CATALOGUE], 200),
  );
  return app;
}
