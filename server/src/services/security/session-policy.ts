/**
 * Each tenant's sessions policy (issue 12; seed 001 sections 3 "Session" and 7 "Security policies"):
 * idle timeout, forced re-login and concurrent sessions. The vendor's SESSION_* configuration is the
 * floor; a tenant's own policy may only tighten it. A tenant's own policy is read from the database
 * and kept at most 1 s per process (a table cache, services/platform/table-cache.ts, that a write
 * through this process empties): a saved policy takes effect at once in the process that saved it,
 * and within 1 s in every other one (http/admin-guard.two-processes.test.ts).
 *
 * Where it applies:
 * - a refresh (the refresh cookie, and `/oauth/token` grant_type=refresh_token) of a session idle
 *   too long or signed in too long ago ends that session (`checkSession`);
 * - a new session (every sign-in method ends in `auth.startSession`) signs out the user's oldest
 *   sessions in its tenant beyond the maximum (`afterSessionStarted`);
 * - saving a stricter policy signs out, right away, every live session of the tenant that breaks it.
 */
import { SecurityErrorCodes, type PolicyDryRun, type PolicyEffect, type SessionsPolicy, type SessionsPolicyBody } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { findOwnPolicy, upsertOwnPolicy, type OwnPolicyRow } from '../../db/queries/security-policies';
import { createTableCache } from '../platform/table-cache';
import { listLivePolicySessions, revokeSessions, type PolicySessionRow } from '../../db/queries/sessions';
import { findUserById } from '../../db/queries/users';
import { AppError } from '../../errors';
import type { AdminCaller } from '../admin/access';
import { AuditActions, recordAudit, recordUserAudit } from '../admin/audit-log';

/** Tenants whose own policy one process keeps (the oldest go first). */
const TENANTS_KEPT = 10_000;

/** Why the policy ends a session. */
export type SessionEndReason = 'idle' | 'relogin' | 'concurrent';

/** The session fields the policy weighs at a refresh. */
export type PolicySession = Pick<PolicySessionRow, 'id' | 'user_id' | 'last_used_at' | 'auth_time'>;

export interface SessionPolicyService {
  /** The vendor's policy (SESSION_*), the floor of every tenant's. */
  vendor(): SessionsPolicyBody;
  /** The tenant's effective policy: the vendor's tightened by the tenant's own, with `id` when it has one. */
  effective(tenantId: string): Promise<SessionsPolicy>;
  /** Refuses (400 policyLooserThanVendor, naming the field and the vendor's value) a body that loosens the vendor's policy. */
  assertTightens(body: SessionsPolicyBody): void;
  /** What saving `body` would do now, counted from the tenant's live sessions; saves nothing. */
  dryRun(tenantId: string, body: SessionsPolicyBody): Promise<PolicyDryRun>;
  /** Saves the tenant's own policy (update or create), signs out the sessions that now break it, and audits old and new values. */
  save(caller: AdminCaller, body: SessionsPolicyBody): Promise<{ policy: SessionsPolicy; signedOut: number }>;
  /**
   * At a refresh of `session` acting in `tenantId`: when the policy ends it (idle too long, signed in
   * too long ago), revokes it and answers why; null lets the refresh through.
   */
  endIfExpired(session: PolicySession, tenantId: string): Promise<SessionEndReason | null>;
  /** endIfExpired, throwing 401 sessionExpiredByPolicy when the session ended (the cookie refresh). */
  checkSession(session: PolicySession, tenantId: string): Promise<void>;
  /**
   * After a sign-in started a session: signs out the user's oldest sessions in the tenant beyond the
   * maximum. Every process orders sessions alike (newest first, then by id), so two sign-ins at once
   * still leave at most the maximum. Answers the ids it revoked. `arrivedSessionId`: a session that
   * just moved into the tenant (a switch, a refresh naming it), kept as if it were the newest.
   */
  afterSessionStarted(userId: string, tenantId: string, arrivedSessionId?: string): Promise<string[]>;
}

/** The sentence of a session the policy ended, for the 401 and the audit log. */
const endMessages: Record<SessionEndReason, string> = {
  idle: 'Your session ended after a period of inactivity; please sign in again',
  relogin: 'Your session reached the longest time allowed since sign-in; please sign in again',
  concurrent: 'Your session was signed out by a newer sign-in beyond the number of sessions allowed; please sign in again',
};

