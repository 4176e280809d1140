/**
 * Promoting and demoting super users (the vendor's operators), what `npm run gatehouse -- users
 * promote|demote <email>` does. There is no HTTP route for it on purpose: making an operator takes
 * access to the server's environment, so a stolen operator session cannot mint more operators.
 */
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { auditTenantOf } from '../../db/queries/audits';
import { findUserByEmail, updateUser } from '../../db/queries/users';
import { recordAudit } from '../admin/audit-log';
import { OperatorAuditActions } from './audit';

export type SuperUserChange =
  | { outcome: 'unknown' }
  | { outcome: 'unchanged' | 'changed'; userId: string; email: string; auditTenantId: string | null };

/**
 * Sets users.super_user of the user with `email` (case-insensitive). A change is recorded in the
 * user's tenant (their oldest membership; a user of no tenant has no audit log to write to), with
 * the CLI as the actor (no user id, no address).
 */
export async function setSuperUser(deps: { db: Db; clock: Clock }, email: string, superUser: boolean): Promise<SuperUserChange> {
  const { db, clock } = deps;
  return db.transaction().execute(async (trx) => {
    const user = await findUserByEmail(trx, email.trim());
    if (!user?.email) return { outcome: 'unknown' } as const;
    const was = user.super_user === 1;
    const tenantId = await auditTenantOf(trx, user.id, user.last_tenant_id ?? null);
    if (was === superUser) return { outcome: 'unchanged', userId: user.id, email: user.email, auditTenantId: tenantId } as const;
    await updateUser(trx, user.id, { super_user: superUser ? 1 : 0 });
    if (tenantId) {
      await recordAudit(
        trx,
        { tenantId, userId: null, email: null, ip: null, userAgent: 'gatehouse CLI' },
        {
          action: superUser ? OperatorAuditActions.userPromoted : OperatorAuditActions.userDemoted,
          description: `${user.email} ${superUser ? 'made a super user (operator)' : 'is no longer a super user (operator)'} from the command line`,
          severity: 'High',
          json: { userId: user.id, email: user.email, old: { superUser: was }, new: { superUser } },
        },
        clock.now(),
      );
    }
    return { outcome: 'changed', userId: user.id, email: user.email, auditTenantId: tenantId } as const;
  });
}
