/**
 * The "may have a session" hint (session-hint.ts): a signed-out page load must not ask refresh
 * (its 401 is a console error on every visit), and a user holding a session must always be asked for.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from './create-gatehouse';
import { createSessionHint, SESSION_HINT_KEY } from './session-hint';
import { createFetchStub, json, type Handler } from '../testing/fetch-stub';
import { createManualTimers } from '../testing/manual-timers';
import type { GatehouseStore } from '../core/types';

const BASE = 'http://api.test';
const KEY = `${SESSION_HINT_KEY}:${BASE}`;
const P = {
  login: 'POST /identity/resources/auth/v1/user',
  refresh: 'POST /identity/resources/auth/v1/user/token/refresh',
  logout: 'POST /identity/resources/auth/v1/logout',
  me: 'GET /identity/resources/users/v2/me',
  samlPost: 'POST /identity/resources/auth/v1/user/saml/postlogin',
  linkPost: 'POST /identity/resources/auth/v1/passwordless/magiclink/postlogin',
};
const me = {
  id: 'u1', email: 'ada@example.com', name: 'Ada', username: null, verified: true, tenantId: 't1', tenantIds: ['t1'], tenants: [],
  phoneNumber: null, address: null, jobTitle: null, profilePictureUrl: null, roles: [], permissions: [], superUser: false,
  mfaEnrolled: false, metadata: null, createdAt: '2026-01-01T00:00:00Z', lastLogin: null,
};
const loginResponse = (token = 'tok-1') => ({ accessToken: token, expiresIn: 300, expires: '', mfaRequired: false, tenantId: 't1', userId: 'u1' });
const unauthorized = () => json({ errors: ['Unauthorized'] }, { status: 401 });

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k), map };
}

let current: GatehouseStore | null = null;
afterEach(() => {
  current?.dispose();
  current = null;
});

/** A store as the runtime builds it: the hint lives in the host page's (here: a memory) localStorage. */
function setup(routes: Record<string, Handler | Handler[]>, signedInBefore = false) {
  const stub = createFetchStub(routes);
  const clock = createManualTimers();
  const local = memoryStorage(signedInBefore ? { [KEY]: '1' } : {});
  const { store } = createGatehouse({
    baseUrl: BASE, clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1, delayMs: 1 },
    navigate: vi.fn(), storage: memoryStorage(), now: clock.now, timers: clock.timers, getCurrentUrl: () => 'https://app.example.com/account/login',
    sessionHint: createSessionHint(BASE, local),
  });
  current = store;
  return { store, stub, clock, local, snap: () => store.getSnapshot() };
}

describe('the session hint', () => {
  it('a signed-out browser (no hint) is known signed out without asking refresh', async () => {
    const { store, stub, snap } = setup({ [P.refresh]: unauthorized });
    await store.loadSession();
    expect(stub.callsTo(P.refresh)).toHaveLength(0);
    expect(snap()).toMatchObject({ isAuthenticated: false, isLoading: false, user: null });
  });

  it('with the hint, loadSession asks and restores the session', async () => {
    const { store, stub, snap } = setup({ [P.refresh]: () => json(loginResponse('fresh')), [P.me]: () => json(me) }, true);
    await store.loadSession();
    expect(stub.callsTo(P.refresh)).toHaveLength(1);
    expect(snap()).toMatchObject({ isAuthenticated: true, user: { email: 'ada@example.com' } });
  });

  it('is set by a password sign-in, so the next page load asks refresh again', async () => {
    const { store, local } = setup({ [P.login]: () => json(loginResponse('L')), [P.me]: () => json(me) });
    await store.login({ email: 'ada@example.com', password: 'correct horse' });
    expect(local.map.get(KEY)).toBe('1');
  });

  it('is set by the other ways in: SSO and magic-link completions, and a session the loader restored', async () => {
    const sso = setup({ [P.samlPost]: () => json(loginResponse('S')), [P.me]: () => json(me) });
    await sso.store.ssoPostLogin('saml', '?code=one-time');
    expect(sso.snap().isAuthenticated).toBe(true);
    expect(sso.local.map.get(KEY)).toBe('1');
    sso.store.dispose();

    const link = setup({ [P.linkPost]: () => json(loginResponse('M')), [P.me]: () => json(me) });
    await link.store.magicLinkPostLogin('magic-token');
    expect(link.snap().isAuthenticated).toBe(true);
    expect(link.local.map.get(KEY)).toBe('1');
    link.store.dispose();

    const restored = setup({});
    restored.store.hydrate({ login: loginResponse(), me });
    expect(restored.local.map.get(KEY)).toBe('1');
  });

  it('is cleared by signing out, even when the logout call never comes back (hosted logout leaves the page)', async () => {
    const { store, local } = setup({ [P.logout]: () => new Promise<Response>(() => undefined) }, true);
    store.hydrate({ login: loginResponse(), me });
    void store.logout();
    expect(local.map.has(KEY)).toBe(false);
  });

  it('is cleared when the server answers a background refresh with 401', async () => {
    const { store, clock, local, snap } = setup({ [P.refresh]: unauthorized }, true);
    store.hydrate({ login: loginResponse(), me });
    await clock.advance(270_000);
    expect(snap().isAuthenticated).toBe(false);
    expect(local.map.has(KEY)).toBe(false);
  });

  it('is kept when a refresh fails on the network, so the next load still asks for the session', async () => {
    const { store, clock, local, snap } = setup({ [P.refresh]: () => Promise.reject(new TypeError('fetch failed')) }, true);
    store.hydrate({ login: loginResponse(), me });
    await clock.advance(270_000);
    expect(snap().isAuthenticated).toBe(false);
    expect(local.map.get(KEY)).toBe('1');
  });

  it('is cleared when loadSession is told there is no session', async () => {
    const { store, stub, local } = setup({ [P.refresh]: unauthorized }, true);
    await store.loadSession();
    expect(stub.callsTo(P.refresh)).toHaveLength(1);
    expect(local.map.has(KEY)).toBe(false);
  });
});

describe('createSessionHint', () => {
  it('is kept per Gatehouse base URL and holds no token', () => {
    const local = memoryStorage();
    createSessionHint('https://id.example.com/', local).set();
    expect([...local.map]).toEqual([[`${SESSION_HINT_KEY}:https://id.example.com`, '1']]);
    expect(createSessionHint('https://id.example.com', local).mayHaveSession()).toBe(true);
    expect(createSessionHint('https://other.example.com', local).mayHaveSession()).toBe(false);
  });

  it('without usable storage always asks (the behaviour before the hint)', () => {
    const throwing = { getItem: () => { throw new Error('SecurityError'); }, setItem: () => { throw new Error('QuotaExceededError'); }, removeItem: () => { throw new Error('SecurityError'); } };
    const hint = createSessionHint(BASE, throwing);
    expect(hint.mayHaveSession()).toBe(true);
    expect(() => hint.set()).not.toThrow();
    expect(() => hint.clear()).not.toThrow();
    expect(createSessionHint(BASE, null).mayHaveSession()).toBe(true);
  });
});
