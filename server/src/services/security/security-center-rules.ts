/**
 * The security center's rules (issue 12; seed 001 section 3 "Security center"): from a snapshot of a
 * tenant's real security state, its score, level, recommendations and insights. Pure functions, no
 * I/O: security-center.ts gathers the state. The weighting is documented in docs/security-center.md
 * and must stay in step with it.
 *
 * The score is a sum of independent parts, each worth a fixed maximum (100 in all). A
 * recommendation's `points` is what its part gains once it is done as the description says, so
 * doing it raises the score by exactly that many points.
 */
import type {
  EnforceMfaType, Insight, Recommendation, RecommendationCode, RestrictionStrategy, SecurityLevel, SessionsPolicyBody,
} from '@gatehouse/shared/wire';

/** What the rules read: a tenant's effective policies, restrictions and user figures. */
export interface SecurityState {
  mfa: { enforceMFAType: EnforceMfaType };
  lockout: { enabled: boolean; maxAttempts: number };
  passwordHistory: { enabled: boolean; historySize: number };
  password: { minLength: number; minOptionalTestsToPass: number };
  sessions: SessionsPolicyBody;
  ip: { isActive: boolean; strategy: RestrictionStrategy; activeEntries: number };
  domains: { active: boolean; listType: RestrictionStrategy; entries: number };
  ssoConfigured: boolean;
  users: { total: number; mfaEnrolled: number; breachedPasswords: number };
}

/** The maximum of each part of the score; they add up to 100. */
export const SCORE_WEIGHTS = {
  mfaForced: 10,
  mfaEnrolment: 20,
  noBreachedPasswords: 10,
  lockout: 10,
  passwordHistory: 10,
  idleTimeout: 5,
  forcedRelogin: 5,
  concurrentSessions: 5,
  ipRestrictions: 10,
  domainRestrictions: 5,
  sso: 10,
} as const;

/** Recommended values: a setting at least this strict earns its part in full. */
export const RECOMMENDED = {
  /** Wrong passwords in a row before the account locks. */
  lockoutMaxAttempts: 5,
  /** Previous passwords a new one may not repeat. */
  passwordHistorySize: 5,
  /** Seconds without a refresh that end a session (30 minutes). */
  idleTimeoutSeconds: 1800,
  /** Seconds after which every session must sign in again (1 day). */
  forcedReloginSeconds: 86_400,
  /** Live sessions a user may hold at once. */
  maxConcurrentSessions: 3,
  /** Password length the "full password settings" insight asks for. */
  passwordMinLength: 10,
} as const;

/** A setting that is on but weaker than recommended earns this share of its part. */
const WEAK_LOCKOUT = 5;
const WEAK_HISTORY = 5;
const WEAK_SESSION_SETTING = 2;
const PARTIAL_MFA_FORCE = 7;
const IP_BLOCKLIST = 5;
const DOMAIN_BLOCKLIST = 3;

/** Score thresholds of each level: the highest level whose minimum the score reaches. */
export const LEVEL_THRESHOLDS: readonly { level: SecurityLevel; min: number }[] = [
  { level: 'Fortified', min: 90 },
  { level: 'Strong', min: 75 },
  { level: 'Good', min: 60 },
  { level: 'Fair', min: 40 },
  { level: 'Vulnerable', min: 0 },
];

export function levelOf(score: number): SecurityLevel {
  return LEVEL_THRESHOLDS.find((t) => score >= t.min)!.level;
}

type Setting = 'off' | 'weak' | 'recommended';

function sessionSetting(active: boolean, value: number, recommended: number): Setting {
  if (!active) return 'off';
  return value <= recommended ? 'recommended' : 'weak';
}

function sessionSettings(s: SessionsPolicyBody) {
  return {
    idle: sessionSetting(s.sessionIdleTimeoutConfiguration.isActive, s.sessionIdleTimeoutConfiguration.timeout, RECOMMENDED.idleTimeoutSeconds),
    relogin: sessionSetting(s.sessionTimeoutConfiguration.isActive, s.sessionTimeoutConfiguration.timeout, RECOMMENDED.forcedReloginSeconds),
    concurrent: sessionSetting(s.sessionConcurrentConfiguration.isActive, s.sessionConcurrentConfiguration.maxSessions, RECOMMENDED.maxConcurrentSessions),
  };
}

