import { RecommendationCodes, type RecommendationCode } from '@gatehouse/shared/wire';
import { describe, expect, it } from 'vitest';
import { insightsOf, levelOf, recommendationsOf, SCORE_WEIGHTS, scoreOf, type SecurityState } from './security-center-rules';

const off = { isActive: false, timeout: 3600 };
/** A tenant with nothing set: the vendor's defaults, three users, none enrolled. */
const weakest: SecurityState = {
  mfa: { enforceMFAType: 'DontForce' },
  lockout: { enabled: false, maxAttempts: 5 },
  passwordHistory: { enabled: false, historySize: 1 },
  password: { minLength: 8, minOptionalTestsToPass: 0 },
  sessions: { sessionIdleTimeoutConfiguration: off, sessionTimeoutConfiguration: off, sessionConcurrentConfiguration: { isActive: false, maxSessions: 1 } },
  ip: { isActive: false, strategy: 'ALLOW', activeEntries: 0 },
  domains: { active: false, listType: 'ALLOW', entries: 0 },
  ssoConfigured: false,
  users: { total: 3, mfaEnrolled: 0, breachedPasswords: 1 },
};

/** A weaker-than-recommended state for each "strengthen"/"set"/"change" code, and the state once done. */
const weaker: SecurityState = {
  ...weakest,
  lockout: { enabled: true, maxAttempts: 10 },
  passwordHistory: { enabled: true, historySize: 2 },
  sessions: {
    sessionIdleTimeoutConfiguration: { isActive: true, timeout: 7200 },
    sessionTimeoutConfiguration: { isActive: true, timeout: 30 * 86_400 },
    sessionConcurrentConfiguration: { isActive: true, maxSessions: 20 },
  },
  ip: { isActive: true, strategy: 'BLOCK', activeEntries: 2 },
  domains: { active: true, listType: 'BLOCK', entries: 1 },
};

/** What doing each recommendation changes (to the recommended value). */
const DONE: Record<RecommendationCode, (s: SecurityState) => SecurityState> = {
  FORCE_MFA: (s) => ({ ...s, mfa: { enforceMFAType: 'Force' } }),
  BREACHED_PASSWORDS_EXIST: (s) => ({ ...s, users: { ...s.users, breachedPasswords: 0 } }),
  ENABLE_USER_LOCKOUT: (s) => ({ ...s, lockout: { enabled: true, maxAttempts: 5 } }),
  STRENGTHEN_USER_LOCKOUT: (s) => ({ ...s, lockout: { enabled: true, maxAttempts: 5 } }),
  ENABLE_PASSWORD_HISTORY: (s) => ({ ...s, passwordHistory: { enabled: true, historySize: 5 } }),
  STRENGTHEN_PASSWORD_HISTORY: (s) => ({ ...s, passwordHistory: { enabled: true, historySize: 5 } }),
  ENABLE_FORCE_RELOGIN: (s) => ({ ...s, sessions: { ...s.sessions, sessionTimeoutConfiguration: { isActive: true, timeout: 86_400 } } }),
  SET_FORCE_RELOGIN: (s) => ({ ...s, sessions: { ...s.sessions, sessionTimeoutConfiguration: { isActive: true, timeout: 86_400 } } }),
  ENABLE_SESSION_CONCURRENCY: (s) => ({ ...s, sessions: { ...s.sessions, sessionConcurrentConfiguration: { isActive: true, maxSessions: 3 } } }),
  SET_SESSION_CONCURRENCY: (s) => ({ ...s, sessions: { ...s.sessions, sessionConcurrentConfiguration: { isActive: true, maxSessions: 3 } } }),
  ENABLE_IDLE_SESSION: (s) => ({ ...s, sessions: { ...s.sessions, sessionIdleTimeoutConfiguration: { isActive: true, timeout: 1800 } } }),
  SET_IDLE_SESSION: (s) => ({ ...s, sessions: { ...s.sessions, sessionIdleTimeoutConfiguration: { isActive: true, timeout: 1800 } } }),
  ENABLE_IP_RESTRICTIONS: (s) => ({ ...s, ip: { isActive: true, strategy: 'ALLOW', activeEntries: 1 } }),
  CHANGE_IP_TO_ALLOWLIST: (s) => ({ ...s, ip: { isActive: true, strategy: 'ALLOW', activeEntries: 1 } }),
  ENABLE_DOMAIN_RESTRICTIONS: (s) => ({ ...s, domains: { active: true, listType: 'ALLOW', entries: 1 } }),
  CHANGE_DOMAIN_TO_ALLOWLIST: (s) => ({ ...s, domains: { active: true, listType: 'ALLOW', entries: 1 } }),
  CONFIGURE_SSO: (s) => ({ ...s, ssoConfigured: true }),
};

