import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../api/client';
import { ApiPaths } from '../wire/paths';
import { AdminPaths } from '../wire/admin/paths';
import { AuditPaths } from '../wire/admin/audit-paths';
import { SecurityPaths } from '../wire/security/paths';
import { BillingPaths } from '../wire/billing/paths';
import { LoginResponse } from '../wire/auth/auth';
import { MeResponse } from '../wire/users/users';
import { UsersPage } from '../wire/admin/users';
import { TeamRolesResponse } from '../wire/admin/roles';
import { AuditsResponse } from '../wire/admin/audits';
import { InsightsResponse, RecommendationsResponse, ScoreHistoryResponse } from '../wire/security/security-center';
import { PlansResponse } from '../wire/billing/billing';
import { LockoutPolicy, MfaPolicy, PasswordPolicy, PasswordRotation, PolicyDryRun, SessionsPolicy, UserEmailsPolicy } from '../wire/security/policies';
import { SignUpResponse } from '../wire/users/signup';
import { PasswordRecoveryStrategiesResponse } from '../wire/recovery/recovery';
import { isGatehouseError } from '../errors';
import { CaptchaPolicyResponse } from '../wire/platform/captcha';
import { SSO_PRELOGIN_PATH } from '../wire/sso/prelogin-path';
import { createPreviewFetch } from './preview-api';
import { PREVIEW_FORCED_FLAGS } from './sample-data';

const BASE = 'https://auth.example.test/api';

function setup(options: { signedIn?: boolean } = {}) {
  const waits: number[] = [];
  const fetch = createPreviewFetch({ baseUrl: BASE, signedIn: options.signedIn, now: () => Date.UTC(2026, 1, 20, 15), sleep: async (ms) => void waits.push(ms) });
  const api = createApiClient({ baseUrl: BASE, clientId: 'preview', getAccessToken: () => 'preview-access-token', fetch, retry: { attempts: 1 } });
  return { api, fetch, waits };
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (!isGatehouseError(error)) throw new Error(`expected a GatehouseError, got ${String(error)}`);
  return error;
}

afterEach(() => vi.restoreAllMocks());

