/**
 * The admin area (people and access): a tenant's users, roles and permissions, groups, invite link,
 * audit log, API tokens, sub-accounts and impersonation; every route behind the admin guard.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import { createApiTokenService, type ApiTokenService } from '../../services/admin/api-tokens';
import { createAdminAuditService } from '../../services/admin/audits';
import { createAdminGroupService } from '../../services/admin/groups';
import { createImpersonationService } from '../../services/admin/impersonation';
import { createInviteLinkService } from '../../services/admin/invite-links';
import { createAdminRoleService, ensurePermissionCategories } from '../../services/admin/roles';
import { createSubAccountService } from '../../services/admin/sub-accounts';
import { ensurePermissionCatalogue } from '../../services/admin/tenants';
import { createAdminUserService } from '../../services/admin/users';
import type { InvitationService } from '../../services/users/invitations';
import type { SignUpService } from '../../services/users/signup';
import type { RouteDeps } from '../deps';
import { apiTokenRoutes } from './api-tokens';
import { adminAuditRoutes } from './audits';
import { adminGroupRoutes } from './groups';
import { impersonationRoutes } from './impersonation';
import { inviteLinkRoutes } from './invite-links';
import { adminRoleRoutes } from './roles';
import { subAccountRoutes } from './sub-accounts';
import { adminUserRoutes } from './users';

export interface AdminArea {
  apiTokens: ApiTokenService;
  /** Stores the permission catalogue and its categories when they are missing. */
  ensureDefaults(): Promise<void>;
}

/** Builds the admin services and registers their routes; adding users invites them through `invitations` and `signUp`. */
export function adminArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps, areas: { invitations: InvitationService; signUp: SignUpService }): AdminArea {
  const { db, clock, keys, auth, limiter, config } = deps;
  const users = createAdminUserService({ db, clock, invitations: areas.invitations, signUp: areas.signUp, config, seats: deps.entitlements });
  const apiTokens = createApiTokenService({ db, clock, keys, config, ipRestrictions: deps.security.ipRestrictions });
  app.route('/', impersonationRoutes(deps, createImpersonationService({ db, clock, auth, limiter, config })));
  app.route('/', adminUserRoutes(deps, clock, users));
  app.route('/', inviteLinkRoutes(deps, clock, createInviteLinkService({ db, clock, limiter, config, emailDomains: deps.security.emailDomains, seats: deps.entitlements })));
  app.route('/', adminRoleRoutes(deps, clock, createAdminRoleService({ db, clock })));
  app.route('/', adminGroupRoutes(deps, clock, createAdminGroupService({ db, clock })));
  app.route('/', adminAuditRoutes(deps, clock, createAdminAuditService({ db, clock })));
  app.route('/', apiTokenRoutes(deps, clock, apiTokens));
  app.route('/', subAccountRoutes(deps, clock, createSubAccountService({ db, clock, emailDomains: deps.security.emailDomains, seats: deps.entitlements })));
  return {
    apiTokens,
    async ensureDefaults() {
      await ensurePermissionCatalogue(db);
      await ensurePermissionCategories(db, clock.now());
    },
  };
}
