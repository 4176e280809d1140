import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { DryRunQuery, Permissions, PolicyDryRun, SecurityPaths, SessionsPolicy, SessionsPolicyBody } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { SessionPolicyService } from '../../services/security/session-policy';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

const tags = ['admin: security policies'];

/**
 * The tenant's sessions policy (issue 12; seed 001 section 7 "Security policies": sessions): idle
 * timeout, forced re-login and concurrent sessions. GET answers the effective policy (`id` when the
 * tenant has its own); POST saves it (tighten only), signs out at once the sessions that break it,
 * and writes an audit row; `?dryRun=true` answers what saving would do and saves nothing.
 */
export function sessionsPolicyRoutes(deps: RouteDeps, sessions: SessionPolicyService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, deps.clock);

  app.openapi(
    createRoute({
      method: 'get',
      path: SecurityPaths.sessionsPolicy,
      tags,
      summary: "The tenant's effective sessions policy: the vendor's, tightened by the tenant's own (id set when it has one); timeouts in seconds",
      ...guard(Permissions.securityPolicyRead, 'read'),
      request: { query: TenantQuery },
      responses: { 200: json(SessionsPolicy, 'The effective sessions policy'), ...adminErrors },
    }),
    async (c) => c.json(await sessions.effective(c.get('admin').tenantId), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SecurityPaths.sessionsPolicy,
      tags,
      summary: "Saves the tenant's sessions policy (creates it, or updates the tenant's own); tighten only; signs out at once the sessions that break it; ?dryRun=true previews how many",
      ...guard(Permissions.securityPolicyWrite, 'write'),
      request: { query: TenantQuery.merge(DryRunQuery), ...body(SessionsPolicyBody) },
      responses: {
        200: json(z.union([SessionsPolicy, PolicyDryRun]), 'The saved effective policy with its id; with ?dryRun=true, what saving would do (nothing saved)'),
        400: err("Invalid body (the message names the field), or looser than the vendor's policy (ER-02801, naming the field and the vendor's value)"),
        ...adminErrors,
      },
    }),
    async (c) => {
      const admin = c.get('admin');
      const input = c.req.valid('json');
      if (c.req.valid('query').dryRun === 'true') return c.json(await sessions.dryRun(admin.tenantId, input), 200);
      return c.json((await sessions.save(admin, input)).policy, 200);
    },
  );
  return app;
}
