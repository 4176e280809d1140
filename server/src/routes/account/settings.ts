import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { AccountPaths, AccountSettings, Permissions, PublicAccountSettings, UpdateAccountSettingsRequest } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { AccountSettingsService } from '../../services/account/settings';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { publicImageRoute } from '../public-image';

/**
 * Account settings (seed 001 section 7 "Tenants: account settings GET, PUT, public GET"): the admin
 * portal's account section reads them with fe.secure.read.accountSettings and saves them with
 * fe.secure.write.accountSettings; anyone may read the public view (name, logo, application URL,
 * login look) and the logo.
 */
export function accountSettingsRoutes(deps: RouteDeps, clock: Clock, account: AccountSettingsService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, clock);
  const tags = ['admin: account'];
  const one = json(AccountSettings, 'The account settings');

  app.openapi(
    createRoute({
      method: 'get',
      path: AccountPaths.accountSettings,
      tags,
      summary: 'The account settings: company name, website, address, time zone, date and time formats, currency, logo, custom login and application URL',
      ...guard(Permissions.accountSettingsRead, 'read'),
      request: { query: TenantQuery },
      responses: { 200: one, ...adminErrors },
    }),
    async (c) => c.json(await account.get(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: AccountPaths.accountSettings,
      tags,
      summary: 'Changes the fields sent (null or empty clears an optional one; logo null removes it); a save that changes nothing writes nothing',
      ...guard(Permissions.accountSettingsWrite, 'write'),
      request: { query: TenantQuery, ...body(UpdateAccountSettingsRequest) },
      responses: { 200: one, 400: err('Invalid field: website, time zone, currency, formats, colour, URL or logo (type, content or size)'), ...adminErrors },
    }),
    async (c) => c.json(await account.update(c.get('admin'), c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: AccountPaths.accountSettingsPublic,
      tags: ['public'],
      summary: "What anyone may see of an account: name, logo, application URL and custom login look (all empty without a known tenantId)",
      request: { query: z.object({ tenantId: z.string().max(64).optional() }) },
      responses: { 200: json(PublicAccountSettings, 'Public account settings') },
    }),
    async (c) => c.json(await account.getPublic(c.req.valid('query').tenantId), 200, { 'Cache-Control': 'no-cache' }),
  );

  publicImageRoute(app, AccountPaths.accountLogo, "An account's logo (public, immutable: a new logo gets a new URL)", (id) => account.getLogo(id));

  return app;
}