const lockoutSetting = (l: SecurityState['lockout']): Setting => (!l.enabled ? 'off' : l.maxAttempts <= RECOMMENDED.lockoutMaxAttempts ? 'recommended' : 'weak');
const historySetting = (h: SecurityState['passwordHistory']): Setting => (!h.enabled ? 'off' : h.historySize >= RECOMMENDED.passwordHistorySize ? 'recommended' : 'weak');
const sessionPoints = (s: Setting, max: number) => (s === 'recommended' ? max : s === 'weak' ? WEAK_SESSION_SETTING : 0);

/** Each part of the score for `state`, by name (the keys of SCORE_WEIGHTS). */
export function scoreParts(state: SecurityState): Record<keyof typeof SCORE_WEIGHTS, number> {
  const { users } = state;
  const sessions = sessionSettings(state.sessions);
  const lockout = lockoutSetting(state.lockout);
  const history = historySetting(state.passwordHistory);
  const W = SCORE_WEIGHTS;
  return {
    mfaForced: state.mfa.enforceMFAType === 'Force' ? W.mfaForced : state.mfa.enforceMFAType === 'ForceExceptSAML' ? PARTIAL_MFA_FORCE : 0,
    // Weighted by the share of the tenant's users with a second factor (rounded down).
    mfaEnrolment: users.total > 0 ? Math.floor((W.mfaEnrolment * users.mfaEnrolled) / users.total) : 0,
    // Breached passwords take their share of the users away from this part (rounded up, so one counts).
    noBreachedPasswords: users.total > 0 ? W.noBreachedPasswords - Math.ceil((W.noBreachedPasswords * users.breachedPasswords) / users.total) : W.noBreachedPasswords,
    lockout: lockout === 'recommended' ? W.lockout : lockout === 'weak' ? WEAK_LOCKOUT : 0,
    passwordHistory: history === 'recommended' ? W.passwordHistory : history === 'weak' ? WEAK_HISTORY : 0,
    idleTimeout: sessionPoints(sessions.idle, W.idleTimeout),
    forcedRelogin: sessionPoints(sessions.relogin, W.forcedRelogin),
    concurrentSessions: sessionPoints(sessions.concurrent, W.concurrentSessions),
    ipRestrictions: !state.ip.isActive ? 0 : state.ip.strategy === 'ALLOW' ? W.ipRestrictions : IP_BLOCKLIST,
    domainRestrictions: !state.domains.active ? 0 : state.domains.listType === 'ALLOW' ? W.domainRestrictions : DOMAIN_BLOCKLIST,
    sso: state.ssoConfigured ? W.sso : 0,
  };
}

/** The score, 0..100. */
export function scoreOf(state: SecurityState): number {
  const total = Object.values(scoreParts(state)).reduce((a, b) => a + b, 0);
  return Math.max(0, Math.min(100, total));
}

const SEVERITY_ORDER = { SEVERE: 0, WARNING: 1, INFO: 2 } as const;
const minutes = (s: number) => `${Math.round(s / 60)} minutes`;

