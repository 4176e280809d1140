/**
 * The security center over HTTP (issue 12), both dialects. Every recommendation and insight is
 * raised by state set through the real APIs (policies, sessions, restrictions, SSO, MFA enrolment,
 * sign-in with a breached password); doing a recommendation raises the score by its points.
 */
import {
  AdminPaths, ApiPaths, Permissions, SecurityPaths, SsoPaths, type InsightCode, type RecommendationCode, type RecommendationsResponse, type InsightsResponse,
} from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { auditsOf, callAs, inviteMember, memberWithoutPermissions, pathOf, signIn, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { call, describeDialects, mailbox, movableClock, PASSWORD, uniqueEmail } from '../../test/harness';
import { grantRoleWith, invitationMailFor } from '../../test/invitation-helpers';
import { enrolledUser, stepClock } from '../../test/mfa-helpers';
import { BREACHED_PASSWORD_RESET_AUDIT } from '../../services/security/security-center';

/** The address every call comes from (TRUST_PROXY is on), so an IP allow list can name it. */
const MY_IP = '203.0.113.7';
const HEADERS = { 'x-forwarded-for': MY_IP };
const ENV = { TRUST_PROXY: 'true', RATE_LIMIT_SIGNUP_PER_IP: '1000/60', RATE_LIMIT_LOGIN_PER_IP: '1000/600' };
const BREACHED = 'password';
const DAY = 86_400_000;

type Who = { accessToken: string };
const as = (server: GatehouseServer, who: Who, method: string, path: string, body?: unknown) => callAs(server, who, method, path, { headers: HEADERS, ...(body === undefined ? {} : { body }) });

async function ok(server: GatehouseServer, who: Who, method: string, path: string, body?: unknown) {
  const res = await as(server, who, method, path, body);
  if (res.status !== 200 && res.status !== 201) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The center as the admin sees it: score, level, recommendations and insights by code. */
async function center(server: GatehouseServer, admin: Who) {
  const rec = (await ok(server, admin, 'GET', SecurityPaths.securityCenterRecommendations)) as RecommendationsResponse;
  const ins = (await ok(server, admin, 'GET', SecurityPaths.securityCenterInsights)) as InsightsResponse;
  return {
    score: rec.score,
    level: rec.level,
    recommendations: new Map(rec.recommendations.map((r) => [r.code, r])),
    insights: new Map(ins.insights.map((i) => [i.code, i])),
  };
}

const savePolicy = (server: GatehouseServer, admin: Who, path: string, body: unknown) => ok(server, admin, 'POST', path, body);

/** Saves the sessions policy with `changes` over the tenant's current one. */
async function saveSessions(server: GatehouseServer, admin: Who, changes: Record<string, unknown>) {
  const { id: _id, ...current } = await ok(server, admin, 'GET', SecurityPaths.sessionsPolicy);
  return savePolicy(server, admin, SecurityPaths.sessionsPolicy, { ...current, ...changes });
}

async function saveIp(server: GatehouseServer, admin: Who, strategy: 'ALLOW' | 'BLOCK') {
  const ip = strategy === 'ALLOW' ? MY_IP : '198.51.100.0/24';
  await ok(server, admin, 'POST', SecurityPaths.ipRestrictions, { ip, strategy, isActive: true, description: 'test' });
  await ok(server, admin, 'POST', SecurityPaths.ipRestrictionsConfig, { isActive: true, strategy });
}

async function saveDomains(server: GatehouseServer, admin: Who, listType: 'ALLOW' | 'BLOCK') {
  await ok(server, admin, 'POST', SecurityPaths.emailDomainRestrictions, { domain: listType === 'ALLOW' ? 'example.com' : 'spam.example', type: listType });
  await ok(server, admin, 'POST', SecurityPaths.emailDomainRestrictionsConfig, { active: true, listType, blockPublicDomains: false });
}

const lockout = (maxAttempts: number) => ({ enabled: true, maxAttempts });
const history = (historySize: number) => ({ enabled: true, historySize });
const idle = (timeout: number) => ({ sessionIdleTimeoutConfiguration: { isActive: true, timeout } });
const relogin = (timeout: number) => ({ sessionTimeoutConfiguration: { isActive: true, timeout } });
const concurrent = (maxSessions: number) => ({ sessionConcurrentConfiguration: { isActive: true, maxSessions } });

interface Case {
  code: RecommendationCode;
  /** State that raises the code (none: a new tenant raises it). */
  setup?: (server: GatehouseServer, admin: TenantAdmin) => Promise<void>;
  /** Doing what the recommendation says. */
  apply: (server: GatehouseServer, admin: TenantAdmin) => Promise<void>;
  /** Insights shown before and after. */
  insightsBefore: InsightCode[];
  insightsAfter: InsightCode[];
}

const CASES: Case[] = [
  {
    code: 'FORCE_MFA',
    apply: (s, a) => savePolicy(s, a, SecurityPaths.mfaPolicy, { enforceMFAType: 'Force', allowRememberMyDevice: false, mfaDeviceExpiration: 0 }),
    insightsBefore: ['PARTIAL_MFA_USAGE'],
    insightsAfter: ['MFA_FORCED', 'PARTIAL_MFA_USAGE'],
  },
  {
    code: 'FORCE_MFA',
    setup: (s, a) => savePolicy(s, a, SecurityPaths.mfaPolicy, { enforceMFAType: 'ForceExceptSAML', allowRememberMyDevice: false, mfaDeviceExpiration: 0 }),
    apply: (s, a) => savePolicy(s, a, SecurityPaths.mfaPolicy, { enforceMFAType: 'Force', allowRememberMyDevice: false, mfaDeviceExpiration: 0 }),
    insightsBefore: ['PARTIALLY_FORCED_MFA'],
    insightsAfter: ['MFA_FORCED'],
  },
  { code: 'ENABLE_USER_LOCKOUT', apply: (s, a) => savePolicy(s, a, SecurityPaths.lockoutPolicy, lockout(5)), insightsBefore: ['IMPROVE_LOCKOUT_POLICY'], insightsAfter: [] },
  {
    code: 'STRENGTHEN_USER_LOCKOUT',
    setup: (s, a) => savePolicy(s, a, SecurityPaths.lockoutPolicy, lockout(8)),
    apply: (s, a) => savePolicy(s, a, SecurityPaths.lockoutPolicy, lockout(3)),
    insightsBefore: ['IMPROVE_LOCKOUT_POLICY'],
    insightsAfter: [],
  },
  { code: 'ENABLE_PASSWORD_HISTORY', apply: (s, a) => savePolicy(s, a, SecurityPaths.passwordHistoryPolicy, history(5)), insightsBefore: ['IMPROVE_PASSWORD_HISTORY_POLICY'], insightsAfter: [] },
  {
    code: 'STRENGTHEN_PASSWORD_HISTORY',
    setup: (s, a) => savePolicy(s, a, SecurityPaths.passwordHistoryPolicy, history(3)),
    apply: (s, a) => savePolicy(s, a, SecurityPaths.passwordHistoryPolicy, history(10)),
    insightsBefore: ['IMPROVE_PASSWORD_HISTORY_POLICY'],
    insightsAfter: [],
  },
  { code: 'ENABLE_FORCE_RELOGIN', apply: (s, a) => saveSessions(s, a, relogin(86_400)), insightsBefore: ['NO_SESSION_SETTINGS'], insightsAfter: ['PARTIAL_SESSION_SETTINGS'] },
  {
    code: 'SET_FORCE_RELOGIN',
    setup: (s, a) => saveSessions(s, a, relogin(7 * 86_400)),
    apply: (s, a) => saveSessions(s, a, relogin(43_200)),
    insightsBefore: ['PARTIAL_SESSION_SETTINGS'],
    insightsAfter: ['PARTIAL_SESSION_SETTINGS'],
  },
  { code: 'ENABLE_SESSION_CONCURRENCY', apply: (s, a) => saveSessions(s, a, concurrent(3)), insightsBefore: ['NO_SESSION_SETTINGS'], insightsAfter: ['PARTIAL_SESSION_SETTINGS'] },
  {
    code: 'SET_SESSION_CONCURRENCY',
    setup: (s, a) => saveSessions(s, a, concurrent(10)),
    apply: (s, a) => saveSessions(s, a, concurrent(2)),
    insightsBefore: ['PARTIAL_SESSION_SETTINGS'],
    insightsAfter: ['PARTIAL_SESSION_SETTINGS'],
  },
  { code: 'ENABLE_IDLE_SESSION', apply: (s, a) => saveSessions(s, a, idle(1800)), insightsBefore: ['NO_SESSION_SETTINGS'], insightsAfter: ['PARTIAL_SESSION_SETTINGS'] },
  {
    code: 'SET_IDLE_SESSION',
    setup: (s, a) => saveSessions(s, a, idle(3600)),
    apply: (s, a) => saveSessions(s, a, idle(900)),
    insightsBefore: ['PARTIAL_SESSION_SETTINGS'],
    insightsAfter: ['PARTIAL_SESSION_SETTINGS'],
  },
  { code: 'ENABLE_IP_RESTRICTIONS', apply: (s, a) => saveIp(s, a, 'ALLOW'), insightsBefore: ['NO_IP_RESTRICTIONS'], insightsAfter: ['IP_ALLOWLIST'] },
  { code: 'CHANGE_IP_TO_ALLOWLIST', setup: (s, a) => saveIp(s, a, 'BLOCK'), apply: (s, a) => saveIp(s, a, 'ALLOW'), insightsBefore: ['IP_DENYLIST'], insightsAfter: ['IP_ALLOWLIST'] },
  { code: 'ENABLE_DOMAIN_RESTRICTIONS', apply: (s, a) => saveDomains(s, a, 'ALLOW'), insightsBefore: ['NO_DOMAIN_RESTRICTIONS'], insightsAfter: ['DOMAIN_ALLOWLIST'] },
  { code: 'CHANGE_DOMAIN_TO_ALLOWLIST', setup: (s, a) => saveDomains(s, a, 'BLOCK'), apply: (s, a) => saveDomains(s, a, 'ALLOW'), insightsBefore: ['DOMAIN_DENYLIST'], insightsAfter: ['DOMAIN_ALLOWLIST'] },
  { code: 'CONFIGURE_SSO', apply: async (s, a) => void (await ok(s, a, 'POST', SsoPaths.configurations, { type: 'saml' })), insightsBefore: [], insightsAfter: [] },
];

/** A member whose password (on the breached list) was flagged when they signed in with it. */
async function breachedMember(server: GatehouseServer, admin: TenantAdmin): Promise<{ userId: string; email: string }> {
  const { email } = await inviteMember(server, admin);
  const mail = await invitationMailFor(server, email);
  expect((await call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: mail.userId, token: mail.token, password: BREACHED } })).status).toBe(200);
  expect((await signIn(server, email, BREACHED)).body).toMatchObject({ isBreachedPassword: true });
  return { userId: mail.userId, email };
}

