import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from '../create-gatehouse';
import { createFetchStub, json, type Handler } from '../../testing/fetch-stub';
import { createManualTimers } from '../../testing/manual-timers';
import type { GatehouseStore } from '../../core/types';
import { SOCIAL_LOGIN_ERROR_KEY } from '../../wire/social/paths';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
/** The page runs in an iOS web view whose app reports support for `supported`; what the page posts to it lands in `messages`. */
function iosApp(supported: string[]) {
  const messages: unknown[] = [];
  vi.stubGlobal('navigator', { userAgent: IPHONE });
  vi.stubGlobal('GatehouseNativeBridgeFunctions', Object.fromEntries(supported.map((m) => [m, true])));
  vi.stubGlobal('webkit', { messageHandlers: { GatehouseNativeBridge: { postMessage: (m: string) => messages.push(JSON.parse(m)) } } });
  return { messages };
}

const P = {
  me: 'GET /identity/resources/users/v2/me',
  v2: 'GET /identity/resources/sso/v2',
  custom: 'GET /identity/resources/sso/custom/v1',
  pre: (p: string) => `POST /identity/resources/auth/v1/user/sso/${p}/prelogin`,
  post: (p: string) => `POST /identity/resources/auth/v1/user/sso/${p}/postlogin`,
};
const NOW = 1_700_000_000_000;
const PAGE = 'https://app.example.com/account/social/success';
const me = { id: 'u1', email: 'ada@example.com', name: 'Ada', username: null, verified: true, tenantId: 't1', tenantIds: ['t1'], tenants: [], roles: [], permissions: [] };
const result = { email: 'ada@example.com', isNewUser: true, userId: 'u1', tenantId: 't1', name: 'Ada' };
const signedIn = () => json({ accessToken: 'a.b.c', expiresIn: 300, expires: '', mfaRequired: false, ...result });

let current: GatehouseStore | null = null;
let stored: Map<string, string>;
beforeEach(() => {
  stored = new Map();
  vi.stubGlobal('location', { href: `${PAGE}?code=c&state=acme.s` });
  vi.stubGlobal('sessionStorage', { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => void stored.set(k, v), removeItem: (k: string) => void stored.delete(k) });
});
afterEach(() => {
  current?.dispose();
  current = null;
  vi.unstubAllGlobals();
});

function setup(routes: Record<string, Handler | Handler[]> = {}) {
  const stub = createFetchStub({ [P.me]: () => json(me), ...routes });
  const clock = createManualTimers(NOW);
  const navigate = vi.fn();
  const { store } = createGatehouse({
    baseUrl: 'http://api.test', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1, delayMs: 1 },
    navigate, storage: null, now: clock.now, timers: clock.timers, getCurrentUrl: () => PAGE,
  });
  current = store;
  return { store, stub, clock, navigate, snap: () => store.getSnapshot() };
}