/** The recommendations for `state`, most severe first (then most points). */
export function recommendationsOf(state: SecurityState): Recommendation[] {
  const parts = scoreParts(state);
  const W = SCORE_WEIGHTS;
  const out: Recommendation[] = [];
  const add = (code: RecommendationCode, r: Omit<Recommendation, 'code'>) => out.push({ code, ...r });

  if (state.mfa.enforceMFAType !== 'Force') {
    add('FORCE_MFA', { severity: 'SEVERE', category: 'MFA', points: W.mfaForced - parts.mfaForced, description: 'Force every user to sign in with a second factor (MFA).' });
  }
  if (state.users.breachedPasswords > 0) {
    const n = state.users.breachedPasswords;
    add('BREACHED_PASSWORDS_EXIST', {
      severity: 'SEVERE', category: 'PASSWORD', points: W.noBreachedPasswords - parts.noBreachedPasswords, action: 'SEND_RESET_BREACHED_PASSWORD_EMAIL', affectedUsers: n,
      description: `${n} ${n === 1 ? 'user signs' : 'users sign'} in with a password found in a data breach: send them a password reset email.`,
    });
  }

  const lockout = lockoutSetting(state.lockout);
  if (lockout === 'off') add('ENABLE_USER_LOCKOUT', { severity: 'SEVERE', category: 'PASSWORD', points: W.lockout, description: `Lock accounts after ${RECOMMENDED.lockoutMaxAttempts} wrong passwords in a row.` });
  else if (lockout === 'weak') add('STRENGTHEN_USER_LOCKOUT', { severity: 'WARNING', category: 'PASSWORD', points: W.lockout - parts.lockout, description: `Lock accounts after at most ${RECOMMENDED.lockoutMaxAttempts} wrong passwords (now ${state.lockout.maxAttempts}).` });

  const history = historySetting(state.passwordHistory);
  if (history === 'off') add('ENABLE_PASSWORD_HISTORY', { severity: 'WARNING', category: 'PASSWORD', points: W.passwordHistory, description: `Keep users from reusing their last ${RECOMMENDED.passwordHistorySize} passwords.` });
  else if (history === 'weak') add('STRENGTHEN_PASSWORD_HISTORY', { severity: 'INFO', category: 'PASSWORD', points: W.passwordHistory - parts.passwordHistory, description: `Remember at least ${RECOMMENDED.passwordHistorySize} previous passwords (now ${state.passwordHistory.historySize}).` });

  const sessions = sessionSettings(state.sessions);
  const s = state.sessions;
  if (sessions.relogin === 'off') add('ENABLE_FORCE_RELOGIN', { severity: 'WARNING', category: 'SESSIONS', action: 'ADJUST_FORCE_RELOGIN', points: W.forcedRelogin, description: `Make users sign in again after at most ${RECOMMENDED.forcedReloginSeconds / 3600} hours.` });
  else if (sessions.relogin === 'weak') add('SET_FORCE_RELOGIN', { severity: 'INFO', category: 'SESSIONS', action: 'ADJUST_FORCE_RELOGIN', points: W.forcedRelogin - parts.forcedRelogin, description: `Shorten forced re-login to at most ${RECOMMENDED.forcedReloginSeconds / 3600} hours (now ${Math.round(s.sessionTimeoutConfiguration.timeout / 3600)} hours).` });
  if (sessions.concurrent === 'off') add('ENABLE_SESSION_CONCURRENCY', { severity: 'WARNING', category: 'SESSIONS', action: 'ADJUST_MAX_CONCURRENT_SESSIONS', points: W.concurrentSessions, description: `Limit each user to ${RECOMMENDED.maxConcurrentSessions} sessions at once.` });
  else if (sessions.concurrent === 'weak') add('SET_SESSION_CONCURRENCY', { severity: 'INFO', category: 'SESSIONS', action: 'ADJUST_MAX_CONCURRENT_SESSIONS', points: W.concurrentSessions - parts.concurrentSessions, description: `Allow at most ${RECOMMENDED.maxConcurrentSessions} sessions at once (now ${s.sessionConcurrentConfiguration.maxSessions}).` });
  if (sessions.idle === 'off') add('ENABLE_IDLE_SESSION', { severity: 'WARNING', category: 'SESSIONS', action: 'ADJUST_IDLE_TIMEOUT', points: W.idleTimeout, description: `Sign out sessions idle for ${minutes(RECOMMENDED.idleTimeoutSeconds)}.` });
  else if (sessions.idle === 'weak') add('SET_IDLE_SESSION', { severity: 'INFO', category: 'SESSIONS', action: 'ADJUST_IDLE_TIMEOUT', points: W.idleTimeout - parts.idleTimeout, description: `Shorten the idle timeout to at most ${minutes(RECOMMENDED.idleTimeoutSeconds)} (now ${minutes(s.sessionIdleTimeoutConfiguration.timeout)}).` });

  if (!state.ip.isActive) add('ENABLE_IP_RESTRICTIONS', { severity: 'WARNING', category: 'IP', points: W.ipRestrictions, description: 'Let members in only from the networks you list (an IP allow list).' });
  else if (state.ip.strategy === 'BLOCK') add('CHANGE_IP_TO_ALLOWLIST', { severity: 'INFO', category: 'IP', points: W.ipRestrictions - parts.ipRestrictions, description: 'Change the IP block list to an allow list: only the networks you list get in.' });
  if (!state.domains.active) add('ENABLE_DOMAIN_RESTRICTIONS', { severity: 'INFO', category: 'DOMAIN', points: W.domainRestrictions, description: 'Let only addresses of the email domains you list join (a domain allow list).' });
  else if (state.domains.listType === 'BLOCK') add('CHANGE_DOMAIN_TO_ALLOWLIST', { severity: 'INFO', category: 'DOMAIN', points: W.domainRestrictions - parts.domainRestrictions, description: 'Change the email-domain block list to an allow list.' });
  if (!state.ssoConfigured) add('CONFIGURE_SSO', { severity: 'INFO', category: 'SSO', points: W.sso, description: "Sign members in through your company's identity provider (SAML or OIDC single sign-on)." });

  return out.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || b.points - a.points);
}