/** The audit description of sessions the policy ended. */
const endAudits: Record<SessionEndReason, string> = {
  idle: 'Signed out by the sessions policy: idle longer than the idle timeout',
  relogin: 'Signed out by the sessions policy: signed in longer ago than forced re-login allows',
  concurrent: 'Signed out by the sessions policy: a newer sign-in exceeded the concurrent sessions allowed',
};

/** Sessions the policy ends now, by reason (a session may break more than one rule). */
interface Breaches {
  idle: Set<string>;
  relogin: Set<string>;
  concurrent: Set<string>;
}

/** Sessions of `sessions` (newest first) that `policy` ends at `now`. */
export function breachesOf(policy: SessionsPolicyBody, sessions: readonly PolicySessionRow[], now: number): Breaches {
  const idle = policy.sessionIdleTimeoutConfiguration;
  const relogin = policy.sessionTimeoutConfiguration;
  const concurrent = policy.sessionConcurrentConfiguration;
  const out: Breaches = { idle: new Set(), relogin: new Set(), concurrent: new Set() };
  const kept = new Map<string, number>();
  for (const s of sessions) {
    if (idle.isActive && now - s.last_used_at >= idle.timeout * 1000) out.idle.add(s.id);
    if (relogin.isActive && now - s.auth_time >= relogin.timeout * 1000) out.relogin.add(s.id);
    if (!concurrent.isActive || !s.counted || out.idle.has(s.id) || out.relogin.has(s.id)) continue;
    // Newest first: each user keeps their newest `maxSessions` sign-ins.
    const count = (kept.get(s.user_id) ?? 0) + 1;
    kept.set(s.user_id, count);
    if (count > concurrent.maxSessions) out.concurrent.add(s.id);
  }
  return out;
}

function union(b: Breaches): string[] {
  return [...new Set([...b.idle, ...b.relogin, ...b.concurrent])];
}

const looser = (field: string, message: string, vendorValue: number | boolean) =>
  new AppError(SecurityErrorCodes.policyLooserThanVendor, 400, `${field}: ${message}`, { field, vendorValue });

