import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MfaStatusResponse, PasskeyDevice, UserSession } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import PrivacySection from './privacy';
import type { RegistrationCeremony } from './privacy/webauthn';

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
type Failure = { method: string; path: string; error: { message: string; statusCode: number; errorCode?: string; errorContext?: Record<string, unknown> } };
const ALL_STRATEGIES = ['AuthenticatorApp', 'SMS', 'WebAuthnCrossPlatform', 'WebAuthnPlatform', 'EmailCode'].map((strategy) => ({ strategy, isActive: true }));

/** The API boundary: records every call, answers like the server (a revoked session leaves the list, an enrolled factor joins it), fails the calls it is told to. */
function fakeApi(failures: Failure[] = [], data: { sessions?: UserSession[]; mfa?: MfaStatusResponse; passkeys?: PasskeyDevice[]; strategies?: { strategy: string; isActive: boolean }[] } = {}) {
  const calls: Call[] = [];
  let sessions = [...(data.sessions ?? SESSIONS)];
  let mfa = data.mfa ?? MFA;
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
      if (method === 'GET' && path === '/identity/resources/users/v1/mfa') return mfa;
      if (method === 'GET' && path === '/identity/resources/configurations/v1/mfa-strategies') return { strategies: data.strategies ?? ALL_STRATEGIES };
      if (method === 'GET' && path === '/identity/resources/users/webauthn/v1/devices') return { devices: data.passkeys ?? [PASSKEY] };
      if (method === 'POST' && path === '/identity/resources/users/v1/mfa/authenticator/enroll') return { qrCode: 'data:image/png;base64,iVBORw0KGgo=', uri: 'otpauth://totp/x', secret: 'JBSWY3DPEHPK3PXP' };
      if (method === 'POST' && path === '/identity/resources/users/v1/mfa/authenticator/enroll/verify') {
        const first = mfa.devices.authenticators.length + mfa.devices.phones.length === 0;
        mfa = { ...mfa, enrolled: true, recoveryCodesLeft: first ? 2 : mfa.recoveryCodesLeft, devices: { ...mfa.devices, authenticators: [...mfa.devices.authenticators, { id: 'd-new', createdAt: '2026-04-01T00:00:00.000Z' }] } };
        return { recoveryCodes: first ? ['aaaa-1111', 'bbbb-2222'] : [] };
      }
      if (method === 'POST' && path === '/identity/resources/users/v1/mfa/sms/enroll') return { otcToken: 'otc-1', phoneNumber: '+44 ••• ••• 0958' };
      if (method === 'POST' && path === '/identity/resources/users/v1/mfa/sms/enroll/verify') return { recoveryCodes: [] };
      if (method === 'POST' && path === '/identity/resources/users/v1/mfa/webauthn/enroll/verify') return { recoveryCodes: [] };
      if (method === 'POST' && path === '/identity/resources/users/v1/mfa/recovery-codes') return { recoveryCodes: ['cccc-3333', 'dddd-4444'] };
      if (method === 'POST' && path === '/identity/resources/users/v1/email/me') return { email: 'n••@example.org', expiresIn: 1800 };
      if (method === 'POST' && path === '/identity/resources/users/v1/email/me/verify') return { email: 'new@example.org' };
      return {};
    },
  } as unknown as GatehouseApi;
  return { api, calls };
}

function openPrivacy(api: GatehouseApi, adminPortal?: Record<string, unknown>, extra: { navigate?: (url: string) => void; ceremony?: RegistrationCeremony | null } = {}) {
  const { domElement } = shadowMountPoint();
  const user = makeUser();
  const store = createTestStore(user);
  const logout = vi.fn(async () => undefined);
  Object.assign(store, { logout });
  render(
    <PrivacySection title="Privacy" headingId="privacy-heading" user={user} snapshot={store.getSnapshot()} store={store} api={api} options={readAdminPortalOptions(adminPortal)} stepUpUrl="/account/step-up" navigate={extra.navigate} ceremony={extra.ceremony ?? null} />,
    { container: domElement },
  );
  return { view: within(domElement), logout };
}

/** Every live region's text: saved changes are told in the toast. */
const statusText = (view: ReturnType<typeof within>) => view.getAllByRole('status').map((s: HTMLElement) => s.textContent).join(' | ');

afterEach(() => {
  document.body.innerHTML = '';
});

