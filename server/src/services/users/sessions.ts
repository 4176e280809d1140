/**
 * The signed-in user's own login sessions (seed 001 sections 2 "Privacy sections: loginSessions",
 * 3 "Session", 7 "Sessions"): list them, sign one out, sign out every other one. A user only ever
 * sees and ends their own live sessions; a revoked session's access and refresh tokens stop working
 * (auth.authenticate and auth.refresh read revoked_at). Impersonation sessions are the admin's:
 * they are not listed, and an impersonator can neither list nor end the user's sessions.
 */
import type { UserSession } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { listLiveUserSessions, revokeLiveUserSession, revokeOtherLiveUserSessions, type SessionRow } from '../../db/queries/sessions';
import { Errors } from '../../errors';
import { AuditActions, recordAudit, type AuditActor } from '../admin/audit-log';
import type { AuthContext, ClientInfo } from '../auth/auth';
import { refuseWhileImpersonating } from '../admin/permissions';
import { deviceOf } from './user-agent';

export interface SessionService {
  list(ctx: AuthContext): Promise<UserSession[]>;
  /** Ends one of the caller's live sessions (the current one too: that is a sign-out); 404 for any other id. */
  revoke(ctx: AuthContext, sessionId: string, client: Pick<ClientInfo, 'ip' | 'userAgent'>): Promise<void>;
  /** Ends every live session of the caller except the current one; how many ended. */
  revokeOthers(ctx: AuthContext, client: Pick<ClientInfo, 'ip' | 'userAgent'>): Promise<number>;
}

function view(row: SessionRow, currentId: string): UserSession {
  return {
    id: row.id,
    userAgent: row.user_agent,
    createdAt: new Date(row.created_at).toISOString(),
    ipAddress: row.ip,
    current: row.id === currentId,
    lastActiveAt: new Date(row.last_used_at).toISOString(),
    device: deviceOf(row.user_agent),
  };
}

function actorOf(ctx: AuthContext, client: Pick<ClientInfo, 'ip' | 'userAgent'>): AuditActor {
  return { tenantId: ctx.tenantId, userId: ctx.userId, email: typeof ctx.claims.email === 'string' ? ctx.claims.email : null, ip: client.ip, userAgent: client.userAgent?.slice(0, 512) ?? null };
}

export function createSessionService(deps: { db: Db; clock: Clock }): SessionService {
  const { db, clock } = deps;
  return {
    async list(ctx) {
      // Where and from what the user signs in (IPs, browsers, every tenant) is not the impersonator's to see.
      refuseWhileImpersonating(ctx);
      return (await listLiveUserSessions(db, ctx.userId, clock.now())).map((row) => view(row, ctx.sessionId));
    },

    async revoke(ctx, sessionId, client) {
      // An impersonator acts as the user but must not sign the user out of their own devices.
      refuseWhileImpersonating(ctx);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        // Someone else's, revoked, expired or unknown: one answer, so ids of other users are never confirmed.
        if (!(await revokeLiveUserSession(trx, ctx.userId, sessionId, now))) throw Errors.notFound('Session not found');
        await recordAudit(trx, actorOf(ctx, client), { action: AuditActions.sessionRevoked, description: 'A session was signed out', json: { sessionId, current: sessionId === ctx.sessionId } }, now);
      });
    },

    async revokeOthers(ctx, client) {
      refuseWhileImpersonating(ctx);
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        const ids = await revokeOtherLiveUserSessions(trx, ctx.userId, ctx.sessionId, now);
        if (ids.length > 0) {
          await recordAudit(trx, actorOf(ctx, client), { action: AuditActions.otherSessionsRevoked, description: `${ids.length} other ${ids.length === 1 ? 'session was' : 'sessions were'} signed out`, json: { sessionIds: ids } }, now);
        }
        return ids.length;
      });
    },
  };
}
