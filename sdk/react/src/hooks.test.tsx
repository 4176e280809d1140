import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { json } from '../../../shared/src/testing/fetch-stub';
import { createGatehouseClient, type GatehouseClient } from './client.js';
import { GatehouseProvider } from './GatehouseProvider.js';
import { useAdminPortal, useAuth, useAuthActions, useCheckout, useEntitlements, useFeatureFlag, useIsSteppedUp, usePermissions, useTenants, useUser } from './hooks.js';
import { MULTI_FACTOR_ACR } from './step-up.js';
import { createTestApp, login, me, ME, REFRESH, SWITCH, LOGOUT, type TestApp } from './test/loader-app.js';

afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

function setup(app: TestApp): { client: GatehouseClient; wrapper: (p: { children?: ReactNode }) => ReactNode } {
  const client = createGatehouseClient({ connect: async () => app });
  const wrapper = ({ children }: { children?: ReactNode }) => (
    <GatehouseProvider client={client} options={app.options} loaderScript={{ src: 'unused', integrity: 'unused' }}>
      {children}
    </GatehouseProvider>
  );
  return { client, wrapper };
}

describe('useAuth / useUser', () => {
  it('is loading before the loader is ready, then reads the signed-in user from the loader store', async () => {
    const app = createTestApp();
    const { wrapper } = setup(app);
    const { result } = renderHook(() => ({ auth: useAuth(), user: useUser() }), { wrapper });
    await waitFor(() => expect(result.current.auth.isAuthenticated).toBe(true));
    expect(result.current.auth.isLoading).toBe(false);
    expect(result.current.user).toMatchObject({ id: 'u1', email: 'ada@example.com', tenantId: 't1' });
  });

  it('follows the store: a logout clears the user', async () => {
    const app = createTestApp();
    const { wrapper } = setup(app);
    const { result } = renderHook(() => ({ auth: useAuth(), actions: useAuthActions() }), { wrapper });
    await waitFor(() => expect(result.current.auth.isAuthenticated).toBe(true));
    await act(() => result.current.actions.logout());
    expect(result.current.auth).toMatchObject({ isAuthenticated: false, user: null });
    expect(app.calls.filter((c) => `${c.method} ${c.url.pathname}` === LOGOUT)).toHaveLength(1);
  });

  it('outside the provider throws a sentence naming the provider', () => {
    expect(() => renderHook(() => useAuth())).toThrow('useAuth() must be used inside <GatehouseProvider>');
  });
});

describe('useTenants', () => {
  it('lists the user tenants and switchTenant moves the session (PUT tenant, refresh, me) so the hook shows the new tenant', async () => {
    const app = createTestApp({
      routes: {
        [SWITCH]: () => json({}),
        [REFRESH]: () => json(login('t2')),
        [ME]: () => json(me({ tenantId: 't2' })),
      },
    });
    const { wrapper } = setup(app);
    const { result } = renderHook(() => useTenants(), { wrapper });
    await waitFor(() => expect(result.current.activeTenantId).toBe('t1'));
    expect(result.current.tenants.map((t) => t.name)).toEqual(['One', 'Two']);
    await act(() => result.current.switchTenant('t2'));
    expect(result.current.activeTenantId).toBe('t2');
    expect(app.calls.find((c) => c.method === 'PUT')?.body).toEqual({ tenantId: 't2' });
  });
});

