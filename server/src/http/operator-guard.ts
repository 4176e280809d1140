import { OperatorErrorCodes } from '@gatehouse/shared/wire';
import type { MiddlewareHandler } from 'hono';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db';
import { findUserById } from '../db/queries/users';
import { AppError, Errors } from '../errors';
import type { AuthService } from '../services/auth/auth';
import { refuseWhileImpersonating } from '../services/admin/permissions';
import type { AppEnv } from './env';
import { clientIp } from './middleware';

/**
 * The middleware of every Operator route (issue 13): the caller must be signed in as a super user
 * (the vendor's operator; `npm run gatehouse -- users promote <email>`), read from the database at
 * each call, so a demotion takes effect at once. API tokens never pass (they act for a tenant),
 * and changes are refused during impersonation. Handlers read the caller as `c.get('admin')`
 * (superUser true, its tenant the token's), which the audit log takes.
 *
 *   middleware: [operator('write')]
 */
export function operatorGuard(deps: { db: Db; auth: AuthService; clock: Clock; config: Pick<Config, 'trustProxy'> }) {
  return (access: 'read' | 'write'): MiddlewareHandler<AppEnv> =>
    async (c, next) => {
      const ip = clientIp(c, deps.config);
      const userAgent = c.req.header('user-agent') ?? null;
      const ctx = await deps.auth.authenticate(c.req.header('authorization'), undefined, { ip });
      if (access === 'write') refuseWhileImpersonating(ctx);
      const user = await findUserById(deps.db, ctx.userId);
      if (!user || user.disabled === 1) throw Errors.unauthorized();
      if (user.super_user !== 1) throw new AppError(OperatorErrorCodes.notSuperUser, 403, 'Only operators (super users) may do this');
      const client = c.get('client') ?? { ip, userAgent };
      const auth = { ...ctx, client };
      c.set('auth', auth);
      c.set('admin', { userId: ctx.userId, email: user.email, tenantId: ctx.tenantId, superUser: true, keys: [], ip, userAgent, auth });
      await next();
    };
}
