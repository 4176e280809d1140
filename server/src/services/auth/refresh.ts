/**
 * Refresh-token rotation (issue 17): one joined read, every check, then the rotation in one
 * transaction that opens with a compare-and-swap on the token, so of two uses of one token in any
 * processes exactly one wins and the other is detected as a reuse, which revokes the whole session.
 */
import { ErrorCodes } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newSecret, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { isPostgres } from '../../db/dialect';
import { findRefreshTokenSession, insertRefreshToken, markRefreshTokenUsed, revokeSession, rotateRefreshTokenAtOnce, touchSession, type SessionRow } from '../../db/queries/sessions';
import { isMember, membershipEnded } from '../../db/queries/tenants';
import { revokeTenantSessions } from '../../db/queries/admin-users';
import { findUserById, updateUser, type UserRow } from '../../db/queries/users';
import { AppError } from '../../errors';
import { AuditActions, recordUserAudit } from '../admin/audit-log';
import type { SessionPolicyService } from '../security/session-policy';
import type { IpRestrictionService } from '../security/ip-restrictions';
import type { AccessTokenMinter } from './access-token';
import type { ClientInfo, IssuedSession } from './types';

export const impersonationPinned = () => new AppError(ErrorCodes.notWhileImpersonating, 403, 'An impersonation session cannot switch to another tenant');
const invalidRefresh = () => new AppError(ErrorCodes.invalidRefreshToken, 401, 'Session expired, please sign in again');

/**
 * The refresh's rate limit, read with its token: the key of its window in `rate_limits`, and the
 * check of the window found (it throws the 429 of a refresh over the limit).
 */
export interface RefreshRateLimit {
  key: string;
  admit(window: { count: number; window_start: number } | undefined): void;
}