describe('security center rules', () => {
  it('the parts of the score add up to 100', () => {
    expect(Object.values(SCORE_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('between them, the weakest and the weaker state raise all 17 recommendation codes', () => {
    const raised = new Set([...recommendationsOf(weakest), ...recommendationsOf(weaker)].map((r) => r.code));
    expect([...raised].sort()).toEqual([...RecommendationCodes].sort());
  });

  it('doing any recommendation raises the score by exactly its points, and it is no longer raised', () => {
    for (const state of [weakest, weaker]) {
      for (const r of recommendationsOf(state)) {
        const done = DONE[r.code](state);
        expect(scoreOf(done) - scoreOf(state), r.code).toBe(r.points);
        expect(recommendationsOf(done).map((x) => x.code), r.code).not.toContain(r.code);
      }
    }
  });

  it('doing every recommendation reaches 100 (all users enrolled), Fortified, with nothing left to recommend', () => {
    let state: SecurityState = { ...weakest, users: { total: 3, mfaEnrolled: 3, breachedPasswords: 1 } };
    for (const r of recommendationsOf(state)) state = DONE[r.code](state);
    expect(recommendationsOf(state)).toEqual([]);
    expect(scoreOf(state)).toBe(100);
    expect(levelOf(scoreOf(state))).toBe('Fortified');
  });

  it('MFA enrolment weighs by the share of enrolled users, rounded down; breached passwords take their share away, rounded up', () => {
    const base = scoreOf({ ...weakest, users: { total: 3, mfaEnrolled: 0, breachedPasswords: 0 } });
    expect(scoreOf({ ...weakest, users: { total: 3, mfaEnrolled: 1, breachedPasswords: 0 } }) - base).toBe(6);
    expect(scoreOf({ ...weakest, users: { total: 3, mfaEnrolled: 3, breachedPasswords: 0 } }) - base).toBe(20);
    expect(base - scoreOf({ ...weakest, users: { total: 3, mfaEnrolled: 0, breachedPasswords: 1 } })).toBe(4);
    expect(base - scoreOf({ ...weakest, users: { total: 3, mfaEnrolled: 0, breachedPasswords: 3 } })).toBe(10);
  });

  it('levels: Vulnerable below 40, Fair from 40, Good from 60, Strong from 75, Fortified from 90', () => {
    expect([0, 39, 40, 59, 60, 74, 75, 89, 90, 100].map(levelOf)).toEqual(['Vulnerable', 'Vulnerable', 'Fair', 'Fair', 'Good', 'Good', 'Strong', 'Strong', 'Fortified', 'Fortified']);
  });

  it('recommendations come most severe first, then by points', () => {
    const list = recommendationsOf(weakest);
    const order = { SEVERE: 0, WARNING: 1, INFO: 2 };
    for (let i = 1; i < list.length; i += 1) {
      const [a, b] = [list[i - 1]!, list[i]!];
      expect(order[a.severity] < order[b.severity] || (a.severity === b.severity && a.points >= b.points)).toBe(true);
    }
  });

  it('insights: one of each group, chosen by the state', () => {
    const codes = (s: SecurityState) => insightsOf(s).map((i) => i.code).sort();
    expect(codes(weakest)).toEqual(['BREACHED_PASSWORD_USERS_EXIST', 'IMPROVE_LOCKOUT_POLICY', 'IMPROVE_PASSWORD_HISTORY_POLICY', 'NO_DOMAIN_RESTRICTIONS', 'NO_IP_RESTRICTIONS', 'NO_SESSION_SETTINGS', 'PARTIAL_MFA_USAGE']);
    expect(codes({ ...weaker, mfa: { enforceMFAType: 'ForceExceptSAML' } })).toEqual([
      'BREACHED_PASSWORD_USERS_EXIST', 'DOMAIN_DENYLIST', 'FULL_SESSION_SETTINGS', 'IMPROVE_LOCKOUT_POLICY', 'IMPROVE_PASSWORD_HISTORY_POLICY', 'IP_DENYLIST', 'PARTIALLY_FORCED_MFA', 'PARTIAL_MFA_USAGE',
    ]);
    const strong: SecurityState = {
      ...weakest,
      mfa: { enforceMFAType: 'Force' },
      lockout: { enabled: true, maxAttempts: 3 },
      passwordHistory: { enabled: true, historySize: 10 },
      password: { minLength: 12, minOptionalTestsToPass: 3 },
      sessions: { ...weakest.sessions, sessionIdleTimeoutConfiguration: { isActive: true, timeout: 600 } },
      ip: { isActive: true, strategy: 'ALLOW', activeEntries: 1 },
      domains: { active: true, listType: 'ALLOW', entries: 2 },
      users: { total: 2, mfaEnrolled: 2, breachedPasswords: 0 },
    };
    expect(codes(strong)).toEqual(['DOMAIN_ALLOWLIST', 'FULL_MFA_USAGE', 'FULL_PASSWORD_SETTINGS', 'IP_ALLOWLIST', 'MFA_FORCED', 'PARTIAL_SESSION_SETTINGS']);
    expect(insightsOf(strong).find((i) => i.code === 'PARTIAL_SESSION_SETTINGS')!.data).toEqual({ active: 1, total: 3 });
    // A password shorter than recommended keeps FULL_PASSWORD_SETTINGS away.
    expect(codes({ ...strong, password: { minLength: 8, minOptionalTestsToPass: 3 } })).not.toContain('FULL_PASSWORD_SETTINGS');
  });
});
