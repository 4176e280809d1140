import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MfaStatusResponse, PasskeyDevice, UserSession } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import PrivacySection from './privacy';

const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const FIREFOX_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

const SESSIONS: UserSession[] = [
  { id: 's-current', userAgent: CHROME_MAC, createdAt: '2026-03-12T14:05:00.000Z', ipAddress: '203.0.113.7', current: true, lastActiveAt: '2026-03-12T15:00:00.000Z', device: { browser: 'Chrome', browserVersion: '126', os: 'macOS', type: 'desktop' } },
  { id: 's-firefox', userAgent: FIREFOX_WIN, createdAt: '2026-03-10T09:00:00.000Z', ipAddress: '198.51.100.4', current: false, lastActiveAt: '2026-03-11T08:30:00.000Z', device: { browser: 'Firefox', browserVersion: '128', os: 'Windows', type: 'desktop' } },
  { id: 's-iphone', userAgent: SAFARI_IPHONE, createdAt: '2026-03-01T09:00:00.000Z', ipAddress: null, current: false, lastActiveAt: '2026-03-01T09:00:00.000Z', device: { browser: 'Safari', browserVersion: '17', os: 'iOS', type: 'mobile' } },
];

const MFA: MfaStatusResponse = {
  enrolled: true,
  enforce: 'optional',
  recoveryCodesLeft: 8,
  devices: {
    authenticators: [{ id: 'd-app', createdAt: '2026-01-02T00:00:00.000Z' }],
    phones: [{ id: 'd-phone', phoneNumber: '+44 ••• ••• 0000', createdAt: '2026-01-03T00:00:00.000Z' }],
    webauthn: [],
    emails: [],
  },
};
const PASSKEY: PasskeyDevice = { id: 'pk-1', name: 'Work laptop', deviceType: 'multiDevice', backedUp: true, transports: ['internal'], createdAt: '2026-02-01T00:00:00.000Z', lastUsedAt: null };

interface Call { method: string; path: string; body?: unknown }
type Failure = { method: string; path: string; error: { message: string; statusCode: number; errorCode?: string } };

/** The API boundary: records every call, answers like the server (a revoked session leaves the list), fails the calls it is told to. */
function fakeApi(failures: Failure[] = [], data: { sessions?: UserSession[]; mfa?: MfaStatusResponse; passkeys?: PasskeyDevice[] } = {}) {
  const calls: Call[] = [];
  let sessions = [...(data.sessions ?? SESSIONS)];
  const api = {
    async request(method: string, path: string, options: { body?: unknown } = {}) {
      calls.push({ method, path, ...options });
      const failure = failures.find((f) => f.method === method && f.path === path);
      if (failure) throw Object.assign(new Error(failure.error.message), failure.error);
      if (method === 'GET' && path === '/identity/resources/users/sessions/v1/me') return sessions;
      if (method === 'DELETE' && path === '/identity/resources/users/sessions/v1/me/all') {
        const revoked = sessions.filter((s) => !s.current).length;
        sessions = sessions.filter((s) => s.current);
        return { revoked };
      }
      if (method === 'DELETE' && path.startsWith('/identity/resources/users/sessions/v1/me/')) {
        sessions = sessions.filter((s) => s.id !== decodeURIComponent(path.split('/').pop()!));
        return {};
      }
      if (method === 'GET' && path === '/identity/resources/users/v1/mfa') return data.mfa ?? MFA;
      if (method === 'GET' && path === '/identity/resources/users/webauthn/v1/devices') return { devices: data.passkeys ?? [PASSKEY] };
      return {};
    },
  } as unknown as GatehouseApi;
  return { api, calls };
}

