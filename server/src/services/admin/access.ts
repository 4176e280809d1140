/**
 * The one authorization check of admin calls (DESIGN.md: "every admin endpoint checks the caller's
 * tenant and permission"), built on permissions.ts. Every admin route runs it before its handler
 * (http/admin-guard.ts) and every admin service gets its result, an `AdminCaller`:
 *
 * - the tenant is the one the access token acts in (or `?tenantId=` for another tenant of the user);
 *   a super user may name any existing tenant, everyone else must be an active member of it, or
 *   reach it as a sub-account of a tenant they belong to (services/admin/sub-account-access.ts: descendants
 *   only, never a sibling or a parent; API tokens never);
 * - the permission key of seed 001's table is required (a wildcard key covers it); super users
 *   bypass the check (seed 001 section 6);
 * - changes are refused to impersonation sessions: admin powers are the admin's own.
 *
 * Services then look every object up by id AND the caller's tenant, so another tenant's object is
 * simply "not found" (404), never a different answer. On top, nobody grants or takes away more than
 * they hold (`assertCovers`), and nobody manages a user above them (`assertManageable`).
 */
import { AdminErrorCodes, ErrorCodes, type PermissionKey } from '@gatehouse/shared/wire';
import type { Db } from '../../db';
import { findTenant, isMember } from '../../db/queries/tenants';
import { findUserById } from '../../db/queries/users';
import { AppError, Errors } from '../../errors';
import { authenticateApiToken, type ApiTokenPrincipal } from './api-tokens';
import type { AuthContext, AuthService } from '../auth/auth';
import type { KeyService } from '../platform/keys';
import type { IpRestrictionService } from '../security/ip-restrictions';
import { covers, grantsOf, permissionKeysOf, refuseWhileImpersonating } from './permissions';
import { hierarchyReach } from './sub-account-access';

/** An admin call's caller, after its tenant and permission were checked. */
export interface AdminCaller {
  userId: string;
  email: string | null;
  tenantId: string;
  superUser: boolean;
  /** Permission keys the caller holds in the tenant (through roles and groups). */
  keys: string[];
  /** Where the call came from, for the audit log. */
  ip: string | null;
  userAgent: string | null;
  /** The authenticated request, for services that take one (invitations, impersonation). */
  auth: AuthContext;
  /** Set when the call is made with an API token (services/admin/api-tokens.ts) rather than a session. */
  apiTokenId?: string;
  /** Set when the caller acts in a sub-account through this ancestor (services/admin/sub-account-access.ts), with its keys. */
  viaTenantId?: string;
}

export type AdminAccess = 'read' | 'write';

/** What the admin guard needs from a request. */
export interface AdminRequest {
  authorization: string | undefined;
  scopedTenantId: string | undefined;
  ip: string | null;
  userAgent: string | null;
}

const forbidden = (permission: string) => new AppError(ErrorCodes.forbidden, 403, `You do not have permission to do this (${permission})`, { permission });
const tenantNotFound = () => new AppError(ErrorCodes.tenantNotFound, 404, 'Tenant not found');

/**
 * Authenticates an admin call and checks its tenant and permission; throws 401, 403 or 404.
 * `now` decides whether a temporary membership has expired.
 */
