import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiPaths, UnlockAccountRequest } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { ErrorBodySchema, rateLimitedResponse, validationHook } from '../../http/errors';
import { clientIp } from '../../http/middleware';
import type { PasswordPolicyService } from '../../services/auth/password-policies';
import type { RouteDeps } from '../deps';
import { json } from '../openapi';

/** Unlock account (seed 000 sections 4.7, 7.1): the emailed link's token unlocks a locked account. */
export function unlockRoutes(deps: RouteDeps, policies: PasswordPolicyService): OpenAPIHono<AppEnv> {
  const { config } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.unlockAccount,
      tags: ['users'],
      summary: 'Unlock a locked account with the emailed token (single use, expiring)',
      request: { body: { required: true, content: { 'application/json': { schema: UnlockAccountRequest } } } },
      responses: {
        200: json(z.object({}), 'Unlocked: the user can sign in again'),
        400: json(ErrorBodySchema, 'Invalid, used or expired token'),
        429: rateLimitedResponse,
      },
    }),
    async (c) => {
      await policies.unlock(c.req.valid('json').token, c.get('client'));
      return c.json({}, 200);
    },
  );

  return app;
}
