import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import {
  BreachedPasswordResetResponse, InsightsResponse, Permissions, RecommendationsResponse, ScoreHistoryResponse, SecurityPaths,
} from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import { emailLinkBase } from '../../http/middleware';
import type { SecurityCenterService } from '../../services/security/security-center';
import type { RouteDeps } from '../deps';
import { err, json } from '../openapi';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';

const tags = ['admin: security center'];

/**
 * The security center (seed 001 sections 3, 7, 9): score and recommendations, insights and the
 * score's history need fe.secure.read.securityPolicy; the breached-password reset, the center's own
 * action, needs fe.secure.write.securityPolicy like every other change the center leads to
 * (docs/security-center.md).
 */
export function securityCenterRoutes(deps: RouteDeps, center: SecurityCenterService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, deps.clock);
  const read = guard(Permissions.securityPolicyRead, 'read');

  app.openapi(
    createRoute({
      method: 'get', path: SecurityPaths.securityCenterRecommendations, tags, ...read,
      summary: "The tenant's security score (0..100), its level and the recommendations that would raise it; records today's score",
      request: { query: TenantQuery },
      responses: { 200: json(RecommendationsResponse, 'Score, level and recommendations, most severe first'), 400: err('Invalid query (tenantId)'), ...adminErrors },
    }),
    async (c) => c.json(await center.recommendations(c.get('admin').tenantId), 200),
  );

  app.openapi(
    createRoute({
      method: 'get', path: SecurityPaths.securityCenterInsights, tags, ...read,
      summary: "What the tenant's security settings and users look like (MFA, passwords, sessions, IP and domain restrictions)",
      request: { query: TenantQuery },
      responses: { 200: json(InsightsResponse, 'The insights'), 400: err('Invalid query (tenantId)'), ...adminErrors },
    }),
    async (c) => c.json(await center.insights(c.get('admin').tenantId), 200),
  );

  app.openapi(
    createRoute({
      method: 'get', path: SecurityPaths.securityCenterScoreHistory, tags, ...read,
      summary: "The tenant's score, one point per UTC day over the last 90 days, oldest first (today's included)",
      request: { query: TenantQuery },
      responses: { 200: json(ScoreHistoryResponse, 'The daily scores'), 400: err('Invalid query (tenantId)'), ...adminErrors },
    }),
    async (c) => c.json(await center.scoreHistory(c.get('admin').tenantId), 200),
  );

  app.openapi(
    createRoute({
      method: 'post', path: SecurityPaths.breachedPasswordResetBulk, tags, ...guard(Permissions.securityPolicyWrite, 'write'),
      summary: 'Emails a password-reset link to every user of the tenant whose password was found in a data breach; answers how many were emailed',
      request: { query: TenantQuery },
      responses: { 200: json(BreachedPasswordResetResponse, 'How many users were emailed'), 400: err('Invalid query (tenantId)'), ...adminErrors },
    }),
    async (c) => c.json(await center.resetBreachedPasswords(c.get('admin'), emailLinkBase(c, deps.config)), 200),
  );
  return app;
}