/** The insights for `state`: at most one of each group (MFA enforcement, MFA usage, sessions, IP, domains, ...). */
export function insightsOf(state: SecurityState): Insight[] {
  const out: Insight[] = [];
  const { users } = state;
  if (state.mfa.enforceMFAType === 'Force') out.push({ code: 'MFA_FORCED', category: 'MFA', description: 'Every user signs in with a second factor.' });
  else if (state.mfa.enforceMFAType === 'ForceExceptSAML') out.push({ code: 'PARTIALLY_FORCED_MFA', category: 'MFA', description: 'A second factor is forced, except for users signing in with SAML.' });

  const mfaData = { enrolled: users.mfaEnrolled, total: users.total };
  if (users.total > 0 && users.mfaEnrolled >= users.total) out.push({ code: 'FULL_MFA_USAGE', category: 'MFA', data: mfaData, description: 'Every user has a second factor.' });
  else out.push({ code: 'PARTIAL_MFA_USAGE', category: 'MFA', data: mfaData, description: `${users.mfaEnrolled} of ${users.total} users have a second factor.` });

  if (users.breachedPasswords > 0) out.push({ code: 'BREACHED_PASSWORD_USERS_EXIST', category: 'PASSWORD', data: { users: users.breachedPasswords, total: users.total }, description: `${users.breachedPasswords} users sign in with a password found in a data breach.` });

  const lockout = lockoutSetting(state.lockout);
  const history = historySetting(state.passwordHistory);
  if (lockout !== 'recommended') out.push({ code: 'IMPROVE_LOCKOUT_POLICY', category: 'PASSWORD', description: lockout === 'off' ? 'Accounts never lock after wrong passwords.' : `Accounts lock only after ${state.lockout.maxAttempts} wrong passwords.` });
  if (history !== 'recommended') out.push({ code: 'IMPROVE_PASSWORD_HISTORY_POLICY', category: 'PASSWORD', description: history === 'off' ? 'Users may reuse their previous passwords.' : `Only the last ${state.passwordHistory.historySize} passwords are remembered.` });
  if (lockout === 'recommended' && history === 'recommended' && state.password.minLength >= RECOMMENDED.passwordMinLength) {
    out.push({ code: 'FULL_PASSWORD_SETTINGS', category: 'PASSWORD', description: 'Lockout, password history and password length are all at the recommended settings.' });
  }

  const s = state.sessions;
  const active = [s.sessionIdleTimeoutConfiguration.isActive, s.sessionTimeoutConfiguration.isActive, s.sessionConcurrentConfiguration.isActive].filter(Boolean).length;
  const sessionData = { active, total: 3 };
  if (active === 0) out.push({ code: 'NO_SESSION_SETTINGS', category: 'SESSIONS', data: sessionData, description: 'No idle timeout, forced re-login or session limit is set.' });
  else if (active < 3) out.push({ code: 'PARTIAL_SESSION_SETTINGS', category: 'SESSIONS', data: sessionData, description: `${active} of the 3 session settings are on.` });
  else out.push({ code: 'FULL_SESSION_SETTINGS', category: 'SESSIONS', data: sessionData, description: 'Idle timeout, forced re-login and the session limit are all on.' });

  const ipData = { entries: state.ip.activeEntries };
  if (!state.ip.isActive) out.push({ code: 'NO_IP_RESTRICTIONS', category: 'IP', data: ipData, description: 'Members may sign in from any network.' });
  else if (state.ip.strategy === 'ALLOW') out.push({ code: 'IP_ALLOWLIST', category: 'IP', data: ipData, description: 'Members sign in only from the listed networks.' });
  else out.push({ code: 'IP_DENYLIST', category: 'IP', data: ipData, description: 'The listed networks are kept out.' });

  const domainData = { entries: state.domains.entries };
  if (!state.domains.active) out.push({ code: 'NO_DOMAIN_RESTRICTIONS', category: 'DOMAIN', data: domainData, description: 'Addresses of any email domain may join.' });
  else if (state.domains.listType === 'ALLOW') out.push({ code: 'DOMAIN_ALLOWLIST', category: 'DOMAIN', data: domainData, description: 'Only addresses of the listed email domains may join.' });
  else out.push({ code: 'DOMAIN_DENYLIST', category: 'DOMAIN', data: domainData, description: 'Addresses of the listed email domains are kept out.' });
  return out;
}