function openPrivacy(api: GatehouseApi, adminPortal?: Record<string, unknown>) {
  const { domElement } = shadowMountPoint();
  const user = makeUser();
  const store = createTestStore(user);
  const logout = vi.fn(async () => undefined);
  Object.assign(store, { logout });
  render(<PrivacySection title="Privacy" headingId="privacy-heading" user={user} snapshot={store.getSnapshot()} store={store} api={api} options={readAdminPortalOptions(adminPortal)} />, { container: domElement });
  return { view: within(domElement), logout };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('privacy section: login sessions', () => {
  it('lists sessions with a readable device, IP and date, and marks this device', async () => {
    const { view } = openPrivacy(fakeApi().api);
    const table = await view.findByRole('table', { name: 'Your login sessions' });
    await within(table).findByRole('row', { name: /Chrome 126 on macOS/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['Chrome 126 on macOSThis device', 'Firefox 128 on Windows', 'Safari 17 on iOS']);
    expect(within(rows[0]!).getAllByRole('cell')[0]!.textContent).toBe('203.0.113.7');
    expect(within(rows[2]!).getAllByRole('cell')[0]!.textContent).toBe('Unknown');
    // No sign-out button for the current session: that is the normal sign-out.
    expect(within(rows[0]!).queryByRole('button')).toBeNull();
    expect(within(rows[1]!).getByRole('button').textContent).toBe('Sign out');
  });

  it('signs out one other session after confirming, then reloads the list', async () => {
    const { api, calls } = fakeApi();
    const { view } = openPrivacy(api);
    fireEvent.click(await view.findByRole('button', { name: /^Sign out Firefox 128 on Windows/ }));
    const dialog = await view.findByRole('dialog', { name: 'Sign out this session' });
    expect(within(dialog).getByText(/Firefox 128 on Windows \(198\.51\.100\.4\) will be signed out/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(view.getAllByRole('status').map((s) => s.textContent)).toContain('Session signed out'));
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([{ method: 'DELETE', path: '/identity/resources/users/sessions/v1/me/s-firefox' }]);
    expect(view.queryByRole('row', { name: /Firefox/ })).toBeNull();
    expect(view.queryByRole('dialog')).toBeNull();
  });

  it('signs out all other sessions, keeping this device', async () => {
    const { api, calls } = fakeApi();
    const { view } = openPrivacy(api);
    fireEvent.click(await view.findByRole('button', { name: 'Sign out of all other sessions' }));
    const dialog = await view.findByRole('dialog', { name: 'Sign out of all other sessions' });
    expect(within(dialog).getByText(/2 other sessions will be signed out/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out all' }));
    await waitFor(() => expect(view.getAllByRole('status').map((s) => s.textContent)).toContain('2 sessions signed out'));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/identity/resources/users/sessions/v1/me/all']);
    // Only this device is left: nothing else to sign out of.
    expect(view.queryByRole('button', { name: 'Sign out of all other sessions' })).toBeNull();
  });

  it('keeps the dialog open with the server message when signing out fails', async () => {
    const { api } = fakeApi([{ method: 'DELETE', path: '/identity/resources/users/sessions/v1/me/s-iphone', error: { message: 'Session not found', statusCode: 404 } }]);
    const { view } = openPrivacy(api);
    fireEvent.click(await view.findByRole('button', { name: /^Sign out Safari 17 on iOS/ }));
    const dialog = await view.findByRole('dialog', { name: 'Sign out this session' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Session not found');
    expect((dialog.getRootNode() as ShadowRoot).activeElement).toBe(within(dialog).getByRole('button', { name: 'Sign out' }));
  });

  it('shows the generic message and a retry when the sessions cannot be loaded', async () => {
    const { api, calls } = fakeApi([{ method: 'GET', path: '/identity/resources/users/sessions/v1/me', error: { message: 'Internal', statusCode: 500 } }]);
    const { view } = openPrivacy(api);
    const alert = await view.findByRole('alert');
    expect(alert.textContent).toContain("We're facing some difficulties, Please try again");
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls.filter((c) => c.path === '/identity/resources/users/sessions/v1/me')).toHaveLength(2));
  });

  it('view-only lists sessions without sign-out actions; hidden leaves the part out', async () => {
    const { view } = openPrivacy(fakeApi().api, { fieldVisibility: { privacy: { loginSessions: 'viewOnly', mfa: 'hidden' } } });
    await view.findByRole('row', { name: /Firefox/ });
    expect(view.queryByRole('button', { name: /Sign out/ })).toBeNull();
    expect(view.queryByRole('heading', { name: 'Multi-factor authentication' })).toBeNull();
    expect(view.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Device', 'IP address', 'Signed in']);
  });
});

describe('privacy section: MFA', () => {
  it('lists second factors and passkeys; empty states when there are none', async () => {
    const { view } = openPrivacy(fakeApi().api, { fieldVisibility: { privacy: { loginSessions: 'hidden' } } });
    const factors = await view.findByRole('table', { name: 'Your second factors' });
    await within(factors).findByRole('row', { name: /Authenticator app/ });
    expect(within(factors).getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['Authenticator app', 'Text message+44 ••• ••• 0000']);
    expect(view.getByText('Two-step sign-in is on. 8 recovery codes left.')).toBeTruthy();
    expect(within(view.getByRole('table', { name: 'Your passkeys' })).getByRole('rowheader').textContent).toBe('Work laptopSynced across your devices');

    document.body.innerHTML = '';
    const empty = openPrivacy(fakeApi([], { mfa: { ...MFA, enrolled: false, recoveryCodesLeft: 0, devices: { authenticators: [], phones: [], webauthn: [], emails: [] } }, passkeys: [] }).api).view;
    expect(await empty.findByText('No second factor is set up')).toBeTruthy();
    expect(empty.getByText('No passkeys yet')).toBeTruthy();
  });

  it('removes a second factor with a code, after checking the code is given', async () => {
    const { api, calls } = fakeApi();
    const { view } = openPrivacy(api);
    fireEvent.click(await view.findByRole('button', { name: 'Remove Text message +44 ••• ••• 0000' }));
    const dialog = await view.findByRole('dialog', { name: 'Remove text message' });
    expect(within(dialog).getByText(/recovery codes \(8 left\)/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(within(dialog).getByText('Enter the 6-digit code from your authenticator app, or a recovery code.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('Authenticator or recovery code'), { target: { value: ' 123456 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(view.getAllByRole('status').map((s) => s.textContent)).toContain('Text message removed'));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', path: '/identity/resources/users/v1/mfa/devices/d-phone/disable', body: { code: '123456' } }]);
  });

  it('says a fresh sign-in is needed when the server asks for one, and offers to sign in again', async () => {
    const { api } = fakeApi([{ method: 'POST', path: '/identity/resources/users/v1/mfa/devices/d-app/disable', error: { message: 'Please sign in again to change your security settings', statusCode: 403, errorCode: 'ER-01306' } }]);
    const { view, logout } = openPrivacy(api);
    fireEvent.click(await view.findByRole('button', { name: 'Remove Authenticator app' }));
    const dialog = await view.findByRole('dialog', { name: 'Remove authenticator app' });
    fireEvent.change(within(dialog).getByLabelText('Authenticator or recovery code'), { target: { value: '654321' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    const stale = await view.findByRole('dialog', { name: 'Sign in again to continue' });
    expect(within(stale).getByRole('alert').textContent).toMatch(/removing a second factor needs a recent sign-in/);
    fireEvent.click(within(stale).getByRole('button', { name: 'Sign in again' }));
    expect(logout).toHaveBeenCalledTimes(1);
  });

  it('shows a wrong code in the dialog and keeps it open', async () => {
    const { api } = fakeApi([{ method: 'POST', path: '/identity/resources/users/v1/mfa/devices/d-app/disable', error: { message: 'Invalid code', statusCode: 400 } }]);
    const { view } = openPrivacy(api);
    fireEvent.click(await view.findByRole('button', { name: 'Remove Authenticator app' }));
    const dialog = await view.findByRole('dialog', { name: 'Remove authenticator app' });
    fireEvent.change(within(dialog).getByLabelText('Authenticator or recovery code'), { target: { value: '000000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Invalid code');
    expect((dialog.getRootNode() as ShadowRoot).activeElement).toBe(within(dialog).getByLabelText('Authenticator or recovery code'));
  });

  it('removes a passkey after confirming', async () => {
    const { api, calls } = fakeApi();
    const { view } = openPrivacy(api);
    fireEvent.click(await view.findByRole('button', { name: 'Remove passkey Work laptop' }));
    const dialog = await view.findByRole('dialog', { name: 'Remove passkey Work laptop' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toEqual([{ method: 'DELETE', path: '/identity/resources/users/webauthn/v1/devices/pk-1' }]));
  });

  it('view-only MFA lists devices without remove actions', async () => {
    const { view } = openPrivacy(fakeApi().api, { fieldVisibility: { privacy: { mfa: 'viewOnly' } } });
    await view.findByRole('row', { name: /Authenticator app/ });
    expect(view.queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(view.getByRole('button', { name: /^Sign out Firefox/ })).toBeTruthy();
  });
});
