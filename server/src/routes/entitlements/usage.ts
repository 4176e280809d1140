import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { BillingPaths, Permissions, ReportUsageBody, UsageResponse } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { EntitlementsService } from '../../services/entitlements';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

// An admin route: the tenant-isolation walk (routes/admin/tenant-isolation.test.ts) covers it.
const tags = ['admin: usage'];

/**
 * Usage of the tenant's plan (issue 13, "Limits are typed"): GET (fe.usage.read) answers seats used
 * of the plan's limit and each limited feature's use; POST (fe.subscriptions.write: an admin, or a
 * tenant API token whose roles hold it) reports use of a feature, refused past the plan's limit.
 */
export function usageRoutes(deps: RouteDeps, entitlements: Pick<EntitlementsService, 'usage' | 'reportUsage'>): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, deps.clock);

  app.openapi(
    createRoute({
      method: 'get',
      path: BillingPaths.usage,
      tags,
      summary: "Seats used of the plan's limit, and each limited feature's use",
      ...guard(Permissions.usageRead, 'read'),
      request: { query: TenantQuery },
      responses: { 200: json(UsageResponse, 'The usage of the tenant'), 400: err('Invalid query (the message names the field)'), ...adminErrors },
    }),
    async (c) => c.json(await entitlements.usage(c.get('admin').tenantId), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: BillingPaths.usage,
      tags,
      summary: "Reports use of a feature of the tenant's plan (a negative quantity releases use); refused past the plan's limit (ER-03012), changing nothing",
      ...guard(Permissions.subscriptionsWrite, 'write'),
      request: { query: TenantQuery, ...body(ReportUsageBody) },
      responses: {
        200: json(UsageResponse, 'The usage after the report'),
        400: err('Invalid body (the message names the field)'),
        ...adminErrors,
        403: err("Missing the permission, a change from an impersonation session, or the report would pass the plan's limit of the feature / the plan lacks it (ER-03012, context { featureKey, limit, used })"),
      },
    }),
    async (c) => {
      const { featureKey, quantity } = c.req.valid('json');
      const admin = c.get('admin');
      return c.json(await entitlements.reportUsage(admin.tenantId, featureKey, quantity, admin), 200);
    },
  );
  return app;
}
