import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { CreateUsernameRequest, UsernamePaths } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import { requireAuth } from '../../http/middleware';
import type { UsernameService } from '../../services/users/usernames';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

/** The signed-in user's username (seed 001 section 7 "usernames CRUD"): POST creates it, DELETE removes it. */
export function usernameRoutes(deps: RouteDeps, usernames: UsernameService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const base = { tags: ['users'], security: [{ Bearer: [] }], middleware: [requireAuth(deps.auth)], path: UsernamePaths.myUsername };
  const unauthorized = err('Missing, invalid or expired access token');
  const impersonating = err('Not available while impersonating a user');

  app.openapi(
    createRoute({
      ...base, method: 'post', summary: 'Give yourself a username (delete the current one first)', request: body(CreateUsernameRequest),
      responses: { 200: json(z.object({ username: z.string() }), 'Saved'), 400: err('Not 3 to 64 letters, digits, dots, dashes or underscores'), 401: unauthorized, 403: impersonating, 409: err('Taken by another account, or you still have a username') },
    }),
    async (c) => c.json(await usernames.create(c.get('auth'), c.req.valid('json').username), 200),
  );

  app.openapi(
    createRoute({ ...base, method: 'delete', summary: 'Remove your username (nothing to do when you have none)', responses: { 200: json(z.object({}), 'Removed'), 401: unauthorized, 403: impersonating } }),
    async (c) => {
      await usernames.remove(c.get('auth'));
      return c.json({}, 200);
    },
  );

  return app;
}
