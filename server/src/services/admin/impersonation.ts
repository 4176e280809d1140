/**
 * Impersonation (seed 000 sections 2.1, 4.7, 7.3; seed 001 section 6): an admin holding the dedicated
 * permission fe.secure.write.impersonate (no built-in role has it; super users always may) gets a
 * short-lived, single-use token for a user of the tenant they act in. The login box's impersonation
 * route exchanges it for a session of that user whose access tokens carry an RFC 8693 `act` claim
 * naming the admin; the session is short, stays in that tenant, and cannot change the user's
 * security settings. Every token is a row of `impersonations`: who, whom, which tenant, when, from
 * where; never a secret in clear.
 */
import { ErrorCodes, Permissions, type ImpersonationRequest, type ImpersonationResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId, newSecret, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { consumeImpersonationToken, findImpersonationByToken, insertImpersonation, linkImpersonationSession, type ImpersonationRow } from '../../db/queries/impersonations';
import { isMember } from '../../db/queries/tenants';
import { findUserById, type UserRow } from '../../db/queries/users';
import { AppError } from '../../errors';
import type { AuthContext, AuthService, ClientInfo, IssuedSession } from '../auth/auth';
import { covers, grantsOf, refuseWhileImpersonating, requirePermission } from './permissions';
import { UNKNOWN_CLIENT, type RateLimiter } from '../platform/rate-limit';
import { log } from '../../log';
import { AuditActions, recordAudit } from './audit-log';

/** Login-box route that exchanges the token (seed 000 section 2.1 impersonationUrl). */
export const IMPERSONATION_PATH = '/account/impersonate';

/**
 * amr of an impersonation session. 'imp' is our own value (RFC 8176's registry allows additions):
 * the user did not authenticate, an admin acts as them. It carries no 'mfa', so it never counts as
 * a step-up, and the session's tokens always carry `act`.
 */
export const AMR_IMPERSONATION = ['imp'];

const refused = (status: number, message: string) => new AppError(ErrorCodes.impersonationRefused, status, message);
const invalidToken = () => new AppError(ErrorCodes.invalidImpersonationToken, 400, 'The impersonation link is invalid or has expired');

export interface ImpersonationService {
  /** A single-use token to act as `body.userId` in the caller's tenant; `appUrl` is the base of the returned URL. */
  issue(ctx: AuthContext, body: ImpersonationRequest, appUrl: string): Promise<ImpersonationResponse>;
  /** Spends the token: a session of the target, pinned to the tenant, whose tokens carry `act`. */
  exchange(token: string, client: ClientInfo): Promise<IssuedSession>;
}

export function createImpersonationService(deps: { db: Db; clock: Clock; auth: AuthService; limiter: RateLimiter; config: Pick<Config, 'impersonation'> }): ImpersonationService {
  const { db, clock, auth, limiter, config } = deps;

  /**
   * The rules, checked when the token is issued and again when it is spent: the target is another,
   * active member of the tenant, not a super user, and holds no permission there that the admin
   * lacks (impersonating must not grant the admin more than they have).
   */
  async function checkTarget(impersonatorId: string, targetId: string, tenantId: string): Promise<UserRow> {
    if (targetId === impersonatorId) throw refused(400, 'You cannot impersonate yourself');
    const target = await findUserById(db, targetId);
    if (!target || !(await isMember(db, target.id, tenantId))) throw new AppError(ErrorCodes.notFound, 404, 'User not found in this account');
    if (target.super_user === 1) throw refused(403, 'Super users cannot be impersonated');
    if (target.disabled === 1) throw refused(403, 'This user is disabled');
    if (target.verified !== 1) throw refused(403, 'This user has not activated their account yet');
    const admin = await grantsOf(db, impersonatorId, tenantId);
    if (!admin.superUser) {
      // Roles outlive a disabled, locked or expired membership: the admin must still be an active member.
      const active = await isMember(db, impersonatorId, tenantId, clock.now());
      if (!active || !covers(admin.keys, Permissions.impersonate)) throw new AppError(ErrorCodes.forbidden, 403, `You do not have permission to impersonate users (${Permissions.impersonate})`);
      const targetKeys = (await grantsOf(db, target.id, tenantId)).keys;
      if (targetKeys.some((key) => !covers(admin.keys, key))) throw refused(403, 'You cannot impersonate a user with permissions you do not have');
    }
    return target;
  }

  /** One line per started impersonation, for operators: ids only, never the token. */
  function logStart(row: ImpersonationRow, sessionId: string): void {
    log.info(`Impersonation ${row.id}: user ${row.impersonator_id} acts as user ${row.target_user_id} in tenant ${row.tenant_id} (session ${sessionId})`);
  }

  return {
    async issue(ctx, body, appUrl) {
      // No chains: a session that is itself an impersonation cannot start another one.
      refuseWhileImpersonating(ctx);
      await requirePermission(db, ctx, Permissions.impersonate, 'impersonate users');
      await limiter.consume('impersonationPerUser', ctx.userId);
      await checkTarget(ctx.userId, body.userId, ctx.tenantId);
      const token = newSecret();
      const now = clock.now();
      await insertImpersonation(db, {
        id: newId(),
        tenant_id: ctx.tenantId,
        impersonator_id: ctx.userId,
        target_user_id: body.userId,
        token_hash: sha256(token),
        reason: body.reason || null,
        created_at: now,
        expires_at: now + config.impersonation.tokenTtl * 1000,
        used_at: null,
        session_id: null,
        ip: null,
        user_agent: null,
      });
      return { token, expiresIn: config.impersonation.tokenTtl, url: `${appUrl}${IMPERSONATION_PATH}?token=${encodeURIComponent(token)}` };
    },

    async exchange(token, client) {
      await limiter.consume('impersonatePerIp', client.ip ?? UNKNOWN_CLIENT);
      const row = await findImpersonationByToken(db, sha256(token));
      // consume is the atomic single-use check (expiry included): a second use loses here.
      if (!row || !(await consumeImpersonationToken(db, row.id, clock.now()))) throw invalidToken();
      // Things may have changed since the token was issued (a role removed, the user disabled).
      const target = await checkTarget(row.impersonator_id, row.target_user_id, row.tenant_id);
      let sessionId = '';
      const issued = await auth.startSession(target, client, AMR_IMPERSONATION, {
        tenantId: row.tenant_id,
        ttlSeconds: config.impersonation.sessionTtl,
        impersonation: {
          link: async (id) => {
            sessionId = id;
            await linkImpersonationSession(db, row.id, id, { ip: client.ip, userAgent: client.userAgent });
          },
        },
      });
      logStart(row, sessionId);
      // The tenant's admins see who acted as whom (the impersonator is the actor), never the token.
      const impersonator = await findUserById(db, row.impersonator_id);
      await recordAudit(
        db,
        { tenantId: row.tenant_id, userId: row.impersonator_id, email: impersonator?.email ?? null, ip: client.ip, userAgent: client.userAgent ?? null },
        {
          action: AuditActions.impersonationStarted,
          description: `Started acting as ${target.email ?? target.name}${row.reason ? ` (reason: ${row.reason})` : ''}`,
          severity: 'High',
          json: { impersonationId: row.id, targetUserId: target.id, sessionId, ...(row.reason ? { reason: row.reason } : {}) },
        },
        clock.now(),
      );
      return issued;
    },
  };
}