describe('useAuthActions', () => {
  it('stepUp({ maxAge }) opens the step-up route with maxAge and a way back to this page', async () => {
    window.history.replaceState(null, '', '/reports?range=7d');
    const app = createTestApp();
    const { wrapper } = setup(app);
    const seen: string[] = [];
    const onPop = () => seen.push(window.location.pathname + window.location.search);
    window.addEventListener('popstate', onPop);
    const { result } = renderHook(() => useAuthActions(), { wrapper });
    await act(() => result.current.stepUp({ maxAge: 300 }));
    window.removeEventListener('popstate', onPop);
    const url = new URL(window.location.href);
    expect(url.pathname).toBe('/account/step-up');
    expect(url.searchParams.get('maxAge')).toBe('300');
    expect(url.searchParams.get('redirectUrl')).toBe('/reports?range=7d');
    expect(seen).toEqual([url.pathname + url.search]);
  });

  it('stepUp uses the host route for stepUpUrl and refuses a maxAge that is not whole seconds', async () => {
    const app = createTestApp();
    app.options.authOptions = { routes: { stepUpUrl: '/auth/verify' } };
    const { wrapper } = setup(app);
    const { result } = renderHook(() => useAuthActions(), { wrapper });
    await expect(result.current.stepUp({ maxAge: -5 })).rejects.toThrow('stepUp: maxAge must be a whole number of seconds');
    expect(window.location.pathname).toBe('/');
    await act(() => result.current.stepUp());
    expect(window.location.pathname).toBe('/auth/verify');
    expect(new URL(window.location.href).searchParams.has('maxAge')).toBe(false);
  });

  it('login and loginWithRedirect go to the loader, also when called before it is ready', async () => {
    const app = createTestApp({ signedIn: false });
    let connect!: () => void;
    const client = createGatehouseClient({ connect: () => new Promise((resolve) => (connect = () => resolve(app))) });
    const wrapper = ({ children }: { children?: ReactNode }) => <GatehouseProvider client={client} options={app.options} loaderScript={{ src: 'x', integrity: 'y' }}>{children}</GatehouseProvider>;
    const { result } = renderHook(() => ({ actions: useAuthActions(), auth: useAuth() }), { wrapper });
    expect(result.current.auth.isLoading).toBe(true);
    const pending = result.current.actions.login();
    expect(app.actions).toEqual([]);
    connect();
    await act(() => pending);
    await act(() => result.current.actions.loginWithRedirect());
    expect(app.actions).toEqual(['loginWithRedirect', 'loginWithRedirect']);
    expect(result.current.auth).toMatchObject({ isLoading: false, isAuthenticated: false });
  });
});

describe('useIsSteppedUp', () => {
  it('is true for a token of a second factor (acr, amr), false for a password-only one and when signed out', async () => {
    const stepped = setup(createTestApp({ claims: { acr: MULTI_FACTOR_ACR, amr: ['pwd', 'mfa', 'otp'], auth_time: Math.floor(Date.now() / 1000) } }));
    const { result } = renderHook(() => ({ auth: useAuth(), any: useIsSteppedUp(), recent: useIsSteppedUp({ maxAge: 300 }) }), { wrapper: stepped.wrapper });
    await waitFor(() => expect(result.current.auth.isAuthenticated).toBe(true));
    expect(result.current).toMatchObject({ any: true, recent: true });
    cleanup();

    const password = setup(createTestApp({ claims: { acr: 'urn:gatehouse:acr:pwd', amr: ['pwd'] } }));
    const pw = renderHook(() => ({ auth: useAuth(), any: useIsSteppedUp() }), { wrapper: password.wrapper });
    await waitFor(() => expect(pw.result.current.auth.isAuthenticated).toBe(true));
    expect(pw.result.current.any).toBe(false);
    cleanup();

    const out = setup(createTestApp({ signedIn: false }));
    const so = renderHook(() => ({ auth: useAuth(), any: useIsSteppedUp() }), { wrapper: out.wrapper });
    await waitFor(() => expect(so.result.current.auth.isLoading).toBe(false));
    expect(so.result.current.any).toBe(false);
  });

  it('turns false by itself once maxAge seconds have passed since the step-up, and refuses a maxAge that is not whole seconds', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    try {
      const { wrapper } = setup(createTestApp({ claims: { acr: MULTI_FACTOR_ACR, amr: ['mfa', 'sms'], auth_time: Math.floor(Date.now() / 1000) - 290 } }));
      const { result } = renderHook(() => ({ auth: useAuth(), recent: useIsSteppedUp({ maxAge: 300 }) }), { wrapper });
      await vi.waitFor(() => expect(result.current.auth.isAuthenticated).toBe(true));
      expect(result.current.recent).toBe(true);
      await act(() => vi.advanceTimersByTimeAsync(12_000));
      expect(result.current.recent).toBe(false);
    } finally {
      vi.useRealTimers();
    }
    cleanup();
    const { wrapper } = setup(createTestApp());
    expect(() => renderHook(() => useIsSteppedUp({ maxAge: 1.5 }), { wrapper })).toThrow('useIsSteppedUp: maxAge must be a whole number of seconds');
  });
});

