/** OAuth applications (OperatorPaths.applications, .application, .applicationSecret): the hosted-login clients. */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { Application, ApplicationBody, ApplicationPatch, OperatorPaths } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { ApplicationService } from '../../services/operator/applications';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { notFound, operatorErrors, operatorGuardFor } from './shared';

const tags = ['operator: applications'];
const ClientIdParam = z.object({ clientId: z.string().min(1).max(128) });
const readOnly = { 409: err('ER-04007: the application comes from OAUTH_CLIENTS_FILE (or dev mode) and is changed there') };

export function applicationRoutes(deps: RouteDeps, applications: ApplicationService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = operatorGuardFor(deps);
  const read = guard('read');
  const write = guard('write');

  app.openapi(
    createRoute({ method: 'get', path: OperatorPaths.applications, tags, summary: "Lists the OAuth applications: OAUTH_CLIENTS_FILE's (read-only), the database's, and in dev mode demo-spa; never a secret", ...read, responses: { 200: json(z.array(Application), 'The applications'), ...operatorErrors } }),
    async (c) => c.json(await applications.list(), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: OperatorPaths.applications,
      tags,
      summary: 'Registers an application (as `npm run gatehouse -- clients add`); a confidential one gets its secret in this answer only',
      ...write,
      request: body(ApplicationBody),
      responses: { 201: json(Application, 'The application (with clientSecret when confidential)'), 400: err('Invalid body, or a redirect URI that is not https (http only on loopback), has a fragment or credentials'), ...operatorErrors, 409: err('ER-04003: the clientId is taken') },
    }),
    async (c) => c.json(await applications.create(c.get('admin'), c.req.valid('json')), 201),
  );
  app.openapi(
    createRoute({ method: 'get', path: OperatorPaths.application, tags, summary: 'One application', ...read, request: { params: ClientIdParam }, responses: { 200: json(Application, 'The application'), ...operatorErrors, ...notFound } }),
    async (c) => c.json(await applications.get(c.req.valid('param').clientId), 200),
  );
  app.openapi(
    createRoute({ method: 'patch', path: OperatorPaths.application, tags, summary: "Changes a database application's name or URIs", ...write, request: { params: ClientIdParam, ...body(ApplicationPatch) }, responses: { 200: json(Application, 'The application as saved'), 400: err('Invalid body or redirect URI'), ...operatorErrors, ...notFound, ...readOnly } }),
    async (c) => c.json(await applications.update(c.get('admin'), c.req.valid('param').clientId, c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({ method: 'delete', path: OperatorPaths.application, tags, summary: 'Removes a database application', ...write, request: { params: ClientIdParam }, responses: { 204: { description: 'Deleted' }, ...operatorErrors, ...notFound, ...readOnly } }),
    async (c) => {
      await applications.remove(c.get('admin'), c.req.valid('param').clientId);
      return c.body(null, 204);
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: OperatorPaths.applicationSecret,
      tags,
      summary: 'A new secret for a confidential database application, answered this once; the old secret stops working at once',
      ...write,
      request: { params: ClientIdParam },
      responses: { 200: json(Application, 'The application with its new clientSecret'), 400: err('The application is public (PKCE only) and has no secret'), ...operatorErrors, ...notFound, ...readOnly },
    }),
    async (c) => c.json(await applications.newSecret(c.get('admin'), c.req.valid('param').clientId), 200),
  );
  return app;
}
