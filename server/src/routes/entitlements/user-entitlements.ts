import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { EntitlementPaths, UserEntitlementsResponse } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import { requireAuth } from '../../http/middleware';
import type { EntitlementsService } from '../../services/entitlements';
import type { RouteDeps } from '../deps';
import { err, json } from '../openapi';

const Query = z.object({
  explain: z.enum(['true', 'false']).optional().openapi({ description: 'true: also say, per feature, which plan, grant, flag or rule decided it' }),
  tenantId: z.string().max(64).optional().openapi({ description: "Another tenant of the caller's to answer for" }),
});

/**
 * GET entitlements v2 (seed 000 section 7.1): the signed-in user's entitlements in the tenant the
 * call acts in: features (plan, direct grants, feature flags), plans with targeting rules, and the
 * user's permissions; `?explain=true` adds what decided each feature.
 */
export function userEntitlementRoutes(deps: RouteDeps, entitlements: Pick<EntitlementsService, 'contextFor'>): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.openapi(
    createRoute({
      method: 'get',
      path: EntitlementPaths.userEntitlements,
      tags: ['entitlements'],
      summary: "The caller's entitlements (features with planIds, expireTime and linked permissions; targeting plans; permissions); ?explain=true says what decided each feature",
      security: [{ Bearer: [] }],
      middleware: [requireAuth(deps.auth)] as const,
      request: { query: Query },
      responses: {
        200: json(UserEntitlementsResponse, 'The entitlements context'),
        400: err('Invalid query (the message names the field)'),
        401: err('Missing, invalid or expired access token'),
        403: err("The tenant's IP restrictions refuse the caller"),
        404: err('The caller is not a member of the tenant named by ?tenantId='),
      },
    }),
    async (c) => {
      const auth = c.get('auth');
      const { explain } = c.req.valid('query');
      const subject = { userId: auth.userId, tenantId: auth.tenantId, email: auth.claims.email ?? null, emailVerified: auth.claims.email_verified, claims: auth.claims as unknown as Record<string, unknown> };
      return c.json(await entitlements.contextFor(subject, { explain: explain === 'true' }), 200);
    },
  );
  return app;
}