describe('privacy section: login sessions', () => {
  it('lists sessions with the device and browser the server read, IP, last active, and marks this device', async () => {
    const { view } = openPrivacy(fakeApi().api, { fieldVisibility: { privacy: { account: 'hidden', mfa: 'hidden' } } });
    const table = await view.findByRole('table', { name: 'Your login sessions' });
    await within(table).findByRole('row', { name: /Chrome 126 on macOS/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['Chrome 126 on macOSComputerThis device', 'Firefox 128 on WindowsComputer', 'Safari 17 on iOSPhone']);
    expect(within(rows[0]!).getAllByRole('cell')[0]!.textContent).toBe('203.0.113.7');
    expect(within(rows[2]!).getAllByRole('cell')[0]!.textContent).toBe('Unknown');
    // Last active: "Now" for this browser, else when the session last refreshed.
    expect(within(rows[0]!).getAllByRole('cell')[1]!.textContent).toBe('Now');
    expect(within(rows[1]!).getAllByRole('cell')[1]!.textContent).toMatch(/Mar 11, 2026|11 Mar 2026/);
    expect(within(rows[1]!).getAllByRole('cell')[2]!.textContent).toMatch(/Mar 10, 2026|10 Mar 2026/);
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
    await waitFor(() => expect(statusText(view)).toContain('Session signed out'));
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
    await waitFor(() => expect(statusText(view)).toContain('2 sessions signed out'));
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
    const { view } = openPrivacy(api, { fieldVisibility: { privacy: { account: 'hidden', mfa: 'hidden' } } });
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
    expect(view.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Device', 'IP address', 'Last active', 'Signed in']);
  });
});

describe('privacy section: MFA', () => {
  it('lists second factors and passkeys; empty states when there are none', async () => {
    const { view } = openPrivacy(fakeApi().api, { fieldVisibility: { privacy: { loginSessions: 'hidden' } } });
    const factors = await view.findByRole('table', { name: 'Your second factors' });
    await within(factors).findByRole('row', { name: /Authenticator app/ });
    expect(within(factors).getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['Authenticator app', 'Text message+44 ••• ••• 0000']);
    expect(await view.findByText('Two-step sign-in is on. 8 recovery codes left.')).toBeTruthy();
    expect(within(view.getByRole('table', { name: 'Your passkeys' })).getByRole('rowheader').textContent).toBe('Work laptopSynced across your devices');

    document.body.innerHTML = '';
    const empty = openPrivacy(fakeApi([], { mfa: { ...MFA, enrolled: false, recoveryCodesLeft: 0, devices: { authenticators: [], phones: [], webauthn: [], emails: [] } }, passkeys: [] }).api).view;
    // Empty states say what to do next.
    expect(await empty.findByText(/^No second factor is set up\. Use “Add a second factor”/)).toBeTruthy();
    expect(empty.getByText('No passkeys yet')).toBeTruthy();
    expect(empty.queryByRole('button', { name: 'New recovery codes' })).toBeNull();
  });

  it('removes a second factor with a code, after checking the code is given', async () => {
    const { api, calls } = fakeApi();
    const { view } = openPrivacy(api);
    fireEvent.click(await view.findByRole('button', { name: 'Remove Text message +44 ••• ••• 0000' }));
    const dialog = await view.findByRole('dialog', { name: 'Remove Text message' });
    expect(within(dialog).getByText(/recovery codes \(8 left\)/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(within(dialog).getByText('Enter the 6-digit code from your authenticator app, or a recovery code.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('Authenticator or recovery code'), { target: { value: ' 123456 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(statusText(view)).toContain('Text message removed'));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', path: '/identity/resources/users/v1/mfa/devices/d-phone/disable', body: { code: '123456' } }]);
  });

  it('says a fresh sign-in is needed when the server asks for one, and offers to sign in again', async () => {
    const { api } = fakeApi([{ method: 'POST', path: '/identity/resources/users/v1/mfa/devices/d-app/disable', error: { message: 'Please sign in again to change your security settings', statusCode: 403, errorCode: 'ER-01306' } }]);
    const { view, logout } = openPrivacy(api);
    fireEvent.click(await view.findByRole('button', { name: 'Remove Authenticator app' }));
    const dialog = await view.findByRole('dialog', { name: 'Remove Authenticator app' });
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
    const dialog = await view.findByRole('dialog', { name: 'Remove Authenticator app' });
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
    expect(view.queryByRole('button', { name: /Remove|Add a second factor|New recovery codes/ })).toBeNull();
    expect(await view.findByRole('button', { name: /^Sign out Firefox/ })).toBeTruthy();
  });
});

const NO_FACTORS: MfaStatusResponse = { ...MFA, enrolled: false, recoveryCodesLeft: 0, devices: { authenticators: [], phones: [], webauthn: [], emails: [] } };
const ONLY_SECURITY = { fieldVisibility: { privacy: { loginSessions: 'hidden' } } };
const CREDENTIAL = { id: 'cred-1', rawId: 'cred-1', type: 'public-key' as const, response: { clientDataJSON: 'e30', attestationObject: 'o2M' }, clientExtensionResults: {} };

describe('privacy section: password and email', () => {
  it('rates the new password with zxcvbn as it is typed: a common one is weak and says why, a long passphrase strong', async () => {
    const { api } = fakeApi();
    const { view } = openPrivacy(api, ONLY_SECURITY);
    fireEvent.click(await view.findByRole('button', { name: 'Change password' }));
    const dialog = await view.findByRole('dialog', { name: 'Change password' });
    fireEvent.change(within(dialog).getByLabelText('New password'), { target: { value: 'password1' } });
    await waitFor(() => expect(within(dialog).getByText(/^Strength: /).textContent).toMatch(/^Strength: (too weak|weak)\. This is a commonly used password\.$/), { timeout: 5000 });
    fireEvent.change(within(dialog).getByLabelText('New password'), { target: { value: 'violet kettle marathon under 47 lanterns' } });
    await waitFor(() => expect(within(dialog).getByText(/^Strength: /).textContent).toBe('Strength: strong.'), { timeout: 5000 });
  });

  it('changes the password after checking the form, and says so in the toast', async () => {
    const { api, calls } = fakeApi();
    const { view } = openPrivacy(api, ONLY_SECURITY);
    fireEvent.click(await view.findByRole('button', { name: 'Change password' }));
    const dialog = await view.findByRole('dialog', { name: 'Change password' });
    expect((within(dialog).getByLabelText('Current password') as HTMLInputElement).type).toBe('password');
    fireEvent.change(within(dialog).getByLabelText('Current password'), { target: { value: 'old secret phrase' } });
    fireEvent.change(within(dialog).getByLabelText('New password'), { target: { value: 'a new long phrase' } });
    fireEvent.change(within(dialog).getByLabelText('New password again'), { target: { value: 'a new long phrasE' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('The two new passwords differ');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('New password again'), { target: { value: 'a new long phrase' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(statusText(view)).toContain('Password changed'));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', path: '/identity/resources/users/v1/passwords/change', body: { password: 'old secret phrase', newPassword: 'a new long phrase' } }]);
    expect(view.queryByRole('dialog')).toBeNull();
  });

  it('offers a step-up when the server wants a recent second factor, coming back to this page', async () => {
    const { api } = fakeApi([{ method: 'POST', path: '/identity/resources/users/v1/passwords/change', error: { message: 'Step-up required', statusCode: 403, errorCode: 'ER-01307', errorContext: { maxAge: 300 } } }]);
    const navigate = vi.fn();
    const { view } = openPrivacy(api, ONLY_SECURITY, { navigate });
    fireEvent.click(await view.findByRole('button', { name: 'Change password' }));
    const dialog = await view.findByRole('dialog', { name: 'Change password' });
    fireEvent.change(within(dialog).getByLabelText('Current password'), { target: { value: 'old secret phrase' } });
    fireEvent.change(within(dialog).getByLabelText('New password'), { target: { value: 'a new long phrase' } });
    fireEvent.change(within(dialog).getByLabelText('New password again'), { target: { value: 'a new long phrase' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));
    const stepUp = await view.findByRole('dialog', { name: 'Verify it’s you' });
    expect(view.queryByRole('dialog', { name: 'Change password' })).toBeNull();
    fireEvent.click(within(stepUp).getByRole('button', { name: 'Verify it’s you' }));
    expect(navigate).toHaveBeenCalledWith(`/account/step-up?maxAge=300&redirectUrl=${encodeURIComponent(window.location.href)}`);
  });

  it('changes the email only once the new address proves itself with the emailed code', async () => {
    const { api, calls } = fakeApi();
    const { view } = openPrivacy(api, ONLY_SECURITY);
    expect(await view.findByText('ada@example.com')).toBeTruthy();
    fireEvent.click(view.getByRole('button', { name: 'Change email' }));
    const dialog = await view.findByRole('dialog', { name: 'Change email' });
    fireEvent.change(within(dialog).getByLabelText('New email address'), { target: { value: 'ADA@example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('This is already your email address');
    fireEvent.change(within(dialog).getByLabelText('New email address'), { target: { value: 'new@example.org' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    const code = await within(dialog).findByLabelText('Code from the email');
    expect(within(dialog).getByText(/We sent a link and a 6-digit code to n••@example\.org.*30 minutes/)).toBeTruthy();
    // Nothing has changed yet: the address shown is still the old one.
    expect(view.getByText('ada@example.com')).toBeTruthy();
    fireEvent.change(code, { target: { value: '12 34' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change email' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Enter the 6 digits from the email');
    fireEvent.change(code, { target: { value: '123 456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change email' }));
    await waitFor(() => expect(statusText(view)).toContain('Your email address is now new@example.org. We told your old address.'));
    expect(view.getByText('new@example.org')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', path: '/identity/resources/users/v1/email/me', body: { email: 'new@example.org' } },
      { method: 'POST', path: '/identity/resources/users/v1/email/me/verify', body: { code: '123456' } },
    ]);
  });

  it('shows the server’s refusal of the new address in the dialog', async () => {
    const { api } = fakeApi([{ method: 'POST', path: '/identity/resources/users/v1/email/me', error: { message: 'This email address cannot be used', statusCode: 409, errorCode: 'ER-02701' } }]);
    const { view } = openPrivacy(api, ONLY_SECURITY);
    fireEvent.click(await view.findByRole('button', { name: 'Change email' }));
    const dialog = await view.findByRole('dialog', { name: 'Change email' });
    fireEvent.change(within(dialog).getByLabelText('New email address'), { target: { value: 'taken@example.org' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This email address cannot be used');
    expect(within(dialog).queryByLabelText('Code from the email')).toBeNull();
  });
});

describe('privacy section: adding second factors and recovery codes', () => {
  it('adds an authenticator app from the portal: QR code, the app’s code, then the recovery codes once', async () => {
    const { api, calls } = fakeApi([], { mfa: NO_FACTORS });
    const { view } = openPrivacy(api, ONLY_SECURITY);
    fireEvent.click(await view.findByRole('button', { name: 'Add a second factor' }));
    const dialog = await view.findByRole('dialog', { name: 'Add a second factor' });
    expect(within(dialog).getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['authenticator', 'sms']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect((await within(dialog).findByRole('img', { name: /QR code/ })).getAttribute('src')).toMatch(/^data:image\/png/);
    expect(within(dialog).getByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Code from the app'), { target: { value: '12345' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Enter the 6-digit code');
    fireEvent.change(within(dialog).getByLabelText('Code from the app'), { target: { value: '123456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    const codes = await view.findByRole('dialog', { name: 'Save your recovery codes' });
    expect(within(within(codes).getByRole('list', { name: 'Recovery codes' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['aaaa-1111', 'bbbb-2222']);
    await waitFor(() => expect(statusText(view)).toContain('Authenticator app added as a second factor'));
    fireEvent.click(within(codes).getByRole('button', { name: 'I have saved them' }));
    expect(view.queryByRole('dialog')).toBeNull();
    await view.findByRole('row', { name: /Authenticator app/ });
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      ['/identity/resources/users/v1/mfa/authenticator/enroll', undefined],
      ['/identity/resources/users/v1/mfa/authenticator/enroll/verify', { token: '123456' }],
    ]);
  });

  it('adds a texted code: the number, then the code sent to it', async () => {
    const { api, calls } = fakeApi();
    const { view } = openPrivacy(api, ONLY_SECURITY);
    fireEvent.click(await view.findByRole('button', { name: 'Add a second factor' }));
    const dialog = await view.findByRole('dialog', { name: 'Add a second factor' });
    fireEvent.click(within(dialog).getByRole('radio', { name: /Text message/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    fireEvent.change(await within(dialog).findByLabelText('Phone number'), { target: { value: 'call me' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Text me a code' }));
    expect(within(dialog).getByRole('alert').textContent).toMatch(/^Enter a phone number with its country code/);
    fireEvent.change(within(dialog).getByLabelText('Phone number'), { target: { value: '+44 20 7946 0958' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Text me a code' }));
    expect(await within(dialog).findByText('We texted a 6-digit code to +44 ••• ••• 0958.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Code from the text message'), { target: { value: '654321' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(view.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(statusText(view)).toContain('Text message added as a second factor'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      ['/identity/resources/users/v1/mfa/sms/enroll', { phoneNumber: '+44 20 7946 0958' }],
      ['/identity/resources/users/v1/mfa/sms/enroll/verify', { otcToken: 'otc-1', token: '654321' }],
    ]);
  });

  it('adds a security key through the browser’s ceremony, and says so when the browser request is cancelled', async () => {
    const ceremony = vi.fn<RegistrationCeremony>().mockRejectedValueOnce(Object.assign(new Error('cancelled'), { kind: 'ceremonyCancelled' })).mockResolvedValue(CREDENTIAL);
    const { api, calls } = fakeApi([], { strategies: [{ strategy: 'WebAuthnCrossPlatform', isActive: true }, { strategy: 'SMS', isActive: false }] });
    Object.assign(api, {
      request: ((inner: GatehouseApi['request']) => async (method: Parameters<GatehouseApi['request']>[0], path: string, options: { body?: unknown } = {}) =>
        path === '/identity/resources/users/v1/mfa/webauthn/enroll' ? (calls.push({ method, path, ...options }), { options: { challenge: 'Y2g', rp: { name: 'Acme' }, user: { id: 'dQ', name: 'ada', displayName: 'Ada' }, pubKeyCredParams: [] } }) : inner(method, path, options))(api.request.bind(api)),
    });
    const { view } = openPrivacy(api, ONLY_SECURITY, { ceremony });
    fireEvent.click(await view.findByRole('button', { name: 'Add a second factor' }));
    const dialog = await view.findByRole('dialog', { name: 'Add a second factor' });
    expect(within(dialog).getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['securityKey']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Continue' }));
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/^Nothing was added/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(view.queryByRole('dialog')).toBeNull());
    expect(ceremony).toHaveBeenCalledTimes(2);
    expect(calls.filter((c) => c.path === '/identity/resources/users/v1/mfa/webauthn/enroll/verify').map((c) => c.body)).toEqual([{ credential: CREDENTIAL }]);
    expect(calls.filter((c) => c.path === '/identity/resources/users/v1/mfa/webauthn/enroll').map((c) => c.body)).toEqual([{ deviceType: 'cross-platform' }, { deviceType: 'cross-platform' }]);
  });

  it('makes new recovery codes after confirming, and shows them once', async () => {
    const { api, calls } = fakeApi();
    const { view } = openPrivacy(api, ONLY_SECURITY);
    fireEvent.click(await view.findByRole('button', { name: 'New recovery codes' }));
    const dialog = await view.findByRole('dialog', { name: 'New recovery codes' });
    expect(within(dialog).getByText(/codes you have now stop working/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make new codes' }));
    const codes = await view.findByRole('dialog', { name: 'Save your recovery codes' });
    expect(within(codes).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['cccc-3333', 'dddd-4444']);
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/identity/resources/users/v1/mfa/recovery-codes']);
  });

  it('adds a passkey with the browser’s ceremony; without WebAuthn there is no passkey button', async () => {
    const ceremony = vi.fn<RegistrationCeremony>().mockResolvedValue(CREDENTIAL);
    const { api, calls } = fakeApi();
    Object.assign(api, {
      request: ((inner: GatehouseApi['request']) => async (method: Parameters<GatehouseApi['request']>[0], path: string, options: { body?: unknown } = {}) => {
        if (method === 'POST' && path === '/identity/resources/users/webauthn/v1/devices') return calls.push({ method, path }), { options: { challenge: 'Y2g', rp: { name: 'Acme' }, user: { id: 'dQ', name: 'ada', displayName: 'Ada' }, pubKeyCredParams: [] } };
        if (method === 'POST' && path === '/identity/resources/users/webauthn/v1/devices/verify') return calls.push({ method, path, ...options }), { ...PASSKEY, id: 'pk-2', name: 'Phone' };
        return inner(method, path, options);
      })(api.request.bind(api)),
    });
    const { view } = openPrivacy(api, ONLY_SECURITY, { ceremony });
    fireEvent.click(await view.findByRole('button', { name: 'Add a passkey' }));
    await waitFor(() => expect(statusText(view)).toContain('Passkey Phone added'));
    expect(calls.find((c) => c.path === '/identity/resources/users/webauthn/v1/devices/verify')?.body).toEqual({ credential: CREDENTIAL });

    document.body.innerHTML = '';
    const without = openPrivacy(fakeApi().api, ONLY_SECURITY, { ceremony: null }).view;
    await without.findByRole('button', { name: 'Add a second factor' });
    expect(without.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  });
});
