import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminPaths, SecurityPaths } from '@gatehouse/shared/admin-paths';
import type { InsightsResponse, RecommendationsResponse, TenantUser } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import SecurityCenterSection from './security-center';
import { sparklinePoints } from './security-center/score-history';

const RECOMMENDATIONS: RecommendationsResponse = {
  score: 62,
  level: 'Good',
  recommendations: [
    { code: 'BREACHED_PASSWORDS_EXIST', severity: 'SEVERE', category: 'PASSWORD', description: '3 users have a breached password.', points: 10, action: 'SEND_RESET_BREACHED_PASSWORD_EMAIL', affectedUsers: 3 },
    { code: 'ENABLE_IDLE_SESSION', severity: 'WARNING', category: 'SESSIONS', description: 'Sessions never time out when idle.', points: 5, action: 'ADJUST_IDLE_TIMEOUT' },
    { code: 'CONFIGURE_SSO', severity: 'INFO', category: 'SSO', description: 'No identity provider is set up.', points: 0 },
  ],
};
const INSIGHTS: InsightsResponse = {
  insights: [
    { code: 'PARTIAL_MFA_USAGE', category: 'MFA', description: '12 of 52 users use MFA.', data: { enrolled: 12, total: 52 } },
    { code: 'NO_IP_RESTRICTIONS', category: 'IP', description: 'No IP restrictions are set.' },
    { code: 'NO_SESSION_SETTINGS', category: 'SESSIONS', description: 'No session limits are set.' },
  ],
};
const HISTORY = { points: [{ day: '2026-11-24', score: 40 }, { day: '2026-11-25', score: 55 }, { day: '2026-11-26', score: 62 }] };

function tenantUser(n: number, overrides: Partial<TenantUser> = {}): TenantUser {
  return {
    id: `u-${n}`, email: `user${n}@example.com`, name: `User ${n}`, phoneNumber: null, profilePictureUrl: null, tenantId: 'tenant-1', roleIds: [], roles: [], groups: [], verified: true,
    isLocked: false, isDisabled: false, invitationPending: false, temporaryExpirationDate: null, mfaEnrolled: false, isBreachedPassword: false, provider: 'local', managedBy: 'frontegg',
    superUser: false, createdAt: '2026-01-01T00:00:00.000Z', joinedAt: '2026-01-01T00:00:00.000Z', lastSeen: null, ...overrides,
  };
}

interface Call { method: string; path: string; query?: Record<string, unknown> }

function centerApi({ failing = [] as string[] } = {}) {
  const calls: Call[] = [];
  const down = new Set(failing);
  const api = {
    async request(method: string, path: string, options: { query?: Record<string, unknown> } = {}) {
      calls.push({ method, path, ...(options.query ? { query: options.query } : {}) });
      if (down.has(path)) throw Object.assign(new Error('The security center is unavailable'), { statusCode: 500 });
      if (path === SecurityPaths.securityCenterRecommendations) return RECOMMENDATIONS;
      if (path === SecurityPaths.securityCenterInsights) return INSIGHTS;
      if (path === SecurityPaths.securityCenterScoreHistory) return HISTORY;
      if (path === SecurityPaths.breachedPasswordResetBulk) return { emailed: 3 };
      if (path === AdminPaths.teamMembers) {
        const preset = options.query?.preset;
        const count = preset === 'breached-passwords' ? 3 : preset === 'inactive' ? 12 : 0;
        const page = Number(options.query?.pageOffset ?? 0);
        const items = Array.from({ length: count }, (_, i) => tenantUser(i + 1)).slice(page * 10, page * 10 + 10);
        return { items, _metadata: { totalItems: count, totalPages: Math.ceil(count / 10) } };
      }
      if (path === SecurityPaths.mfaPolicy) return { enforceMFAType: 'Force', allowRememberMyDevice: true, mfaDeviceExpiration: 1_209_600 };
      if (path === SecurityPaths.lockoutPolicy) return { enabled: true, maxAttempts: 5 };
      if (path === SecurityPaths.captchaPolicy) return { enabled: false, minScore: 0.5 };
      if (path === SecurityPaths.passwordHistoryPolicy) throw Object.assign(new Error('Forbidden'), { statusCode: 403 });
      if (path === SecurityPaths.sessionsPolicy) {
        return { sessionIdleTimeoutConfiguration: { isActive: true, timeout: 1800 }, sessionTimeoutConfiguration: { isActive: false, timeout: 86_400 }, sessionConcurrentConfiguration: { isActive: true, maxSessions: 3 } };
      }
      throw new Error(`unexpected ${method} ${path}`);
    },
  } as unknown as GatehouseApi;
  return { api, calls, down };
}

