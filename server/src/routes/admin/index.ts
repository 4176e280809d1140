import { OpenAPIHono } from '@hono/zod-openapi';
import type { Clock } from '../../clock';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { AdminAuditService } from '../../services/admin-audits';
import type { AdminGroupService } from '../../services/admin-groups';
import type { AdminRoleService } from '../../services/admin-roles';
import type { AdminUserService } from '../../services/admin-users';
import type { InviteLinkService } from '../../services/invite-links';
import type { RouteDeps } from '../deps';
import { adminAuditRoutes } from './audits';
import { adminGroupRoutes } from './groups';
import { inviteLinkRoutes } from './invite-links';
import { adminRoleRoutes } from './roles';
import { adminUserRoutes } from './users';

export interface AdminServices {
  clock: Clock;
  users: AdminUserService;
  roles: AdminRoleService;
  groups: AdminGroupService;
  inviteLinks: InviteLinkService;
  audits: AdminAuditService;
}

/** Every admin route of users, roles, groups and invite links; each one behind the admin guard. */
export function adminRoutes(deps: RouteDeps, admin: AdminServices): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.route('/', adminUserRoutes(deps, admin.clock, admin.users));
  app.route('/', inviteLinkRoutes(deps, admin.clock, admin.inviteLinks));
  app.route('/', adminRoleRoutes(deps, admin.clock, admin.roles));
  app.route('/', adminGroupRoutes(deps, admin.clock, admin.groups));
  app.route('/', adminAuditRoutes(deps, admin.clock, admin.audits));
  return app;
}
