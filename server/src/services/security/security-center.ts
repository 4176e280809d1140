/**
 * The security center (issue 12; seed 001 sections 3 "Security center", 7, 9): a tenant's score,
 * level, recommendations and insights from its real state (effective policies, sessions policy,
 * restrictions, SSO, users' MFA enrolment and breached passwords), the score's daily history, and the
 * breached-password reset emails. The rules are in security-center-rules.ts; the weighting is
 * documented in docs/security-center.md.
 */
import {
  SCORE_HISTORY_DAYS, type BreachedPasswordResetResponse, type InsightsResponse, type RecommendationsResponse, type ScoreHistoryResponse,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { listMembersPage, memberStats } from '../../db/queries/admin-users';
import { emailDomainRestrictionState, hasEnabledSso, ipRestrictionState, listScoreHistory, recordScore } from '../../db/queries/security-center';
import type { AdminCaller } from '../admin/access';
import { recordAudit } from '../admin/audit-log';
import type { RecoveryService } from '../recovery/recovery';
import type { SecurityPolicyService } from './policies';
import type { SessionPolicyService } from './session-policy';
import { insightsOf, levelOf, recommendationsOf, scoreOf, type SecurityState } from './security-center-rules';

/** The audit action of the breached-password reset emails. */
export const BREACHED_PASSWORD_RESET_AUDIT = 'Breached-password reset emails sent';

const DAY_MS = 86_400_000;
/** How many user ids the bulk reset's audit record names. */
const AUDITED_USER_IDS = 200;
/** YYYY-MM-DD of the UTC day of `ms`. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface SecurityCenterService {
  /** The score, its level and the recommendations; records the score as today's point of the history. */
  recommendations(tenantId: string): Promise<RecommendationsResponse>;
  insights(tenantId: string): Promise<InsightsResponse>;
  /** The last SCORE_HISTORY_DAYS days' scores, oldest first, today's recorded first. */
  scoreHistory(tenantId: string): Promise<ScoreHistoryResponse>;
  /** Emails a password-reset link to every member of the caller's tenant flagged with a breached password; audited. */
  resetBreachedPasswords(caller: AdminCaller, appUrl: string): Promise<BreachedPasswordResetResponse>;
}

export function createSecurityCenterService(deps: {
  db: Db;
  clock: Clock;
  policies: SecurityPolicyService;
  /** The tenant's effective sessions policy (the vendor's tightened by the tenant's own). */
  sessions: Pick<SessionPolicyService, 'effective'>;
  recovery: Pick<RecoveryService, 'emailResetLinkTo'>;
}): SecurityCenterService {
  const { db, clock, policies, sessions, recovery } = deps;

  async function stateOf(tenantId: string): Promise<SecurityState> {
    const [effective, sessionsPolicy, ip, domains, ssoConfigured, stats] = await Promise.all([
      policies.effective(tenantId),
      sessions.effective(tenantId),
      ipRestrictionState(db, tenantId),
      emailDomainRestrictionState(db, tenantId),
      hasEnabledSso(db, tenantId),
      memberStats(db, tenantId, clock.now()),
    ]);
    return {
      mfa: { enforceMFAType: effective.mfa.enforceMFAType },
      lockout: effective.lockout,
      passwordHistory: effective.passwordHistory,
      password: effective.password,
      sessions: sessionsPolicy,
      ip,
      domains,
      ssoConfigured,
      users: { total: stats.totalUsers, mfaEnrolled: stats.totalUsers - stats.mfaUnenrolled, breachedPasswords: stats.breachedPasswords },
    };
  }

  /** Today's score, recorded as today's point (replacing an earlier one of the day); points past the window go. */
  async function scoreToday(tenantId: string, state: SecurityState): Promise<number> {
    const score = scoreOf(state);
    const now = clock.now();
    await recordScore(db, tenantId, utcDay(now), score, oldestDay(now));
    return score;
  }

  const oldestDay = (now: number) => utcDay(now - (SCORE_HISTORY_DAYS - 1) * DAY_MS);

  return {
    async recommendations(tenantId) {
      const state = await stateOf(tenantId);
      const score = await scoreToday(tenantId, state);
      return { score, level: levelOf(score), recommendations: recommendationsOf(state) };
    },

    async insights(tenantId) {
      return { insights: insightsOf(await stateOf(tenantId)) };
    },

    async scoreHistory(tenantId) {
      await scoreToday(tenantId, await stateOf(tenantId));
      return { points: await listScoreHistory(db, tenantId, oldestDay(clock.now())) };
    },

    async resetBreachedPasswords(caller, appUrl) {
      const userIds: string[] = [];
      const pageSize = 100;
      for (let page = 0; ; page += 1) {
        const { rows } = await listMembersPage(db, caller.tenantId, { page, pageSize, sortBy: 'id', sortDirection: 'asc', preset: 'breached-passwords' }, clock.now());
        // A member disabled in this tenant is not this tenant's to email.
        userIds.push(...rows.filter((r) => r.disabled_at === null).map((r) => r.user_id));
        if (rows.length < pageSize) break;
      }
      let emailed = 0;
      for (const userId of userIds) if (await recovery.emailResetLinkTo(userId, appUrl)) emailed += 1;
      await recordAudit(db, caller, {
        action: BREACHED_PASSWORD_RESET_AUDIT,
        description: `Password reset emails sent to ${emailed} users with a breached password`,
        severity: 'High',
        // The first AUDITED_USER_IDS ids only, so one record stays small however many users there are.
        json: { breachedUsers: userIds.length, emailed, userIds: userIds.slice(0, AUDITED_USER_IDS) },
      }, clock.now());
      return { emailed };
    },
  };
}