const ALL = ['fe.secure.read.securityPolicy', 'fe.secure.write.securityPolicy', 'fe.secure.read.users'];

function openCenter(api: GatehouseApi, { permissions = ALL, flags = {} as Record<string, string>, adminPortal }: { permissions?: string[]; flags?: Record<string, string>; adminPortal?: Record<string, unknown> } = {}) {
  const { domElement } = shadowMountPoint();
  const user = makeUser({ permissions: permissions.map((key, i) => ({ id: `p${i}`, key, name: key })) });
  const store = createTestStore(user);
  const opened: [string, string | undefined][] = [];
  render(
    <SecurityCenterSection title="Security center" headingId="sc-heading" user={user} snapshot={store.getSnapshot()} store={store} api={api}
      options={{ ...readAdminPortalOptions(adminPortal), flags }} openSection={(section, target) => opened.push([section, target])} />,
    { container: domElement },
  );
  return { view: within(domElement), opened };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('security center', () => {
  it('shows the score as a meter with its level, the 90-day history with a text alternative, recommendations and insights by category', async () => {
    const { view } = openCenter(centerApi().api);
    const meter = await view.findByRole('meter', { name: 'Security score' });
    expect(meter.getAttribute('aria-valuenow')).toBe('62');
    expect(meter.getAttribute('aria-valuetext')).toBe('62 of 100, Good');
    const chart = await view.findByRole('img');
    expect(chart.getAttribute('aria-labelledby')).toBeTruthy();
    expect(view.getByText('Over 3 days the score went from 40 (2026-11-24) to 62 (2026-11-26); lowest 40, highest 62.')).toBeTruthy();
    expect(chart.querySelector('polyline')?.getAttribute('points')).toBe(sparklinePoints(HISTORY.points));
    const recommendations = view.getAllByRole('heading', { level: 4 }).map((h) => h.textContent);
    expect(recommendations.slice(0, 3)).toEqual(['Reset breached passwords', 'Turn on the idle timeout', 'Set up single sign-on']);
    expect(view.getByText('3 users have a breached password.')).toBeTruthy();
    expect(view.getByText('+10 points')).toBeTruthy();
    // Insights come grouped in the contract's category order: MFA, SESSIONS, IP.
    const groups = await view.findAllByRole('region', { name: /^(MFA|Sessions|IP addresses)$/ });
    expect(groups.map((g) => g.getAttribute('aria-label'))).toEqual(['MFA', 'Sessions', 'IP addresses']);
    expect(within(groups[0]!).getByText('Some users use MFA')).toBeTruthy();
  });

  it('lists breached-password, MFA-unenrolled and inactive users 10 a page from the users list with _preset', async () => {
    const { api, calls } = centerApi();
    const { view } = openCenter(api);
    const inactive = await view.findByRole('region', { name: /Inactive for 90 days/ });
    await within(inactive).findByRole('rowheader', { name: 'User 10' });
    expect(within(inactive).getAllByRole('row')).toHaveLength(11);
    fireEvent.click(within(inactive).getByRole('button', { name: 'Next' }));
    await within(inactive).findByRole('rowheader', { name: 'User 11' });
    expect(within(await view.findByRole('region', { name: /Not enrolled in MFA/ })).getByText('Every user is enrolled in MFA.')).toBeTruthy();
    const queries = calls.filter((c) => c.path === AdminPaths.teamMembers).map((c) => [c.query?.preset, c.query?.pageOffset, c.query?.pageSize]);
    expect(queries).toEqual(expect.arrayContaining([['breached-passwords', 0, 10], ['mfa-unenrolled', 0, 10], ['inactive', 0, 10], ['inactive', 1, 10]]));
  });

  it('emails a reset to users with breached passwords only after confirming, and tells how many were emailed', async () => {
    const { api, calls } = centerApi();
    const reported: boolean[] = [];
    const { view } = openCenter(api, { adminPortal: { callbacks: { securityCenter: (ok: boolean) => reported.push(ok) } } });
    fireEvent.click(await view.findByRole('button', { name: 'Email a password reset' }));
    let dialog = await view.findByRole('dialog', { name: 'Email a password reset?' });
    expect(dialog.textContent).toContain('3 users with a breached password will get an email');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(view.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    fireEvent.click(view.getByRole('button', { name: 'Email a password reset' }));
    dialog = await view.findByRole('dialog', { name: 'Email a password reset?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send emails' }));
    expect(await view.findByText('Reset emails sent to 3 users')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([SecurityPaths.breachedPasswordResetBulk]);
    expect(reported).toEqual([true]);
  });

  it('keeps the reset dialog open with the server’s message when the reset fails, and reports false to the host', async () => {
    const { api, down } = centerApi();
    down.add(SecurityPaths.breachedPasswordResetBulk);
    const reported: boolean[] = [];
    const { view } = openCenter(api, { adminPortal: { callbacks: { securityCenter: (ok: boolean) => reported.push(ok) } } });
    fireEvent.click(await view.findByRole('button', { name: 'Email a password reset' }));
    const dialog = await view.findByRole('dialog', { name: 'Email a password reset?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send emails' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The security center is unavailable');
    expect(reported).toEqual([false]);
  });

  it('opens the Security section at the idle timeout for ADJUST_IDLE_TIMEOUT, and at its start from "Open security settings"', async () => {
    const { view, opened } = openCenter(centerApi().api);
    fireEvent.click(await view.findByRole('button', { name: 'Adjust idle timeout' }));
    fireEvent.click(view.getByRole('button', { name: 'Open security settings' }));
    expect(opened).toEqual([['security', 'sessionManagement:idleTimeout'], ['security', undefined]]);
  });

  it('without the write permission offers no reset, and without users read shows no user tables', async () => {
    const { api, calls } = centerApi();
    const { view } = openCenter(api, { permissions: ['fe.secure.read.securityPolicy'] });
    await view.findByRole('meter');
    expect(view.queryByRole('button', { name: 'Email a password reset' })).toBeNull();
    expect(view.getByText('Listing users needs the permission to read users.')).toBeTruthy();
    expect(calls.some((c) => c.path === AdminPaths.teamMembers)).toBe(false);
  });

  it('major version 1 is the compact page: score and recommendations, no history, insights or tables fetched', async () => {
    const { api, calls } = centerApi();
    const { view } = openCenter(api, { flags: { 'security-center-admin-portal-major-version': '1' } });
    await view.findByRole('meter');
    await view.findByText('Reset breached passwords');
    expect(view.queryByText('Score over the last 90 days')).toBeNull();
    expect(view.queryByText('Insights')).toBeNull();
    expect(view.queryByText('Users who need attention')).toBeNull();
    expect(calls.map((c) => c.path)).toEqual([SecurityPaths.securityCenterRecommendations]);
  });

  it('shows the sign-in protection panel only with security-center-show-login-flows on, from the policies in effect', async () => {
    const off = centerApi();
    const closed = openCenter(off.api);
    await closed.view.findByRole('meter');
    expect(closed.view.queryByText('Sign-in protection')).toBeNull();
    expect(off.calls.some((c) => c.path === SecurityPaths.mfaPolicy)).toBe(false);
    document.body.innerHTML = '';

    const { view } = openCenter(centerApi().api, { flags: { 'security-center-show-login-flows': 'on' } });
    const panel = await view.findByRole('region', { name: 'Sign-in protection' });
    await within(panel).findByText('Required for everyone');
    const pairs = [...panel.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);
    // The unreadable password-history policy is left out; the rest are in words.
    expect(pairs).toEqual([
      ['Multi-factor authentication', 'Required for everyone'],
      ['Lockout', 'After 5 failed attempts'],
      ['Captcha', 'Off'],
      ['Idle timeout', '30 minutes'],
      ['Forced re-login', 'Off'],
      ['Concurrent sessions', 'At most 3'],
    ]);
  });

  it('takes the keyboard at its heading when focus was lost (opened from another section), and leaves focus alone otherwise', async () => {
    const first = openCenter(centerApi().api);
    const heading = await first.view.findByRole('heading', { name: 'Security center', level: 2 });
    expect((heading.getRootNode() as ShadowRoot).activeElement).toBe(heading);
    document.body.innerHTML = '';

    const outside = document.createElement('button');
    document.body.append(outside);
    outside.focus();
    const second = openCenter(centerApi().api);
    await second.view.findByRole('heading', { name: 'Security center', level: 2 });
    expect(document.activeElement).toBe(outside);
  });

  it('shows a failed load with a retry that loads again', async () => {
    const { api, down } = centerApi({ failing: [SecurityPaths.securityCenterRecommendations] });
    const { view } = openCenter(api, { flags: { 'security-center-admin-portal-major-version': '1' } });
    expect(await view.findByText('The security center is unavailable')).toBeTruthy();
    down.clear();
    fireEvent.click(view.getByRole('button', { name: 'Try again' }));
    expect((await view.findByRole('meter')).getAttribute('aria-valuenow')).toBe('62');
  });
});
