import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { RevokeSessionsResponse, SessionPaths, UserSessionsResponse } from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import { clientIp, requireAuth } from '../../http/middleware';
import type { SessionService } from '../../services/users/sessions';
import type { RouteDeps } from '../deps';
import { err, json } from '../openapi';

const unauthorized = err('Missing, invalid or expired access token');
const impersonating = err('Not available while impersonating a user');

/**
 * The signed-in user's own login sessions (seed 001 section 7 "Sessions: GET, DELETE by id or all"):
 * GET lists them, DELETE /{sessionId} signs one out, DELETE /all signs out every other one.
 */
export function sessionListRoutes(deps: RouteDeps, sessions: SessionService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const base = { tags: ['users'], security: [{ Bearer: [] }], middleware: [requireAuth(deps.auth)] };
  const client = (c: Context<AppEnv>) => ({ ip: clientIp(c, deps.config), userAgent: c.req.header('user-agent') ?? null });

  app.openapi(
    createRoute({ ...base, method: 'get', path: SessionPaths.mySessions, summary: 'Your live sessions, newest first; `current` marks the one making this call', responses: { 200: json(UserSessionsResponse, 'Sessions'), 401: unauthorized, 403: impersonating } }),
    async (c) => c.json(await sessions.list(c.get('auth')), 200),
  );

  // Declared before /{sessionId}, which would otherwise take "all" for an id.
  app.openapi(
    createRoute({
      ...base, method: 'delete', path: SessionPaths.myOtherSessions, summary: 'Sign out every other session of yours (this one stays signed in)',
      responses: { 200: json(RevokeSessionsResponse, 'How many sessions were signed out'), 401: unauthorized, 403: impersonating },
    }),
    async (c) => c.json({ revoked: await sessions.revokeOthers(c.get('auth'), client(c)) }, 200),
  );

  app.openapi(
    createRoute({
      ...base, method: 'delete', path: SessionPaths.mySession, summary: 'Sign out one of your sessions: its access and refresh tokens stop working',
      request: { params: z.object({ sessionId: z.string().min(1).max(64) }) },
      responses: { 200: json(z.object({}), 'Signed out'), 401: unauthorized, 403: impersonating, 404: err('No such live session of yours') },
    }),
    async (c) => {
      await sessions.revoke(c.get('auth'), c.req.valid('param').sessionId, client(c));
      return c.json({}, 200);
    },
  );

  return app;
}