export async function authorizeAdmin(
  deps: { db: Db; auth: AuthService; keys?: KeyService; ipRestrictions: Pick<IpRestrictionService, 'assertAllowed'> },
  request: AdminRequest,
  permission: PermissionKey,
  access: AdminAccess,
  now: number,
): Promise<AdminCaller> {
  const { db, auth } = deps;
  const viaToken = deps.keys ? await authenticateApiToken({ db, keys: deps.keys }, request.authorization, now) : null;
  if (viaToken) {
    // An API token acts for its tenant: the tenant's IP restrictions apply to every use of it.
    await deps.ipRestrictions.assertAllowed(viaToken.token.tenant_id, request.ip);
    return apiTokenCaller(viaToken, request, permission);
  }
  let ctx: AuthContext;
  // Set when the caller acts in a sub-account of a tenant they belong to (services/admin/sub-account-access.ts).
  let reach: { viaTenantId: string; keys: string[] } | null = null;
  try {
    ctx = await auth.authenticate(request.authorization, request.scopedTenantId, request);
  } catch (err) {
    // Not a member of the named tenant: only a super user, or an admin of one of its ancestors with
    // sub-account access, may still act in it.
    if (!request.scopedTenantId || (err as AppError).code !== ErrorCodes.tenantNotFound) throw err;
    const own = await auth.authenticate(request.authorization, undefined, request);
    if (own.claims.act) throw err;
    const user = await findUserById(db, own.userId);
    if (user?.super_user !== 1 || !(await findTenant(db, request.scopedTenantId))) {
      reach = await hierarchyReach(db, own.userId, request.scopedTenantId, now);
      if (!reach) throw err;
    }
    ctx = { ...own, tenantId: request.scopedTenantId };
  }
  if (access === 'write') refuseWhileImpersonating(ctx);
  // The user, the membership and the roles' permissions are read at once (one round trip, not three
  // after each other), then judged in this order: 401, 404, 403.
  const [user, member, keys] = await Promise.all([
    findUserById(db, ctx.userId),
    // The token may be a few minutes older than a disable, lock or expiry of this membership.
    reach ? true : isMember(db, ctx.userId, ctx.tenantId, now),
    reach ? reach.keys : permissionKeysOf(db, ctx.userId, ctx.tenantId),
  ]);
  if (!user || user.disabled === 1) throw Errors.unauthorized();
  const superUser = user.super_user === 1;
  if (!superUser && !member) throw tenantNotFound();
  if (!superUser && !covers(keys, permission)) throw forbidden(permission);
  return { userId: ctx.userId, email: user.email, tenantId: ctx.tenantId, superUser, keys, ip: request.ip, userAgent: request.userAgent, auth: ctx, ...(reach ? { viaTenantId: reach.viaTenantId } : {}) };
}

/**
 * An API token's call: only in its own tenant, with the permissions it holds now; never a super user.
 * `userId` is the owner (personal token) or creator (tenant token), for audits and created-by fields.
 */
function apiTokenCaller(principal: ApiTokenPrincipal, request: AdminRequest, permission: PermissionKey): AdminCaller {
  const { token } = principal;
  if (request.scopedTenantId && request.scopedTenantId !== token.tenant_id) throw tenantNotFound();
  if (!covers(principal.keys, permission)) throw forbidden(permission);
  const claims = { sub: token.user_id, tenantId: token.tenant_id, tenantIds: [token.tenant_id], roles: principal.roles, permissions: principal.keys } as unknown as AuthContext['claims'];
  const auth: AuthContext = { userId: token.user_id, sessionId: `api-token:${token.id}`, tenantId: token.tenant_id, tenantIds: [token.tenant_id], claims };
  return { userId: token.user_id, email: principal.email, tenantId: token.tenant_id, superUser: false, keys: principal.keys, ip: request.ip, userAgent: request.userAgent, auth, apiTokenId: token.id };
}

/** No escalation: the caller must hold every one of these permission keys (super users hold all). */
export function assertCovers(caller: AdminCaller, permissionKeys: readonly string[], message: string): void {
  if (caller.superUser) return;
  const beyond = [...new Set(permissionKeys.filter((key) => !covers(caller.keys, key)))];
  if (beyond.length > 0) throw new AppError(ErrorCodes.roleNotGrantable, 403, message, { permissions: beyond });
}

/**
 * A user an admin may act on (delete, disable, lock, expire, change roles): not themselves, and not
 * someone above them (a super user, or a holder of permissions the admin lacks in this tenant).
 */
export async function assertManageable(db: Db, caller: AdminCaller, targetUserId: string, action: string): Promise<void> {
  if (targetUserId === caller.userId) throw new AppError(AdminErrorCodes.cannotManageSelf, 400, `You cannot ${action} yourself`);
  if (caller.superUser) return;
  const target = await grantsOf(db, targetUserId, caller.tenantId);
  if (target.superUser || target.keys.some((key) => !covers(caller.keys, key))) {
    throw new AppError(AdminErrorCodes.userNotManageable, 403, `You cannot ${action} a user with permissions you do not have`);
  }
}
