/**
 * The entitlements area (issue 13): GET entitlements v2 (with `?explain=true`), and the usage of a
 * tenant's plan (it is this area that knows limits). The service is built before any area
 * (deps.entitlements); `/flags` (platform area) and the access token (auth) ask it too.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import type { RouteDeps } from '../deps';
import { usageRoutes } from './usage';
import { userEntitlementRoutes } from './user-entitlements';

export function entitlementsArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps): void {
  app.route('/', userEntitlementRoutes(deps, deps.entitlements));
  app.route('/', usageRoutes(deps, deps.entitlements));
}
