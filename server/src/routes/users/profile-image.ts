import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiPaths, ProfileImageRequest } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { ErrorBodySchema, validationHook } from '../../http/errors';
import { requireAuth } from '../../http/middleware';
import { Errors } from '../../errors';
import type { UserService } from '../../services/users/users';
import type { RouteDeps } from '../deps';
import { json } from '../openapi';

/** Upload of the user's picture (seed 001 team profile image) and its public, immutable URL. */
export function profileImageRoutes(deps: RouteDeps, users: UserService): OpenAPIHono<AppEnv> {
  const { auth } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.openapi(
    createRoute({
      method: 'put',
      path: ApiPaths.profileImage,
      tags: ['users'],
      security: [{ Bearer: [] }],
      middleware: [requireAuth(auth)] as const,
      request: { body: { required: true, content: { 'application/json': { schema: ProfileImageRequest } } } },
      responses: {
        200: json(z.object({ profilePictureUrl: z.string() }), 'Stored; the URL is public and immutable'),
        400: json(ErrorBodySchema, 'Not a base64 image data URL, content does not match the type, or over 1 MB'),
      },
    }),
    async (c) => c.json({ profilePictureUrl: await users.setProfileImage(c.get('auth'), c.req.valid('json').profileImage) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: `${ApiPaths.profilePicture}/{id}`,
      tags: ['users'],
      request: { params: z.object({ id: z.string().regex(/^[0-9a-f]{32}$/) }) },
      responses: { 200: { description: 'The image bytes' }, 404: json(ErrorBodySchema, 'No such picture') },
    }),
    async (c) => {
      const pic = await users.getProfilePicture(c.req.valid('param').id);
      if (!pic) throw Errors.notFound();
      return c.body(new Uint8Array(pic.bytes), 200, {
        'Content-Type': pic.mime,
        'Cache-Control': 'public, max-age=31536000, immutable',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cross-Origin-Resource-Policy': 'cross-origin',
      });
    },
  );

  return app;
}