describe('social login flow', () => {
  it('loads the active built-in and custom providers for the buttons', async () => {
    const { store, snap } = setup({
      [P.v2]: () => json([{ type: 'google', active: true, displayName: 'Google' }, { type: 'github', active: false, displayName: 'GitHub' }]),
      [P.custom]: () => json({ providers: [{ id: 'acme', type: 'custom', displayName: 'Acme ID', active: true }, { id: 'off', type: 'custom', displayName: 'Off', active: false }] }),
    });
    expect(snap().social).toBeNull();
    await store.loadSocialProviders();
    expect(snap().social?.providers).toEqual([
      { id: 'google', displayName: 'Google', custom: false },
      { id: 'acme', displayName: 'Acme ID', custom: true },
    ]);
  });

  it('a button asks the server to start (redirectUri: the callback route, without query) and then leaves for the provider', async () => {
    const { store, stub, navigate, snap } = setup({ [P.pre('acme')]: () => json({ url: 'https://idp.example/auth?x=1' }) });
    await store.startSocialLogin('acme');
    expect(stub.callsTo(P.pre('acme'))[0]!.body).toEqual({ redirectUri: PAGE });
    expect(navigate).toHaveBeenCalledWith('https://idp.example/auth?x=1');
    expect(snap().social?.loading).toBe(true);
  });

  it('inside a native app that supports it, the app signs in with the provider itself: built-in by name, custom by id, nothing asked of the server', async () => {
    const { messages } = iosApp(['loginWithSocialLoginProvider', 'loginWithCustomSocialLoginProvider']);
    const { store, stub, navigate } = setup({
      [P.v2]: () => json([{ type: 'google', active: true, displayName: 'Google' }]),
      [P.custom]: () => json({ providers: [{ id: 'acme', type: 'custom', displayName: 'Acme ID', active: true }] }),
    });
    await store.loadSocialProviders();
    await store.startSocialLogin('google');
    await store.startSocialLogin('acme');
    expect(messages).toEqual([{ action: 'loginWithSocialLoginProvider', data: 'google' }, { action: 'loginWithCustomSocialLoginProvider', data: 'acme' }]);
    expect(stub.callsTo(P.pre('google'))).toHaveLength(0);
    expect(navigate).not.toHaveBeenCalled();
  });

  it("inside a native app that only opens sign-in URLs, the provider's URL goes to the app instead of the page", async () => {
    const { messages } = iosApp(['loginWithSocialLogin']);
    const { store, navigate } = setup({ [P.pre('acme')]: () => json({ url: 'https://idp.example/auth?x=1' }) });
    await store.startSocialLogin('acme');
    expect(messages).toEqual([{ action: 'loginWithSocialLogin', data: 'https://idp.example/auth?x=1' }]);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('the callback posts code, state and iss to the provider named in the state, signs in and records the result', async () => {
    const { store, stub, snap, navigate } = setup({ [P.post('acme')]: signedIn });
    await store.socialLoginPostLogin('?code=the-code&state=acme.random&iss=https%3A%2F%2Fidp.example');
    expect(stub.callsTo(P.post('acme'))[0]!.body).toEqual({ code: 'the-code', state: 'acme.random', iss: 'https://idp.example', redirectUri: PAGE });
    expect(snap().isAuthenticated).toBe(true);
    expect(snap().social?.result).toEqual(result);
    expect(snap().login.step).toBe('success');
    expect(navigate).toHaveBeenCalledWith('/');
    // A second effect run with the same answer does not post it again.
    await store.socialLoginPostLogin('?code=the-code&state=acme.random');
    expect(stub.callsTo(P.post('acme'))).toHaveLength(1);
  });

  it('mfaRequired: no session, the second factor is asked on the login route', async () => {
    const { store, snap, navigate } = setup({ [P.post('acme')]: () => json({ accessToken: '', expiresIn: 0, expires: '', mfaRequired: true, mfaToken: 'm'.repeat(20), ...result }) });
    await store.socialLoginPostLogin('?code=c&state=acme.s');
    expect(snap().isAuthenticated).toBe(false);
    expect(['loginWithTwoFactor', 'forceTwoFactor']).toContain(snap().login.step);
    expect(navigate).toHaveBeenCalledWith('/account/login');
  });

  it('a refused sign-in shows loginWithSSOFailed with the server message, keeps it for the login screen and goes to the authenticated URL after 1 s', async () => {
    const refusal = 'Your Acme ID email address is not verified, so it cannot be used to sign in. Verify it with Acme ID, or sign in another way.';
    const { store, snap, clock, navigate } = setup({ [P.post('acme')]: () => json({ errors: [refusal], errorCode: 'ER-02203' }, { status: 403 }) });
    await store.socialLoginPostLogin('?code=c&state=acme.s');
    expect(snap().login).toMatchObject({ step: 'loginWithSSOFailed', error: refusal });
    expect(stored.get(SOCIAL_LOGIN_ERROR_KEY)).toBe(refusal);
    await clock.advance(999);
    expect(navigate).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it("a provider's error answer (cancelled) or a URL without code or state fails without calling the server: 'Failed to authenticate'", async () => {
    const { store, stub, snap } = setup();
    await store.socialLoginPostLogin('?error=access_denied&state=acme.s');
    expect(snap().login).toMatchObject({ step: 'loginWithSSOFailed', error: 'Failed to authenticate' });
    await store.socialLoginPostLogin('?code=c');
    expect(snap().login.error).toBe('Failed to authenticate');
    expect(stub.calls.filter((c) => c.url.pathname.includes('/sso/'))).toEqual([]);
  });
});