export function createSessionPolicyService(deps: { db: Db; clock: Clock; config: Pick<Config, 'sessionPolicy'> }): SessionPolicyService {
  const { db, clock } = deps;
  // Each tenant's own sessions policy (null: none), read at every refresh and sign-in.
  const ownPolicies = createTableCache<string, OwnPolicyRow<SessionsPolicyBody> | null>({ db, clock, max: TENANTS_KEPT, tables: ['tenant_security_policies'] });
  const floor = deps.config.sessionPolicy;

  function vendor(): SessionsPolicyBody {
    // Values shown (not applied) while a setting is off: a starting point for the tenant's own.
    return {
      sessionIdleTimeoutConfiguration: { isActive: floor.idleTimeout > 0, timeout: floor.idleTimeout || 1800 },
      sessionTimeoutConfiguration: { isActive: floor.forceRelogin > 0, timeout: floor.forceRelogin || 86_400 },
      sessionConcurrentConfiguration: { isActive: floor.maxConcurrent > 0, maxSessions: floor.maxConcurrent || 10 },
    };
  }

  /** The tenant's own body tightened by the vendor's (the vendor's configuration may have tightened since the save). */
  function merge(own: SessionsPolicyBody | undefined): SessionsPolicyBody {
    if (!own) return vendor();
    const timeout = (vendorOn: boolean, vendorValue: number, t: { isActive: boolean; timeout: number }) =>
      vendorOn ? { isActive: true, timeout: t.isActive ? Math.min(t.timeout, vendorValue) : vendorValue } : { isActive: t.isActive, timeout: t.timeout };
    const c = own.sessionConcurrentConfiguration;
    return {
      sessionIdleTimeoutConfiguration: timeout(floor.idleTimeout > 0, floor.idleTimeout, own.sessionIdleTimeoutConfiguration),
      sessionTimeoutConfiguration: timeout(floor.forceRelogin > 0, floor.forceRelogin, own.sessionTimeoutConfiguration),
      sessionConcurrentConfiguration:
        floor.maxConcurrent > 0 ? { isActive: true, maxSessions: c.isActive ? Math.min(c.maxSessions, floor.maxConcurrent) : floor.maxConcurrent } : { isActive: c.isActive, maxSessions: c.maxSessions },
    };
  }

  /** The tenant's own policy: through the cache on the server's Db; a transaction (saving a policy) reads its own state. */
  async function ownPolicyOf(tenantId: string, source: Db): Promise<OwnPolicyRow<SessionsPolicyBody> | undefined> {
    if (source !== db) return findOwnPolicy<SessionsPolicyBody>(source, tenantId, 'sessions');
    return (await ownPolicies.get(tenantId, async () => (await findOwnPolicy<SessionsPolicyBody>(db, tenantId, 'sessions')) ?? null)) ?? undefined;
  }

  async function effective(tenantId: string, source: Db = db): Promise<SessionsPolicy> {
    const own = await ownPolicyOf(tenantId, source);
    return { ...merge(own?.body), ...(own ? { id: own.id } : {}) };
  }

  function assertTightens(body: SessionsPolicyBody): void {
    const timeouts = [
      ['sessionIdleTimeoutConfiguration', floor.idleTimeout, 'idle timeout'],
      ['sessionTimeoutConfiguration', floor.forceRelogin, 'forced re-login'],
    ] as const;
    for (const [key, vendorValue, name] of timeouts) {
      if (vendorValue === 0) continue;
      const setting = body[key];
      if (!setting.isActive) throw looser(`${key}.isActive`, `the ${name} cannot be turned off: the vendor's policy ends sessions after ${vendorValue} seconds`, true);
      if (setting.timeout > vendorValue) throw looser(`${key}.timeout`, `the ${name} may be at most the vendor's ${vendorValue} seconds, got ${setting.timeout}`, vendorValue);
    }
    if (floor.maxConcurrent > 0) {
      const c = body.sessionConcurrentConfiguration;
      const key = 'sessionConcurrentConfiguration';
      if (!c.isActive) throw looser(`${key}.isActive`, `the concurrent-session limit cannot be turned off: the vendor's policy allows at most ${floor.maxConcurrent} sessions`, true);
      if (c.maxSessions > floor.maxConcurrent) throw looser(`${key}.maxSessions`, `may be at most the vendor's ${floor.maxConcurrent} sessions, got ${c.maxSessions}`, floor.maxConcurrent);
    }
  }

  /** One effect per active setting (a setting left off signs no one out), and their sum when any is active. */
  function effectsOf(policy: SessionsPolicyBody, b: Breaches, total: number): PolicyEffect[] {
    const n = (count: number) => `${count} session${count === 1 ? '' : 's'}`;
    const effects: PolicyEffect[] = [];
    if (policy.sessionIdleTimeoutConfiguration.isActive) {
      effects.push({ code: 'SESSIONS_SIGNED_OUT_IDLE', affected: b.idle.size, total, message: `The new idle timeout signs out ${n(b.idle.size)} now.` });
    }
    if (policy.sessionTimeoutConfiguration.isActive) {
      effects.push({ code: 'SESSIONS_SIGNED_OUT_FORCE_RELOGIN', affected: b.relogin.size, total, message: `The new forced re-login signs out ${n(b.relogin.size)} now.` });
    }
    if (policy.sessionConcurrentConfiguration.isActive) {
      effects.push({ code: 'SESSIONS_SIGNED_OUT_CONCURRENT', affected: b.concurrent.size, total, message: `The new limit of concurrent sessions signs out ${n(b.concurrent.size)} now (the oldest of each user).` });
    }
    if (effects.length === 0) return [];
    const all = union(b).length;
    return [{ code: 'SESSIONS_SIGNED_OUT', affected: all, total, message: `Saving this policy signs out ${n(all)} of ${total} live now.` }, ...effects];
  }

  async function dryRun(tenantId: string, body: SessionsPolicyBody): Promise<PolicyDryRun> {
    assertTightens(body);
    const now = clock.now();
    const policy = merge(body);
    const sessions = await listLivePolicySessions(db, tenantId, now);
    return { dryRun: true, policy, effects: effectsOf(policy, breachesOf(policy, sessions, now), sessions.length) };
  }

  async function save(caller: AdminCaller, body: SessionsPolicyBody): Promise<{ policy: SessionsPolicy; signedOut: number }> {
    assertTightens(body);
    const now = clock.now();
    return db.transaction().execute(async (trx) => {
      const before = await effective(caller.tenantId, trx);
      await upsertOwnPolicy(trx, caller.tenantId, 'sessions', body, newId(), now);
      const after = await effective(caller.tenantId, trx);
      const sessions = await listLivePolicySessions(trx, caller.tenantId, now);
      const breaches = breachesOf(after, sessions, now);
      const signedOut = await revokeSessions(trx, union(breaches), now);
      const { id: _oldId, ...oldValues } = before;
      const { id: _newId, ...newValues } = after;
      await recordAudit(
        trx,
        caller,
        {
          action: AuditActions.sessionsPolicyUpdated,
          description: `Sessions policy updated${signedOut > 0 ? `; ${signedOut} session${signedOut === 1 ? '' : 's'} signed out` : ''}`,
          json: { policyId: after.id, old: oldValues, new: newValues, signedOut: { idle: breaches.idle.size, forceRelogin: breaches.relogin.size, concurrent: breaches.concurrent.size, total: signedOut } },
        },
        now,
      );
      return { policy: after, signedOut };
    });
  }

  /** An audit record, in the tenant, of the user's sessions the policy signed out. */
  async function recordEnded(userId: string, tenantId: string, sessionIds: string[], reason: SessionEndReason, now: number): Promise<void> {
    const user = await findUserById(db, userId);
    if (!user) return;
    await recordUserAudit(
      db,
      user,
      { ip: null, userAgent: null },
      { action: AuditActions.sessionRevoked, description: endAudits[reason], json: { reason, sessionIds } },
      now,
      tenantId,
    );
  }

  async function endIfExpired(session: PolicySession, tenantId: string): Promise<SessionEndReason | null> {
    const policy = await effective(tenantId);
    const now = clock.now();
    const breaches = breachesOf(policy, [{ ...session, created_at: session.auth_time, counted: false }], now);
    const reason: SessionEndReason | null = breaches.idle.size > 0 ? 'idle' : breaches.relogin.size > 0 ? 'relogin' : null;
    if (!reason) return null;
    // Only the call that revoked it records it (a second refresh of the same session finds it revoked).
    if ((await revokeSessions(db, [session.id], now)) > 0) await recordEnded(session.user_id, tenantId, [session.id], reason, now);
    return reason;
  }

  return {
    vendor,
    effective: (tenantId) => effective(tenantId),
    assertTightens,
    dryRun,
    save,
    endIfExpired,

    async checkSession(session, tenantId) {
      const reason = await endIfExpired(session, tenantId);
      if (reason) throw new AppError(SecurityErrorCodes.sessionExpiredByPolicy, 401, endMessages[reason], { reason });
    },

    async afterSessionStarted(userId, tenantId, arrivedSessionId) {
      const policy = await effective(tenantId);
      if (!policy.sessionConcurrentConfiguration.isActive) return [];
      const now = clock.now();
      // Only the concurrent rule: an idle or old session is ended by its own refresh, not by another sign-in.
      const onlyConcurrent: SessionsPolicyBody = { ...policy, sessionIdleTimeoutConfiguration: { ...policy.sessionIdleTimeoutConfiguration, isActive: false }, sessionTimeoutConfiguration: { ...policy.sessionTimeoutConfiguration, isActive: false } };
      const live = await listLivePolicySessions(db, tenantId, now, userId);
      // A session that moved in is the newest arrival, whenever it was created.
      const ordered = arrivedSessionId ? [...live.filter((x) => x.id === arrivedSessionId), ...live.filter((x) => x.id !== arrivedSessionId)] : live;
      const ids = [...breachesOf(onlyConcurrent, ordered, now).concurrent];
      if (ids.length === 0) return [];
      if ((await revokeSessions(db, ids, now, 1)) > 0) await recordEnded(userId, tenantId, ids, 'concurrent', now);
      return ids;
    },
  };
}
