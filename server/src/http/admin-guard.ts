import type { PermissionKey } from '@gatehouse/shared/wire';
import type { MiddlewareHandler } from 'hono';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db';
import { authorizeAdmin, type AdminAccess } from '../services/admin/access';
import type { AuthService } from '../services/auth/auth';
import type { KeyService } from '../services/platform/keys';
import type { IpRestrictionService } from '../services/security/ip-restrictions';
import type { AppEnv } from './env';
import { clientIp } from './middleware';

/**
 * The middleware of every admin route: authenticates the bearer token, resolves the tenant (token,
 * or `?tenantId=`), checks `permission` (super users bypass) and, for changes, refuses impersonation
 * sessions. Handlers read the result as `c.get('admin')` (and `c.get('auth')`).
 *
 *   middleware: [admin(Permissions.usersWrite, 'write')]
 */
export function adminGuard(deps: { db: Db; auth: AuthService; keys?: KeyService; clock: Clock; config: Pick<Config, 'trustProxy'>; ipRestrictions: Pick<IpRestrictionService, 'assertAllowed'> }) {
  return (permission: PermissionKey, access: AdminAccess): MiddlewareHandler<AppEnv> =>
    async (c, next) => {
      const caller = await authorizeAdmin(
        deps,
        {
          authorization: c.req.header('authorization'),
          scopedTenantId: c.req.query('tenantId') || undefined,
          ip: clientIp(c, deps.config),
          userAgent: c.req.header('user-agent') ?? null,
        },
        permission,
        access,
        deps.clock.now(),
      );
      const client = c.get('client') ?? { ip: caller.ip, userAgent: caller.userAgent };
      const authed = { ...caller.auth, client };
      c.set('auth', authed);
      c.set('admin', { ...caller, auth: authed });
      await next();
    };
}