describe('usePermissions', () => {
  it('answers every-key checks over the user permissions and roles; a super user passes all', async () => {
    const { wrapper } = setup(createTestApp());
    const { result } = renderHook(() => usePermissions(), { wrapper });
    await waitFor(() => expect(result.current.permissions).toHaveLength(2));
    expect(result.current.hasPermissions(['notes.write', 'fe.secure.read.users'])).toBe(true);
    expect(result.current.hasPermissions(['notes.write', 'billing.write'])).toBe(false);
    expect(result.current.hasRoles(['Admin'])).toBe(true);
    expect(result.current.hasRoles(['Support'])).toBe(false);

    cleanup();
    const superUser = setup(createTestApp({ signedIn: { superUser: true, permissions: [], roles: [] } }));
    const su = renderHook(() => usePermissions(), { wrapper: superUser.wrapper });
    await waitFor(() => expect(su.result.current.isSuperUser).toBe(true));
    expect(su.result.current.hasPermissions(['billing.write'])).toBe(true);
    expect(su.result.current.hasRoles(['Support'])).toBe(true);
  });
});

describe('useEntitlements / useFeatureFlag', () => {
  it('shows entitlements once the loader tells they have loaded (app.subscribe)', async () => {
    const app = createTestApp();
    const { wrapper } = setup(app);
    const { result } = renderHook(() => useEntitlements(), { wrapper });
    await waitFor(() => expect(result.current.entitlements).toBeNull());
    expect(result.current.isEntitledTo({ featureKey: 'reports' })).toEqual({ isEntitled: false, justification: 'MISSING_FEATURE' });
    app.setEntitlements({ features: { reports: { planIds: ['premium'], expireTime: -1, linkedPermissions: [] } }, plans: {}, permissions: { 'notes.write': true } });
    await waitFor(() => expect(result.current.entitlements).not.toBeNull());
    expect(result.current.isEntitledTo({ featureKey: 'reports' }).isEntitled).toBe(true);
    expect(result.current.isEntitledTo({ featureKey: 'sso' }).isEntitled).toBe(false);
  });

  it('useFeatureFlag is true only for a flag the caller has on', async () => {
    const app = createTestApp({ flags: { 'new-editor': 'on', 'old-editor': 'off' } });
    const { wrapper } = setup(app);
    const { result } = renderHook(() => [useFeatureFlag('new-editor'), useFeatureFlag('old-editor'), useFeatureFlag('unknown')], { wrapper });
    await waitFor(() => expect(result.current[0]).toBe(true));
    expect(result.current.slice(1)).toEqual([false, false]);
    // The loader's new flags (e.g. after a tenant switch) reach the hook when it tells.
    act(() => app.setFlags({ 'new-editor': 'off', unknown: 'on' }));
    expect(result.current).toEqual([false, false, true]);
  });
});

describe('useAdminPortal / useCheckout', () => {
  it('show, showMultiApps (multi-app mode) and hide call the loader', async () => {
    const app = createTestApp();
    const { wrapper } = setup(app);
    const { result } = renderHook(() => ({ portal: useAdminPortal(), checkout: useCheckout() }), { wrapper });
    await act(() => result.current.portal.show());
    await waitFor(() => expect(app.actions).toContain('showAdminPortal'));
    act(() => result.current.portal.hide());
    await act(() => result.current.portal.showMultiApps());
    await act(() => result.current.checkout.show({ planId: 'premium' }));
    act(() => result.current.checkout.hide());
    expect(app.actions).toEqual(['showAdminPortal', 'hideAdminPortal', 'showMultiAppsAdminPortal', 'showCheckoutDialog:premium', 'hideCheckoutDialog']);
  });
});

describe('rendering', () => {
  it('re-renders a consumer only when its state changed, not on every store notification', async () => {
    const app = createTestApp();
    const { wrapper } = setup(app);
    let renders = 0;
    function Name() {
      renders += 1;
      return <span>{useUser()?.name}</span>;
    }
    const view = render(<Name />, { wrapper });
    await waitFor(() => expect(view.container.textContent).toBe('Ada'));
    const before = renders;
    await act(async () => {
      app.store.setMfaStep('verify');
    });
    expect(renders).toBe(before);
  });
});
