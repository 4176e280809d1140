/** What every admin route module shares: its guard, the tenant query, and the common error responses. */
import { z } from '@hono/zod-openapi';
import type { PermissionKey } from '@gatehouse/shared/wire';
import { adminGuard } from '../../http/admin-guard';
import type { Clock } from '../../clock';
import type { AdminAccess } from '../../services/admin/access';
import type { RouteDeps } from '../deps';
import { err } from '../openapi';

/** `?tenantId=`: act in another tenant of the caller (super users: any tenant). */
export const TenantQuery = z.object({ tenantId: z.string().max(64).optional() });

export const adminErrors = {
  401: err('Not signed in'),
  403: err("Missing the permission (super users bypass it), a change from an impersonation session, or a change beyond the caller's own permissions"),
  404: err('Not found in the tenant the caller acts in (objects of other tenants are never found)'),
};

/** Declares an admin route's security and guard: `...guard(Permissions.usersRead, 'read')`. */
export function guardFor(deps: RouteDeps, clock: Clock) {
  const admin = adminGuard({ db: deps.db, auth: deps.auth, keys: deps.keys, clock, config: deps.config, ipRestrictions: deps.security.ipRestrictions });
  return (permission: PermissionKey, access: AdminAccess) => ({ security: [{ Bearer: [] }], middleware: [admin(permission, access)] });
}
