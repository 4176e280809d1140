import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from './create-gatehouse';
import { createFetchStub, json, type Handler } from '../testing/fetch-stub';
import { createManualTimers } from '../testing/manual-timers';
import type { GatehouseStore } from '../core/types';

/** Seed 000 section 1: suggestSavePassword (email and password) after a password sign-in, inside a native app only. */
const P = { login: 'POST /identity/resources/auth/v1/user', me: 'GET /identity/resources/users/v2/me' };
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const me = { id: 'u1', email: 'ada@example.com', name: 'Ada', username: null, verified: true, tenantId: 't1', tenantIds: ['t1'], tenants: [], roles: [], permissions: [] };
const signedIn = () => json({ accessToken: 'tok', expiresIn: 300, expires: '', mfaRequired: false, tenantId: 't1', userId: 'u1' });

let current: GatehouseStore | null = null;
afterEach(() => {
  current?.dispose();
  current = null;
  vi.unstubAllGlobals();
});

function setup(routes: Record<string, Handler>) {
  const stub = createFetchStub({ [P.me]: () => json(me), ...routes });
  const clock = createManualTimers();
  const { store } = createGatehouse({
    baseUrl: 'http://api.test', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1, delayMs: 1 },
    navigate: vi.fn(), storage: null, now: clock.now, timers: clock.timers, getCurrentUrl: () => 'https://app.example.com/account/login',
  });
  current = store;
  return store;
}

/** An iOS web view whose app reports `supported`; what the page posts lands in the returned list. */
function iosApp(supported: Record<string, boolean>, agent = IPHONE) {
  const messages: unknown[] = [];
  vi.stubGlobal('navigator', { userAgent: agent });
  vi.stubGlobal('GatehouseNativeBridgeFunctions', supported);
  vi.stubGlobal('webkit', { messageHandlers: { GatehouseNativeBridge: { postMessage: (m: string) => messages.push(JSON.parse(m)) } } });
  return messages;
}

/** The bridge's chunk is imported on demand: let that import settle before looking for what was (not) sent. */
async function bridgeSettled() {
  await import('./native-bridge');
  await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('suggestSavePassword after a password sign-in (native bridge)', () => {
  it('an iOS app that supports it gets the email and password the server just accepted', async () => {
    const messages = iosApp({ suggestSavePassword: true });
    const store = setup({ [P.login]: signedIn });
    await store.login({ email: 'ada@example.com', password: 'correct horse battery' });
    await vi.waitFor(() => expect(messages).toEqual([{ action: 'suggestSavePassword', data: JSON.stringify({ email: 'ada@example.com', password: 'correct horse battery' }) }]));
    expect(store.getSnapshot().isAuthenticated).toBe(true);
  });

  it('an Android app gets it through its own function, also when a second factor follows', async () => {
    const sent: string[] = [];
    vi.stubGlobal('navigator', { userAgent: ANDROID });
    vi.stubGlobal('GatehouseNativeBridgeFunctions', { suggestSavePassword: true });
    vi.stubGlobal('GatehouseNativeBridge', { suggestSavePassword: (data: string) => sent.push(data) });
    const store = setup({ [P.login]: () => json({ accessToken: '', expiresIn: 0, expires: '', mfaRequired: true, mfaToken: 'm1' }) });
    await store.login({ email: 'ada@example.com', password: 'pw-1' });
    await vi.waitFor(() => expect(sent.map((d) => JSON.parse(d))).toEqual([{ email: 'ada@example.com', password: 'pw-1' }]));
    expect(store.getSnapshot().login.step).toBe('loginWithTwoFactor');
  });

  it('a refused password is never offered', async () => {
    const messages = iosApp({ suggestSavePassword: true });
    const store = setup({ [P.login]: () => json({ errors: ['Invalid email or password'] }, { status: 401 }) });
    await store.login({ email: 'ada@example.com', password: 'wrong' });
    await bridgeSettled();
    expect(messages).toEqual([]);
    expect(store.getSnapshot().login.error).toBe('Invalid email or password');
  });

  it('nothing is sent when the app does not report support, or off iOS and Android', async () => {
    const unsupported = iosApp({ loginWithSSO: true });
    await setup({ [P.login]: signedIn }).login({ email: 'ada@example.com', password: 'pw' });
    await bridgeSettled();
    expect(unsupported).toEqual([]);
    current?.dispose();
    vi.unstubAllGlobals();

    const desktop = iosApp({ suggestSavePassword: true }, DESKTOP);
    const store = setup({ [P.login]: signedIn });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    await bridgeSettled();
    expect(desktop).toEqual([]);
    expect(store.getSnapshot().isAuthenticated).toBe(true);
  });

  it('without any bridge the sign-in goes on as usual and nothing throws', async () => {
    const store = setup({ [P.login]: signedIn });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(store.getSnapshot()).toMatchObject({ isAuthenticated: true, login: { step: 'success', error: null } });
  });
});
