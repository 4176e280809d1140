/** The security center's calls (issue 12; seed 001 sections 3, 7, 9), through the portal's API client. */
import { AdminPaths, SECURITY_CENTER_TABLE_LIMIT, SecurityPaths, type UserFilterPreset } from '@gatehouse/shared/admin-paths';
import type {
  BreachedPasswordResetResponse, CaptchaPolicyBody, InsightsResponse, LockoutPolicyBody, MfaPolicyBody, PasswordHistoryPolicyBody,
  RecommendationsResponse, ScoreHistoryResponse, SessionsPolicyBody, UsersPage,
} from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';

/** The policies the "Sign-in protection" panel summarises; each null when it could not be read. */
export interface LoginFlows {
  mfa: MfaPolicyBody | null;
  lockout: LockoutPolicyBody | null;
  captcha: CaptchaPolicyBody | null;
  passwordHistory: PasswordHistoryPolicyBody | null;
  sessions: SessionsPolicyBody | null;
}

/** A policy that cannot be read (a missing permission, a failed call) is left out of the panel, not fatal to it. */
const orNull = <T,>(loading: Promise<T>): Promise<T | null> => loading.catch(() => null);

export function createSecurityCenterApi(api: GatehouseApi) {
  return {
    recommendations: () => api.request<RecommendationsResponse>('GET', SecurityPaths.securityCenterRecommendations),
    insights: () => api.request<InsightsResponse>('GET', SecurityPaths.securityCenterInsights),
    scoreHistory: () => api.request<ScoreHistoryResponse>('GET', SecurityPaths.securityCenterScoreHistory),
    /** Seed 001 section 7 "breached-password reset bulk": emails a reset link to every user with a breached password. */
    resetBreachedPasswords: () => api.request<BreachedPasswordResetResponse>('POST', SecurityPaths.breachedPasswordResetBulk),
    /** One page (0 first) of the users a table lists, SECURITY_CENTER_TABLE_LIMIT a page. */
    users: (preset: UserFilterPreset, page: number) =>
      api.request<UsersPage>('GET', AdminPaths.teamMembers, { query: { pageOffset: page, pageSize: SECURITY_CENTER_TABLE_LIMIT, sortBy: 'name', sortDirection: 'asc', preset } }),
    loginFlows: async (): Promise<LoginFlows> => {
      const [mfa, lockout, captcha, passwordHistory, sessions] = await Promise.all([
        orNull(api.request<MfaPolicyBody>('GET', SecurityPaths.mfaPolicy)),
        orNull(api.request<LockoutPolicyBody>('GET', SecurityPaths.lockoutPolicy)),
        orNull(api.request<CaptchaPolicyBody>('GET', SecurityPaths.captchaPolicy)),
        orNull(api.request<PasswordHistoryPolicyBody>('GET', SecurityPaths.passwordHistoryPolicy)),
        orNull(api.request<SessionsPolicyBody>('GET', SecurityPaths.sessionsPolicy)),
      ]);
      return { mfa, lockout, captcha, passwordHistory, sessions };
    },
  };
}

export type SecurityCenterApi = ReturnType<typeof createSecurityCenterApi>;