/** The reset links mailed to `to`, newest last. */
async function resetLinks(server: GatehouseServer, to: string): Promise<URL[]> {
  await server.recovery.idle();
  return (await mailbox(server))
    .filter((m) => m.to === to)
    .map((m) => /https?:\/\/\S+\/account\/reset-password\?\S+/.exec(m.text)?.[0])
    .filter((l): l is string => l !== undefined)
    .map((l) => new URL(l));
}

describeDialects('security center', (h) => {
  const start = (env: Record<string, string> = {}, clock?: { now(): number }) => h.start({ ...ENV, ...env }, clock ? { clock } : {});

  for (const c of CASES) {
    it(`${c.code}${c.setup ? ' (after a weaker setting)' : ''} is raised by the real state, and doing it raises the score by its points`, async () => {
      const server = await start();
      const admin = await tenantWithAdmin(server);
      await c.setup?.(server, admin);
      const before = await center(server, admin);
      const recommendation = before.recommendations.get(c.code);
      expect(recommendation, c.code).toBeDefined();
      expect(recommendation!.points).toBeGreaterThan(0);
      for (const code of c.insightsBefore) expect(before.insights.has(code), code).toBe(true);

      await c.apply(server, admin);
      const after = await center(server, admin);
      expect(after.recommendations.has(c.code)).toBe(false);
      expect(after.score).toBe(before.score + recommendation!.points);
      for (const code of c.insightsAfter) expect(after.insights.has(code), code).toBe(true);
      for (const code of c.insightsBefore.filter((i) => !c.insightsAfter.includes(i))) expect(after.insights.has(code), code).toBe(false);
    });
  }

  it('a new tenant: a low score, every "enable" recommendation, and the insights of no settings', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const state = await center(server, admin);
    expect([...state.recommendations.keys()].sort()).toEqual([
      'CONFIGURE_SSO', 'ENABLE_DOMAIN_RESTRICTIONS', 'ENABLE_FORCE_RELOGIN', 'ENABLE_IDLE_SESSION', 'ENABLE_IP_RESTRICTIONS', 'ENABLE_PASSWORD_HISTORY', 'ENABLE_SESSION_CONCURRENCY',
      'ENABLE_USER_LOCKOUT', 'FORCE_MFA',
    ]);
    // Only the "no breached passwords" part holds: 10 points.
    expect(state).toMatchObject({ score: 10, level: 'Vulnerable' });
    expect([...state.insights.keys()].sort()).toEqual(['IMPROVE_LOCKOUT_POLICY', 'IMPROVE_PASSWORD_HISTORY_POLICY', 'NO_DOMAIN_RESTRICTIONS', 'NO_IP_RESTRICTIONS', 'NO_SESSION_SETTINGS', 'PARTIAL_MFA_USAGE']);
    expect(state.insights.get('PARTIAL_MFA_USAGE')!.data).toEqual({ enrolled: 0, total: 1 });
    expect(state.recommendations.get('ENABLE_IDLE_SESSION')).toMatchObject({ severity: 'WARNING', category: 'SESSIONS', action: 'ADJUST_IDLE_TIMEOUT' });
    expect(state.recommendations.get('ENABLE_FORCE_RELOGIN')!.action).toBe('ADJUST_FORCE_RELOGIN');
    expect(state.recommendations.get('ENABLE_SESSION_CONCURRENCY')!.action).toBe('ADJUST_MAX_CONCURRENT_SESSIONS');
  });

  it('everything at the recommended settings with every user enrolled in MFA: 100, Fortified, no recommendation, the "full" insights', async () => {
    const clock = stepClock();
    const server = await start({}, clock);
    // The tenant's only user, with an authenticator.
    const admin = await enrolledUser(server, clock.now);
    expect((await center(server, admin)).insights.get('FULL_MFA_USAGE')!.data).toEqual({ enrolled: 1, total: 1 });
    await savePolicy(server, admin, SecurityPaths.mfaPolicy, { enforceMFAType: 'Force', allowRememberMyDevice: false, mfaDeviceExpiration: 0 });
    await savePolicy(server, admin, SecurityPaths.lockoutPolicy, lockout(5));
    await savePolicy(server, admin, SecurityPaths.passwordHistoryPolicy, history(5));
    const { id: _id, ...password } = await ok(server, admin, 'GET', SecurityPaths.passwordPolicy);
    expect((await center(server, admin)).insights.has('FULL_PASSWORD_SETTINGS')).toBe(false);
    await savePolicy(server, admin, SecurityPaths.passwordPolicy, { ...password, minLength: Math.max(password.minLength, 12) });
    await saveSessions(server, admin, { ...idle(1800), ...relogin(86_400), ...concurrent(3) });
    await saveIp(server, admin, 'ALLOW');
    await saveDomains(server, admin, 'ALLOW');
    await ok(server, admin, 'POST', SsoPaths.configurations, { type: 'saml' });

    const state = await center(server, admin);
    expect(state).toMatchObject({ score: 100, level: 'Fortified' });
    expect([...state.recommendations.keys()]).toEqual([]);
    expect([...state.insights.keys()].sort()).toEqual(['DOMAIN_ALLOWLIST', 'FULL_MFA_USAGE', 'FULL_PASSWORD_SETTINGS', 'FULL_SESSION_SETTINGS', 'IP_ALLOWLIST', 'MFA_FORCED']);
    expect(state.insights.get('IP_ALLOWLIST')!.data).toEqual({ entries: 1 });

    // A second user without MFA halves the enrolment part (20 * 1/2 = 10 points).
    await ok(server, admin, 'POST', ApiPaths.inviteUser, { email: uniqueEmail('member'), name: 'Member' });
    const two = await center(server, admin);
    expect(two.score).toBe(90);
    expect(two.insights.get('PARTIAL_MFA_USAGE')!.data).toEqual({ enrolled: 1, total: 2 });
  });

  it('reading needs fe.secure.read.securityPolicy; the breached-password reset needs fe.secure.write.securityPolicy; signed out is 401', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const plain = await memberWithoutPermissions(server, admin.tenantId);
    const reads = [SecurityPaths.securityCenterRecommendations, SecurityPaths.securityCenterInsights, SecurityPaths.securityCenterScoreHistory];
    for (const path of reads) {
      expect((await callAs(server, plain, 'GET', path, { tenantId: admin.tenantId })).status, path).toBe(403);
      expect((await call(server, 'GET', path)).status, path).toBe(401);
    }
    expect((await callAs(server, plain, 'POST', SecurityPaths.breachedPasswordResetBulk, { tenantId: admin.tenantId })).status).toBe(403);
    expect((await call(server, 'POST', SecurityPaths.breachedPasswordResetBulk)).status).toBe(401);

    await grantRoleWith(server, plain.userId, admin.tenantId, 'security-reader', [Permissions.securityPolicyRead]);
    for (const path of reads) expect((await callAs(server, plain, 'GET', path, { tenantId: admin.tenantId })).status, path).toBe(200);
    // Reading the center is not enough to email users, nor is managing users.
    expect((await callAs(server, plain, 'POST', SecurityPaths.breachedPasswordResetBulk, { tenantId: admin.tenantId })).status).toBe(403);
    const usersAdmin = await memberWithoutPermissions(server, admin.tenantId);
    await grantRoleWith(server, usersAdmin.userId, admin.tenantId, 'users-admin', [Permissions.usersRead, Permissions.usersWrite]);
    expect((await callAs(server, usersAdmin, 'POST', SecurityPaths.breachedPasswordResetBulk, { tenantId: admin.tenantId })).status).toBe(403);
    const writer = await memberWithoutPermissions(server, admin.tenantId);
    await grantRoleWith(server, writer.userId, admin.tenantId, 'security-writer', [Permissions.securityPolicyWrite]);
    expect((await callAs(server, writer, 'POST', SecurityPaths.breachedPasswordResetBulk, { tenantId: admin.tenantId })).body).toEqual({ emailed: 0 });
  });

  it('BREACHED_PASSWORDS_EXIST: counts the flagged users; the bulk reset emails each of them (only them, only this tenant) a working link, audited; once reset, the score gains the points', async () => {
    const server = await start({ BREACHED_PASSWORD_CHECK: 'false', GATEHOUSE_FLAGS: '{"breached-password":"on"}' });
    const admin = await tenantWithAdmin(server);
    const breached = await breachedMember(server, admin);
    const fine = await inviteMember(server, admin);
    const other = await tenantWithAdmin(server, 'other');
    const otherBreached = await breachedMember(server, other);

    const before = await center(server, admin);
    const recommendation = before.recommendations.get('BREACHED_PASSWORDS_EXIST')!;
    // 1 of 3 users: the part loses ceil(10 / 3) = 4 points.
    expect(recommendation).toMatchObject({ severity: 'SEVERE', category: 'PASSWORD', action: 'SEND_RESET_BREACHED_PASSWORD_EMAIL', affectedUsers: 1, points: 4 });
    expect(before.insights.get('BREACHED_PASSWORD_USERS_EXIST')!.data).toEqual({ users: 1, total: 3 });

    const sent = await as(server, admin, 'POST', SecurityPaths.breachedPasswordResetBulk);
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ emailed: 1 });
    const links = await resetLinks(server, breached.email);
    expect(links).toHaveLength(1);
    expect(links[0]!.searchParams.get('userId')).toBe(breached.userId);
    expect(await resetLinks(server, fine.email)).toEqual([]);
    expect(await resetLinks(server, otherBreached.email)).toEqual([]);
    expect(await resetLinks(server, admin.email)).toEqual([]);
    const audit = (await auditsOf(server, admin.tenantId)).find((a) => a.action === BREACHED_PASSWORD_RESET_AUDIT)!;
    expect(audit).toMatchObject({ user_id: admin.userId, severity: 'High' });
    expect(JSON.parse(audit.json!)).toEqual({ breachedUsers: 1, emailed: 1, userIds: [breached.userId] });
    expect(audit.json).not.toContain(links[0]!.searchParams.get('token')!);

    // The user follows the link and chooses a new password: no longer flagged.
    const reset = await call(server, 'POST', ApiPaths.passwordsResetVerify, { body: { userId: breached.userId, token: links[0]!.searchParams.get('token'), password: `${PASSWORD} renewed` } });
    expect(reset.status).toBe(200);
    const after = await center(server, admin);
    expect(after.recommendations.has('BREACHED_PASSWORDS_EXIST')).toBe(false);
    expect(after.insights.has('BREACHED_PASSWORD_USERS_EXIST')).toBe(false);
    expect(after.score).toBe(before.score + recommendation.points);
    // Nobody left to email.
    expect((await as(server, admin, 'POST', SecurityPaths.breachedPasswordResetBulk)).body).toEqual({ emailed: 0 });
  });

  it('the bulk reset skips disabled users, and an address past its share of reset emails (the per-address limit of "Forgot password?")', async () => {
    const server = await start({ BREACHED_PASSWORD_CHECK: 'false', GATEHOUSE_FLAGS: '{"breached-password":"on"}', RATE_LIMIT_PASSWORD_RESET_PER_IDENTIFIER: '2/3600' });
    const admin = await tenantWithAdmin(server);
    const first = await breachedMember(server, admin);
    const second = await breachedMember(server, admin);
    expect((await as(server, admin, 'POST', pathOf(AdminPaths.tenantUserDisable, { userId: second.userId }))).status).toBe(200);
    const send = async () => (await as(server, admin, 'POST', SecurityPaths.breachedPasswordResetBulk)).body;
    expect(await send()).toEqual({ emailed: 1 });
    expect(await resetLinks(server, second.email)).toEqual([]);
    // "Forgot password?" takes the address's second email; the bulk reset then sends no third.
    expect((await call(server, 'POST', ApiPaths.passwordsReset, { body: { email: first.email } })).status).toBe(200);
    await server.recovery.idle();
    expect(await resetLinks(server, first.email)).toHaveLength(2);
    expect(await send()).toEqual({ emailed: 0 });
    expect(await resetLinks(server, first.email)).toHaveLength(2);
    const audits = (await auditsOf(server, admin.tenantId)).filter((a) => a.action === BREACHED_PASSWORD_RESET_AUDIT);
    expect(audits.map((a) => JSON.parse(a.json!).emailed)).toEqual([0, 1]);
  });

  it('score history: one point per UTC day, updated when the score changes that day, oldest first, kept 90 days', async () => {
    const clock = movableClock(Date.UTC(2026, 0, 10, 12));
    const server = await start({}, clock);
    const admin = await tenantWithAdmin(server);
    const pointsOf = async (who: Who) => (await ok(server, who, 'GET', SecurityPaths.securityCenterScoreHistory)).points as { day: string; score: number }[];

    const first = (await center(server, admin)).score;
    expect(await pointsOf(admin)).toEqual([{ day: '2026-01-10', score: first }]);
    // Later the same day: the day's point follows the score.
    await savePolicy(server, admin, SecurityPaths.lockoutPolicy, lockout(5));
    expect(await pointsOf(admin)).toEqual([{ day: '2026-01-10', score: first + 10 }]);

    clock.advance(DAY);
    // The access token of yesterday has expired: sign in again.
    const signedIn = async () => ({ accessToken: (await signIn(server, admin.email)).body.accessToken as string });
    const today = await signedIn();
    await savePolicy(server, today, SecurityPaths.passwordHistoryPolicy, history(5));
    expect(await pointsOf(today)).toEqual([{ day: '2026-01-10', score: first + 10 }, { day: '2026-01-11', score: first + 20 }]);

    // 90 days after the first: the first day falls out (the window is today and the 89 days before).
    clock.set(Date.UTC(2026, 0, 10, 12) + 90 * DAY);
    const again = await signedIn();
    expect(await pointsOf(again)).toEqual([{ day: '2026-01-11', score: first + 20 }, { day: '2026-04-10', score: first + 20 }]);
    const rows = await server.db.selectFrom('security_score_history').select('day').where('tenant_id', '=', admin.tenantId).orderBy('day').execute();
    expect(rows.map((r) => r.day)).toEqual(['2026-01-11', '2026-04-10']);
    // Another tenant's history is its own.
    const other = await tenantWithAdmin(server, 'other');
    expect((await pointsOf(other)).map((p) => p.day)).toEqual(['2026-04-10']);
  });
});