describe('preview API', () => {
  it('answers every call without the network: the real fetch is never called, not even for an unknown path or another origin', async () => {
    const network = vi.spyOn(globalThis, 'fetch');
    const { api, fetch } = setup();
    await api.me();
    expect((await failure(api.request('GET', '/no/such/call'))).message).toBe('GET /no/such/call is not available in preview mode');
    expect((await fetch('https://elsewhere.example/flags')).status).toBe(404);
    expect(network).not.toHaveBeenCalled();
  });

  it("waits the seed's simulated delays: 200 ms for a read, 500 ms for a write", async () => {
    const { api, waits } = setup();
    await api.me();
    await api.request('POST', AuditPaths.exportCsv, { body: {}, responseType: 'text' });
    expect(waits).toEqual([200, 500]);
  });

  it('lists 10 sample users over 2 pages', async () => {
    const { api } = setup();
    const first = UsersPage.parse(await api.request('GET', AdminPaths.teamMembers, { query: { pageOffset: 0, pageSize: 20 } }));
    const second = UsersPage.parse(await api.request('GET', AdminPaths.teamMembers, { query: { pageOffset: 1, pageSize: 20 } }));
    expect(first._metadata).toEqual({ totalItems: 10, totalPages: 2 });
    expect(first.items).toHaveLength(5);
    expect(second.items).toHaveLength(5);
    expect(new Set([...first.items, ...second.items].map((u) => u.id)).size).toBe(10);
  });

  it('offers the roles Admin, ReadOnly and Support', async () => {
    const { api } = setup();
    const { roles } = TeamRolesResponse.parse(await api.request('GET', AdminPaths.teamRoles));
    expect(roles.map((r) => r.name)).toEqual(['Admin', 'ReadOnly', 'Support']);
    expect(roles.reduce((sum, r) => sum + r.userCount, 0)).toBe(10);
  });

  it('signs in any address with a password of 6 to 128 characters, and refuses one outside those limits', async () => {
    const { api } = setup({ signedIn: false });
    expect((await failure(api.me())).statusCode).toBe(401);
    const short = await failure(api.login({ email: 'visitor@example.com', password: '12345' }));
    expect([short.statusCode, short.message]).toEqual([400, 'The password must be 6 to 128 characters long']);
    expect((await failure(api.login({ email: 'visitor@example.com', password: 'x'.repeat(129) }))).statusCode).toBe(400);
    expect(CaptchaPolicyResponse.parse(await api.request('GET', ApiPaths.captchaPolicyPublic)).enabled).toBe(false);
    expect(await api.request('POST', SSO_PRELOGIN_PATH, { body: { email: 'visitor@example.com' } })).toEqual({ address: null, type: null });
    LoginResponse.parse(await api.login({ email: 'visitor@example.com', password: '123456' }));
    expect(MeResponse.parse(await api.me()).roles.map((r) => r.key)).toEqual(['Admin']);
    await api.logout();
    expect((await failure(api.refresh())).statusCode).toBe(401);
  });

  it("keeps a visitor's change for the page's life and writes it to the sample audit log", async () => {
    const { api } = setup();
    const before = AuditsResponse.parse(await api.request('GET', AuditPaths.audits, { query: { offset: 0, count: 20 } }));
    await api.request('DELETE', AdminPaths.teamMember.replace('{userId}', 'preview-user-2'));
    const page = UsersPage.parse(await api.request('GET', AdminPaths.teamMembers, { query: { pageOffset: 0 } }));
    expect(page._metadata.totalItems).toBe(9);
    const after = AuditsResponse.parse(await api.request('GET', AuditPaths.audits, { query: { offset: 0, count: 20 } }));
    expect(after.total).toBe(before.total + 1);
    expect(after.data[0]).toMatchObject({ action: 'User removed', description: 'ben@preview.example was removed' });
    // A fresh preview starts from the sample data again.
    expect(UsersPage.parse(await setup().api.request('GET', AdminPaths.teamMembers))._metadata.totalItems).toBe(10);
  });

  it('forces on the flags of seed 000 section 6 and serves the security center and the plans Premium and Free', async () => {
    const { api } = setup();
    expect(await api.request('GET', ApiPaths.flags)).toEqual(PREVIEW_FORCED_FLAGS);
    expect(Object.keys(PREVIEW_FORCED_FLAGS)).toEqual(expect.arrayContaining(['admin-portal-ip-restrictions', 'admin-portal-domain-restrictions', 'admin-portal-temporary-users']));
    expect(RecommendationsResponse.parse(await api.request('GET', SecurityPaths.securityCenterRecommendations)).score).toBeGreaterThan(0);
    InsightsResponse.parse(await api.request('GET', SecurityPaths.securityCenterInsights));
    expect(ScoreHistoryResponse.parse(await api.request('GET', SecurityPaths.securityCenterScoreHistory)).points).toHaveLength(30);
    const plans = PlansResponse.parse(await api.request('GET', BillingPaths.plans));
    expect(plans.map((p) => [p.name, p.price.amount])).toEqual([['Free', 0], ['Premium', 10000]]);
  });

  it('locks, unlocks, disables and enables a user, each audited', async () => {
    const { api } = setup();
    const ben = async () => UsersPage.parse(await api.request('GET', AdminPaths.teamMembers, { query: { filter: 'ben' } })).items[0]!;
    await api.request('POST', AdminPaths.tenantUserLock.replace('{userId}', 'preview-user-2'));
    await api.request('POST', AdminPaths.tenantUserDisable.replace('{userId}', 'preview-user-2'));
    expect([(await ben()).isLocked, (await ben()).isDisabled]).toEqual([true, true]);
    await api.request('POST', AdminPaths.tenantUserUnlock.replace('{userId}', 'preview-user-2'));
    await api.request('POST', AdminPaths.tenantUserEnable.replace('{userId}', 'preview-user-2'));
    expect([(await ben()).isLocked, (await ben()).isDisabled]).toEqual([false, false]);
    const { data } = AuditsResponse.parse(await api.request('GET', AuditPaths.audits));
    expect(data.slice(0, 4).map((a) => a.description)).toEqual(['ben@preview.example was enabled', 'ben@preview.example was unlocked', 'ben@preview.example was disabled', 'ben@preview.example was locked']);
    expect((await failure(api.request('POST', AdminPaths.tenantUserLock.replace('{userId}', 'nobody')))).statusCode).toBe(404);
  });

  it('answers a body that is not JSON with a 400, and an invitation without an address with a 400 naming the field', async () => {
    const { api, fetch } = setup();
    expect((await fetch(BASE + ApiPaths.login, { method: 'POST', body: '{oops' })).status).toBe(400);
    const error = await failure(api.request('POST', ApiPaths.inviteUser, { body: { name: 'No Address' } }));
    expect([error.statusCode, error.message]).toEqual([400, 'email must be an email address']);
  });

  it('reads the security policies and simulates saving one, audited', async () => {
    const { api } = setup();
    expect(LockoutPolicy.parse(await api.request('GET', SecurityPaths.lockoutPolicy))).toEqual({ enabled: true, maxAttempts: 5 });
    MfaPolicy.parse(await api.request('GET', SecurityPaths.mfaPolicy));
    SessionsPolicy.parse(await api.request('GET', SecurityPaths.sessionsPolicy));
    await api.request('PATCH', SecurityPaths.lockoutPolicy, { body: { maxAttempts: 3, unknown: true } });
    expect(await api.request('GET', SecurityPaths.lockoutPolicy)).toEqual({ enabled: true, maxAttempts: 3 });
    const { data } = AuditsResponse.parse(await api.request('GET', AuditPaths.audits));
    expect(data[0]).toMatchObject({ action: 'Security policy updated', description: 'The lockout policy was changed: {"enabled":true,"maxAttempts":5} -> {"enabled":true,"maxAttempts":3}' });
  });

  it("answers a policy's dry run with what would be saved, and saves nothing", async () => {
    const { api } = setup();
    const before = AuditsResponse.parse(await api.request('GET', AuditPaths.audits)).total;
    const dryRun = PolicyDryRun.parse(await api.request('POST', SecurityPaths.passwordPolicy, { body: { minLength: 10 }, query: { dryRun: 'true' } }));
    expect(dryRun).toMatchObject({ dryRun: true, policy: { minLength: 10 }, effects: [] });
    expect(PasswordPolicy.parse(await api.request('GET', SecurityPaths.passwordPolicy)).minLength).toBe(6);
    expect(AuditsResponse.parse(await api.request('GET', AuditPaths.audits)).total).toBe(before);
  });

  it('reads and saves the password policy, password rotation and user emails policy; a value of the wrong shape is not taken', async () => {
    const { api } = setup();
    PasswordRotation.parse(await api.request('GET', SecurityPaths.passwordRotation));
    UserEmailsPolicy.parse(await api.request('GET', SecurityPaths.userEmailsPolicy));
    await api.request('POST', SecurityPaths.passwordPolicy, { body: { minLength: 12, minOptionalTestsToPass: '4' } });
    expect(PasswordPolicy.parse(await api.request('GET', SecurityPaths.passwordPolicy))).toMatchObject({ minLength: 12, minOptionalTestsToPass: 0 });
    await api.request('POST', SecurityPaths.sessionsPolicy, { body: { sessionIdleTimeoutConfiguration: { isActive: true }, sessionTimeoutConfiguration: { isActive: false, timeout: 7200 } } });
    expect(SessionsPolicy.parse(await api.request('GET', SecurityPaths.sessionsPolicy))).toMatchObject({
      sessionIdleTimeoutConfiguration: { isActive: false, timeout: 3600 },
      sessionTimeoutConfiguration: { isActive: false, timeout: 7200 },
    });
  });

  it('signs up a simulated account and signs it in at once, audited; a taken address is refused', async () => {
    const { api } = setup({ signedIn: false });
    const answer = SignUpResponse.parse(await api.signUp({ email: 'New.Visitor@Example.com', password: '123456', name: 'New Visitor', companyName: 'Visitor Co' }));
    expect(answer).toMatchObject({ shouldActivate: false, tenantId: 'preview-tenant', authResponse: { userId: answer.userId } });
    const me = MeResponse.parse(await api.me());
    expect([me.id, me.email, me.name, me.roles.map((r) => r.key)]).toEqual([answer.userId, 'new.visitor@example.com', 'New Visitor', ['Admin']]);
    const page = UsersPage.parse(await api.request('GET', AdminPaths.teamMembers, { query: { filter: 'new visitor' } }));
    expect(page.items.map((u) => u.email)).toEqual(['new.visitor@example.com']);
    const { data } = AuditsResponse.parse(await api.request('GET', AuditPaths.audits));
    expect(data[0]).toMatchObject({ action: 'User signed up', email: 'new.visitor@example.com' });
    expect((await failure(api.signUp({ email: 'ben@preview.example', password: '123456' }))).statusCode).toBe(409);
    const short = await failure(api.signUp({ email: 'other@example.com', password: '12345' }));
    expect([short.statusCode, short.message]).toEqual([400, 'The password must be 6 to 128 characters long']);
  });

  it('simulates "forgot password": the email channel only, "sent" without an email, and a missing address refused', async () => {
    const { api } = setup({ signedIn: false });
    const { strategies } = PasswordRecoveryStrategiesResponse.parse(await api.request('GET', ApiPaths.passwordRecoveryStrategies));
    expect(strategies.filter((s) => s.isActive).map((s) => s.strategy)).toEqual(['email']);
    await api.request('POST', ApiPaths.passwordsResetEmailV2, { body: { identifier: 'visitor@example.com', identifierType: 'email' } });
    const missing = await failure(api.request('POST', ApiPaths.passwordsResetEmailV2, { body: { identifier: ' ' } }));
    expect([missing.statusCode, missing.message]).toEqual([400, 'identifier is required']);
  });
});
