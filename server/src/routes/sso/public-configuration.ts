import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { SSO_PUBLIC_CONFIGURATION_PATH, SsoPublicConfiguration } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { SsoPublicConfigurationService } from '../../services/sso/public-configuration';
import { json } from '../openapi';

/** GET the public SSO configuration: anonymous, the same answer for every caller. */
export function ssoPublicConfigurationRoutes(service: SsoPublicConfigurationService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.openapi(
    createRoute({
      method: 'get',
      path: SSO_PUBLIC_CONFIGURATION_PATH,
      tags: ['public'],
      summary: 'Public SSO configuration: whether SSO sign-in is active in this deployment (never which tenants or domains)',
      responses: { 200: json(SsoPublicConfiguration, 'Whether SSO sign-in is active') },
    }),
    async (c) => {
      // The same for everyone and rarely changing: shared caches may keep it a minute.
      c.header('Cache-Control', 'public, max-age=60');
      return c.json(await service.publicConfiguration(), 200);
    },
  );
  return app;
}