export function createRefreshRotation(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'refreshTokenTtl'>;
  sessionPolicy?: Pick<SessionPolicyService, 'checkSession' | 'afterSessionStarted'>;
  ipRestrictions?: Pick<IpRestrictionService, 'assertAllowed'>;
  accessToken: AccessTokenMinter;
  /** The tenant a session lands in when its own is gone: the user's last, else first, active membership. */
  activeTenantFor(user: UserRow): Promise<string>;
  /** Refuses a session whose sign-in does not meet the MFA policy of the tenant it moves into. */
  assertMeetsMfaPolicy(tenantId: string, amr: string): Promise<void>;
}): { rotate(refreshToken: string | undefined, tenantId: string | undefined, client: ClientInfo, rateLimit: RefreshRateLimit): Promise<IssuedSession> } {
  const { db, clock, config, accessToken, activeTenantFor, assertMeetsMfaPolicy } = deps;

  /** A used refresh token came back: someone holds a copy. Ends the session (the whole family) and says so. */
  async function refreshTokenReused(session: SessionRow, client: ClientInfo, now: number): Promise<never> {
    // The tenant's admins are told in the same transaction (once, however many copies come back).
    await db.transaction().execute(async (trx) => {
      if (!(await revokeSession(trx, session.id, now))) return;
      const owner = await findUserById(trx, session.user_id);
      if (owner) {
        await recordUserAudit(
          trx,
          owner,
          client,
          { action: AuditActions.refreshTokenReused, description: 'A refresh token was used twice; the session was revoked', severity: 'High', json: { sessionId: session.id } },
          now,
          session.tenant_id,
        );
      }
    });
    throw new AppError(ErrorCodes.refreshTokenReused, 401, 'Refresh token was already used; the session has been revoked');
  }

  /**
   * One refresh (issue 17): the token, its session, membership, impersonation, grant, user, the
   * user's active tenants, roles and entitlement grants, and the rate limit's window in one read;
   * every check; then the rotation in one transaction whose first statement is the compare-and-swap
   * on the token (used_at still null), so of two uses of one token, in any processes, exactly one
   * wins and the other is a reuse. Checks that ran after the token was spent before still spend it
   * when they refuse.
   */
  async function rotate(refreshToken: string | undefined, tenantId: string | undefined, client: ClientInfo, rateLimit: RefreshRateLimit): Promise<IssuedSession> {
    if (!refreshToken) throw invalidRefresh();
    const hash = sha256(refreshToken);
    const now = clock.now();
    const { window, found } = await findRefreshTokenSession(db, hash, now, rateLimit.key);
    // Over the limit: refused before anything else, as if the window had been read first.
    rateLimit.admit(window);
    if (!found) throw invalidRefresh();
    const { token: row, session, membership, impersonation: impersonated } = found;
    if (session.revoked_at !== null || session.expires_at <= now || row.expires_at <= now) throw invalidRefresh();
    // Idle too long, or signed in longer ago than the tenant's forced re-login allows: the session ends.
    await deps.sessionPolicy?.checkSession(session, session.tenant_id);
    // The session's temporary membership has ended: its sessions there end with it, as on a disable.
    if (membershipEnded(membership.expiresAt, now)) {
      await revokeTenantSessions(db, session.tenant_id, session.user_id, now);
      throw invalidRefresh();
    }
    // An impersonation session stays in its tenant (no way into the target's other tenants).
    if (impersonated && tenantId && tenantId !== session.tenant_id) throw impersonationPinned();
    // Checked before the token is spent, so a bad tenantId does not sign the user out.
    if (tenantId && tenantId !== session.tenant_id && !(await isMember(db, session.user_id, tenantId, now))) {
      throw new AppError(ErrorCodes.tenantNotFound, 404, 'Tenant not found');
    }
    // Checked before the token is spent: a refused network keeps its session for an allowed one.
    await deps.ipRestrictions?.assertAllowed(tenantId ?? session.tenant_id, client.ip);
    // Into another tenant: its MFA policy must be met by the session's sign-in (before the token is spent too).
    if (tenantId && tenantId !== session.tenant_id) await assertMeetsMfaPolicy(tenantId, session.amr);
    if (row.used_at !== null) return refreshTokenReused(session, client, now);

    // From here on a refusal spends the token, as it always has (the user signs in again).
    let user: UserRow;
    let activeTenant = session.tenant_id;
    try {
      const owner = found.user;
      if (!owner || owner.disabled === 1) {
        await revokeSession(db, session.id, now);
        throw invalidRefresh();
      }
      user = owner;
      if (tenantId && tenantId !== activeTenant) {
        activeTenant = tenantId;
      } else if (!membership.active) {
        // Removed from the session's tenant since sign-in: never mint another token for it.
        if (impersonated) {
          await revokeSession(db, session.id, now);
          throw invalidRefresh();
        }
        activeTenant = await activeTenantFor(user);
      }
      if (activeTenant !== (tenantId ?? session.tenant_id)) {
        await deps.ipRestrictions?.assertAllowed(activeTenant, client.ip);
        await assertMeetsMfaPolicy(activeTenant, session.amr);
      }
      // Into another tenant: its sessions policy must let the session in too.
      if (activeTenant !== session.tenant_id) await deps.sessionPolicy?.checkSession(session, activeTenant);
    } catch (err) {
      if (!(await markRefreshTokenUsed(db, hash, now))) await refreshTokenReused(session, client, now);
      throw err;
    }

    const next = newSecret();
    const expiresAt = now + config.refreshTokenTtl * 1000;
    const inTransaction = () =>
      db.transaction().execute(async (trx) => {
        // First statement of the transaction: it takes the write lock (SQLite) or the row (PostgreSQL) at once.
        if (!(await markRefreshTokenUsed(trx, hash, now))) return false;
        if (tenantId && tenantId !== session.tenant_id) await updateUser(trx, user.id, { last_tenant_id: tenantId });
        // The tenant is written only when it changes: setting it to the same value still rewrites its index entry.
        await touchSession(trx, session.id, now, activeTenant !== session.tenant_id ? activeTenant : undefined);
        await insertRefreshToken(trx, { token_hash: sha256(next), session_id: session.id, created_at: now, expires_at: expiresAt, used_at: null });
        return true;
      });
    // The usual refresh (the session stays in its tenant) on PostgreSQL: spend, touch and insert in one
    // statement (rotateRefreshTokenAtOnce), with the same guarantees, in one round trip instead of five.
    const rotated =
      activeTenant === session.tenant_id && isPostgres(db)
        ? await rotateRefreshTokenAtOnce(db, { tokenHash: hash, now, sessionId: session.id, nextHash: sha256(next), expiresAt })
        : await inTransaction();
    if (!rotated) return refreshTokenReused(session, client, now);
    // Moved in, it counts against the tenant's concurrent-session limit like a sign-in there.
    if (activeTenant !== session.tenant_id) await deps.sessionPolicy?.afterSessionStarted(user.id, activeTenant, session.id);
    const known = { actor: impersonated ?? null, grantClientId: found.grantClientId, tenants: found.tenantIds.map((id) => ({ id })), inTenant: { tenantId: session.tenant_id, roleIds: found.roleIds, grants: found.grants } };
    return { response: await accessToken(user, { ...session, tenant_id: activeTenant }, activeTenant, Infinity, known), refreshToken: next };
  }

  return { rotate };
}
