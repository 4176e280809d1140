/**
 * The vendor's applications (ApplicationPaths.applications, .application, .logo), managed by
 * operators (super users only; operatorGuard). Anyone may read an uploaded logo.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ApplicationPaths, VendorApplication, VendorApplicationBody, VendorApplicationPatch } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { ApplicationService } from '../../services/applications/applications';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { publicImageRoute } from '../public-image';
import { notFound, operatorErrors, operatorGuardFor } from '../operator/shared';

const tags = ['operator: vendor applications'];
const AppIdParam = z.object({ appId: z.string().min(1).max(64) });
const invalid = { 400: err('Invalid body: name, url (a full http(s) address), logo (an https address, or a png, jpeg, gif or webp data URL of at most 512 KB), accessType, or a clientId that is not registered') };
const linked = { 409: err('ER-05102: the clientId is already linked to another application') };

export function vendorApplicationRoutes(deps: RouteDeps, applications: ApplicationService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = operatorGuardFor(deps);

  app.openapi(
    createRoute({ method: 'get', path: ApplicationPaths.applications, tags, summary: "The vendor's applications, by name", ...guard('read'), responses: { 200: json(z.array(VendorApplication), 'The applications'), ...operatorErrors } }),
    async (c) => c.json(await applications.list(), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: ApplicationPaths.applications,
      tags,
      summary: 'Adds an application (FREE_ACCESS unless accessType says MANAGED_ACCESS), optionally linked to a hosted-login client',
      ...guard('write'),
      request: body(VendorApplicationBody),
      responses: { 201: json(VendorApplication, 'The application'), ...invalid, ...operatorErrors, ...linked },
    }),
    async (c) => c.json(await applications.create(c.get('admin'), c.req.valid('json')), 201),
  );
  app.openapi(
    createRoute({ method: 'get', path: ApplicationPaths.application, tags, summary: 'One application', ...guard('read'), request: { params: AppIdParam }, responses: { 200: json(VendorApplication, 'The application'), ...operatorErrors, ...notFound } }),
    async (c) => c.json(await applications.get(c.req.valid('param').appId), 200),
  );
  app.openapi(
    createRoute({
      method: 'patch',
      path: ApplicationPaths.application,
      tags,
      summary: 'Changes the fields sent (logo or clientId null removes it); a change of accessType applies at the next sign-in and refresh',
      ...guard('write'),
      request: { params: AppIdParam, ...body(VendorApplicationPatch) },
      responses: { 200: json(VendorApplication, 'The application as saved'), ...invalid, ...operatorErrors, ...notFound, ...linked },
    }),
    async (c) => c.json(await applications.update(c.get('admin'), c.req.valid('param').appId, c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({ method: 'delete', path: ApplicationPaths.application, tags, summary: 'Removes an application with its logo and every assignment to it', ...guard('write'), request: { params: AppIdParam }, responses: { 204: { description: 'Deleted' }, ...operatorErrors, ...notFound } }),
    async (c) => {
      await applications.remove(c.get('admin'), c.req.valid('param').appId);
      return c.body(null, 204);
    },
  );
  publicImageRoute(app, ApplicationPaths.logo, "An application's uploaded logo (public, immutable: a new logo gets a new URL)", (id) => applications.getLogo(id));
  return app;
}
