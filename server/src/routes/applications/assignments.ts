/**
 * Applications for a tenant's admins (seed 001 section 7 "Applications: user app ids, app data,
 * tenant apps, users of apps, assign or unassign (userId, appIds, tenantId)"): read with
 * fe.secure.read.users, assign and unassign with fe.secure.write.users (the users table's
 * applications column and its dialog).
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ApplicationData, ApplicationPaths, ApplicationUsers, AppIdsQuery, AssignApplicationsBody, Permissions, TenantApplications, UserApplicationIds, UserIdsOfAppsQuery } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { AssignmentService } from '../../services/applications/assignments';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

const tags = ['admin: applications'];
const UserIdParam = z.object({ userId: z.string().min(1).max(64) });
const badIds = { 400: err('Invalid ids') };
const badAssignment = { 400: err('Invalid body: userId, appIds (1 to 100 ids of existing applications, none repeated), or a tenantId that is not the account the call acts in') };

export function assignmentRoutes(deps: RouteDeps, clock: Clock, assignments: AssignmentService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, clock);
  const read = guard(Permissions.usersRead, 'read');
  const write = guard(Permissions.usersWrite, 'write');

  app.openapi(
    createRoute({ method: 'get', path: ApplicationPaths.tenantApps, tags, summary: "The applications the account's users may be given", ...read, request: { query: TenantQuery }, responses: { 200: json(TenantApplications, 'The tenant and its applications'), ...adminErrors } }),
    async (c) => c.json(await assignments.tenantApps(c.get('admin')), 200),
  );
  app.openapi(
    createRoute({ method: 'get', path: ApplicationPaths.apps, tags, summary: 'Name, URL, logo and access type of these applications (ids joined by commas; every one without ids)', ...read, request: { query: AppIdsQuery }, responses: { 200: json(z.array(ApplicationData), 'The applications'), ...badIds, ...adminErrors } }),
    async (c) => c.json(await assignments.apps(c.get('admin'), c.req.valid('query').ids), 200),
  );
  app.openapi(
    createRoute({ method: 'get', path: ApplicationPaths.userApps, tags, summary: 'The applications the user is assigned in the account', ...read, request: { params: UserIdParam, query: TenantQuery }, responses: { 200: json(UserApplicationIds, "The user's application ids"), ...adminErrors } }),
    async (c) => c.json(await assignments.userApps(c.get('admin'), c.req.valid('param').userId), 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: ApplicationPaths.usersApps,
      tags,
      summary: 'The applications of these users (ids joined by commas) in the account; ids of non-members are left out',
      ...read,
      request: { query: UserIdsOfAppsQuery },
      responses: { 200: json(z.array(UserApplicationIds), 'Application ids per user'), ...badIds, ...adminErrors },
    }),
    async (c) => c.json(await assignments.usersApps(c.get('admin'), c.req.valid('query').ids), 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: ApplicationPaths.appsUsers,
      tags,
      summary: "The account's users assigned to these applications (ids joined by commas; every application without ids)",
      ...read,
      request: { query: AppIdsQuery },
      responses: { 200: json(z.array(ApplicationUsers), 'Users per application'), ...badIds, ...adminErrors },
    }),
    async (c) => c.json(await assignments.appsUsers(c.get('admin'), c.req.valid('query').ids), 200),
  );
  app.openapi(
    createRoute({ method: 'post', path: ApplicationPaths.assign, tags, summary: 'Assigns the user to the applications (already assigned ones stay)', ...write, request: { query: TenantQuery, ...body(AssignApplicationsBody) }, responses: { 200: json(UserApplicationIds, "The user's application ids now"), ...badAssignment, ...adminErrors } }),
    async (c) => c.json(await assignments.assign(c.get('admin'), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({ method: 'post', path: ApplicationPaths.unassign, tags, summary: 'Unassigns the user from the applications; a MANAGED_ACCESS one then refuses their next sign-in and refresh', ...write, request: { query: TenantQuery, ...body(AssignApplicationsBody) }, responses: { 200: json(UserApplicationIds, "The user's application ids now"), ...badAssignment, ...adminErrors } }),
    async (c) => c.json(await assignments.unassign(c.get('admin'), c.req.valid('json')), 200),
  );
  return app;
}
