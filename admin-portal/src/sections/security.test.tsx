import { act, fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SecurityPaths } from '@gatehouse/shared/admin-paths';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import { policyApi } from '../test/security-api';
import SecuritySection from './security';

const SESSIONS = {
  sessionIdleTimeoutConfiguration: { isActive: true, timeout: 900 },
  sessionTimeoutConfiguration: { isActive: false, timeout: 86_400 },
  sessionConcurrentConfiguration: { isActive: false, maxSessions: 3 },
};
const LOCKOUT = { enabled: true, maxAttempts: 5 };

function openSecurity(api: GatehouseApi, { permissions = ['fe.secure.read.securityPolicy', 'fe.secure.write.securityPolicy'], adminPortal, target }: { permissions?: string[]; adminPortal?: unknown; target?: string } = {}) {
  const { domElement, root } = shadowMountPoint();
  const user = makeUser({ permissions: permissions.map((key, i) => ({ id: `p${i}`, key, name: key })) });
  const store = createTestStore(user);
  const opened: string[] = [];
  const props = { title: 'Security', headingId: 'security-heading', user, snapshot: store.getSnapshot(), store, api, options: readAdminPortalOptions(adminPortal), openSection: (section: string) => opened.push(section) };
  const { rerender } = render(<SecuritySection {...props} {...(target ? { target } : {})} />, { container: domElement });
  return { view: within(domElement), root, opened, retarget: (next: string) => rerender(<SecuritySection {...props} target={next} />) };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('security section', () => {
  it('has the four tabs of seed 001 in order, opens on sessionManagement, and loads a tab only when it is shown', async () => {
    const { api, calls } = policyApi({ [SecurityPaths.sessionsPolicy]: SESSIONS, [SecurityPaths.lockoutPolicy]: LOCKOUT });
    const { view } = openSecurity(api);
    const tabs = within(view.getByRole('tablist', { name: 'Security settings' })).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Session management', 'General settings', 'IP restrictions', 'Domain restrictions']);
    expect(tabs[0]!.getAttribute('aria-selected')).toBe('true');
    expect(await view.findByLabelText('Idle for')).toBeTruthy();
    expect(calls.map((c) => c.path)).toEqual([SecurityPaths.sessionsPolicy]);
    fireEvent.click(tabs[1]!);
    expect(await view.findByLabelText('Failed attempts before lockout')).toBeTruthy();
    // The first tab stays mounted: its unsaved edits survive a visit to another tab.
    expect(view.getByLabelText('Idle for', { selector: 'input' })).toBeTruthy();
  });

  it('opens at a target’s tab and setting, and again when opened at another (the security center’s ADJUST_* actions)', async () => {
    const { api } = policyApi({ [SecurityPaths.sessionsPolicy]: SESSIONS, [SecurityPaths.lockoutPolicy]: LOCKOUT });
    const { view, root, retarget } = openSecurity(api, { target: 'sessionManagement:forceRelogin' });
    const relogin = await view.findByRole('switch', { name: 'Make users sign in again' });
    await waitFor(() => expect(root.activeElement).toBe(relogin));
    act(() => retarget('sessionManagement:idleTimeout'));
    const idle = view.getByRole('switch', { name: 'Sign out idle sessions' });
    await waitFor(() => expect(root.activeElement).toBe(idle));
    // Moving between tabs afterwards keeps focus on the tab row (the target does not take it again).
    const sessionsTab = view.getByRole('tab', { name: 'Session management' });
    act(() => sessionsTab.focus());
    fireEvent.keyDown(sessionsTab, { key: 'ArrowRight' });
    fireEvent.keyDown(view.getByRole('tab', { name: 'General settings' }), { key: 'ArrowLeft' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(root.activeElement).toBe(sessionsTab);
    act(() => retarget('generalSettings:lockout.maxAttempts'));
    expect(view.getByRole('tab', { name: 'General settings' }).getAttribute('aria-selected')).toBe('true');
    const attempts = await view.findByLabelText('Failed attempts before lockout');
    await waitFor(() => expect(root.activeElement).toBe(attempts));
  });

  it('reports each save to the host’s callbacks.security: false when the server refuses it', async () => {
    const outcomes: boolean[] = [];
    const { api } = policyApi({ [SecurityPaths.sessionsPolicy]: SESSIONS }, { failures: [{ method: 'POST', path: SecurityPaths.sessionsPolicy, error: { message: 'Not allowed', statusCode: 403 } }] });
    const { view } = openSecurity(api, { adminPortal: { callbacks: { security: (ok: boolean) => outcomes.push(ok) } } });
    fireEvent.change(await view.findByLabelText('Idle for'), { target: { value: '20' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    expect((await view.findByRole('alert')).textContent).toBe('Not allowed');
    expect(outcomes).toEqual([false]);
  });

  it('opens the security center from the section', () => {
    const { api } = policyApi({ [SecurityPaths.sessionsPolicy]: SESSIONS });
    const { view, opened } = openSecurity(api);
    fireEvent.click(view.getByRole('button', { name: 'Open security center' }));
    expect(opened).toEqual(['securityCenter']);
  });

  it('tells readers they can only view, and shows no Save', async () => {
    const { api } = policyApi({ [SecurityPaths.sessionsPolicy]: SESSIONS });
    const { view } = openSecurity(api, { permissions: ['fe.secure.read.securityPolicy'] });
    expect(view.getByText(/You can view these settings/)).toBeTruthy();
    expect(((await view.findByLabelText('Idle for')) as HTMLInputElement).readOnly).toBe(true);
    expect(view.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('hides a tab, or makes it view-only, as the host’s fieldVisibility.security says', async () => {
    const { api } = policyApi({ [SecurityPaths.sessionsPolicy]: SESSIONS });
    const { view } = openSecurity(api, { adminPortal: { fieldVisibility: { security: { ipRestrictions: 'hidden', domainRestrictions: 'hidden', sessionManagement: 'viewOnly' } } } });
    expect(within(view.getByRole('tablist')).getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Session management', 'General settings']);
    expect(((await view.findByLabelText('Idle for')) as HTMLInputElement).readOnly).toBe(true);
    expect(view.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
