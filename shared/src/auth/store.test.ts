import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from './create-gatehouse';
import { createFetchStub, json, type Handler } from '../testing/fetch-stub';
import { createManualTimers, flush } from '../testing/manual-timers';
import { AFTER_AUTH_REDIRECT_KEY } from '../constants';
import type { GatehouseStore } from '../core/types';

const BASE = 'http://api.test';
const P = {
  login: 'POST /identity/resources/auth/v1/user',
  refresh: 'POST /identity/resources/auth/v1/user/token/refresh',
  logout: 'POST /identity/resources/auth/v1/logout',
  me: 'GET /identity/resources/users/v2/me',
  updateMe: 'PUT /identity/resources/users/v2/me',
  image: 'PUT /team/resources/profile/me/image/v1',
  switchTenant: 'PUT /identity/resources/users/v1/tenant',
  signUp: 'POST /identity/resources/users/v1/signUp',
  strategy: 'GET /identity/resources/users/v1/activate/strategy',
  activate: 'POST /identity/resources/users/v1/activate',
  resend: 'POST /identity/resources/users/v1/activate/reset',
  vendor: 'GET /vendors/public',
};

const me = {
  id: 'u1', email: 'ada@example.com', name: 'Ada', username: null, verified: true, tenantId: 't1', tenantIds: ['t1', 't2'], tenants: [],
  phoneNumber: null, address: null, jobTitle: null, profilePictureUrl: null, roles: [], permissions: [], superUser: false,
  mfaEnrolled: false, metadata: null, createdAt: '2026-01-01T00:00:00Z', lastLogin: null,
};
const loginResponse = (token = 'tok-1', extra: Record<string, unknown> = {}) => ({ accessToken: token, expiresIn: 300, expires: '', mfaRequired: false, tenantId: 't1', userId: 'u1', ...extra });
const unauthorized = () => json({ errors: ['Unauthorized'], errorCode: 'ER-01004' }, { status: 401 });

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k), map };
}

let current: GatehouseStore | null = null;
afterEach(() => {
  current?.dispose();
  current = null;
});

function setup(routes: Record<string, Handler | Handler[]>, storageInit: Record<string, string> = {}) {
  const stub = createFetchStub(routes);
  const clock = createManualTimers();
  const navigate = vi.fn();
  const storage = memoryStorage(storageInit);
  const { store, api } = createGatehouse({
    baseUrl: BASE, clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { delayMs: 1 },
    navigate, storage, now: clock.now, timers: clock.timers, getCurrentUrl: () => 'https://app.example.com/account/login',
  });
  current = store;
  return { store, api, stub, clock, navigate, storage, snap: () => store.getSnapshot() };
}

describe('store basics', () => {
  it('memoizes the snapshot and notifies subscribers on change only', async () => {
    const { store, snap } = setup({});
    const first = snap();
    expect(snap()).toBe(first);
    expect(first).toMatchObject({ isLoading: true, isAuthenticated: false, user: null, login: { step: 'preLogin' } });
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    await store.preLogin('ada@example.com');
    expect(listener).toHaveBeenCalled();
    const second = snap();
    expect(second).not.toBe(first);
    expect(snap()).toBe(second);
    unsubscribe();
    listener.mockClear();
    store.resetLogin();
    expect(listener).not.toHaveBeenCalled();
  });

  it('hydrates a session the loader fetched, and hydrates null as signed out', () => {
    const { store, snap, clock } = setup({});
    store.hydrate({ login: loginResponse('h-tok'), me });
    expect(snap()).toMatchObject({ isLoading: false, isAuthenticated: true, user: { id: 'u1', accessToken: 'h-tok', expiresAt: clock.now() + 300_000 } });
    expect(store.getAccessToken()).toBe('h-tok');
    store.hydrate(null);
    expect(snap()).toMatchObject({ isLoading: false, isAuthenticated: false, user: null });
  });

  it('loads the vendor config once', async () => {
    const { store, stub, snap } = setup({ [P.vendor]: () => json({ name: 'Acme', allowSignUps: true }) });
    await Promise.all([store.loadVendor(), store.loadVendor()]);
    await store.loadVendor();
    expect(snap().vendor).toMatchObject({ name: 'Acme', allowSignUps: true });
    expect(stub.callsTo(P.vendor)).toHaveLength(1);
  });
});

describe('loadSession', () => {
  it('refreshes, then loads me with the new token', async () => {
    const { store, stub, snap } = setup({ [P.refresh]: () => json(loginResponse('fresh')), [P.me]: () => json(me) });
    await store.loadSession();
    expect(snap()).toMatchObject({ isLoading: false, isAuthenticated: true, user: { email: 'ada@example.com', accessToken: 'fresh' } });
    expect(stub.callsTo(P.refresh)[0]!.credentials).toBe('include');
    expect(stub.callsTo(P.me)[0]!.headers.get('authorization')).toBe('Bearer fresh');
  });

  it('without a session clears the user and never throws', async () => {
    const { store, stub, snap } = setup({ [P.refresh]: unauthorized });
    await expect(store.loadSession()).resolves.toBeUndefined();
    expect(snap()).toMatchObject({ isLoading: false, isAuthenticated: false, user: null });
    expect(stub.callsTo(P.me)).toHaveLength(0);
  });

  it('retries me 3 times, 2000 ms apart (seed 4.10)', async () => {
    const fail = () => json({ errors: ['db down'] }, { status: 500 });
    const { store, stub, clock, snap } = setup({ [P.refresh]: () => json(loginResponse()), [P.me]: [fail, fail, () => json(me)] });
    const done = store.loadSession();
    await flush();
    expect(stub.callsTo(P.me)).toHaveLength(1);
    await clock.advance(1999);
    expect(stub.callsTo(P.me)).toHaveLength(1);
    await clock.advance(1);
    expect(stub.callsTo(P.me)).toHaveLength(2);
    await clock.advance(2000);
    await done;
    expect(stub.callsTo(P.me)).toHaveLength(3);
    expect(snap().isAuthenticated).toBe(true);
  });

  it('gives up after 3 failed me calls and clears the session', async () => {
    const { store, stub, clock, snap } = setup({ [P.refresh]: () => json(loginResponse()), [P.me]: () => json({ errors: ['x'] }, { status: 500 }) });
    const done = store.loadSession();
    await clock.advance(10_000);
    await done;
    expect(stub.callsTo(P.me)).toHaveLength(3);
    expect(snap()).toMatchObject({ isAuthenticated: false, isLoading: false });
    expect(store.getAccessToken()).toBeNull();
  });
});

describe('login', () => {
  it('preLogin moves to loginWithPassword keeping the email', async () => {
    const { store, snap } = setup({});
    await store.preLogin('  ada@example.com ');
    expect(snap().login).toMatchObject({ step: 'loginWithPassword', email: 'ada@example.com', error: null });
    store.resetLogin();
    expect(snap().login).toMatchObject({ step: 'preLogin', email: 'ada@example.com' });
  });

  it('signs in, loads me and goes to the stored after-auth URL, clearing it', async () => {
    const { store, stub, snap, navigate, storage } = setup({ [P.login]: () => json(loginResponse('L')), [P.me]: () => json(me) }, { [AFTER_AUTH_REDIRECT_KEY]: '/reports?id=7' });
    await store.preLogin('ada@example.com');
    await store.login({ email: 'ada@example.com', password: 'correct horse' });
    expect(stub.callsTo(P.login)[0]!.body).toEqual({ email: 'ada@example.com', password: 'correct horse' });
    expect(stub.callsTo(P.me)[0]!.headers.get('authorization')).toBe('Bearer L');
    expect(snap()).toMatchObject({ isAuthenticated: true, login: { step: 'success', loading: false, error: null } });
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/reports?id=7');
    expect(storage.map.has(AFTER_AUTH_REDIRECT_KEY)).toBe(false);
  });

  it.each([
    ['/account/login?redirectUrl=/x', '/'],
    ['/account/logout', '/'],
    ['/account/activate?userId=1&token=2', '/'],
    ['https://evil.com/phish', '/'],
    ['javascript:alert(1)', '/'],
    [undefined, '/'],
  ])('never goes back to login/logout/activate or off-site: stored %j -> %s', async (stored, expected) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { store, navigate } = setup({ [P.login]: () => json(loginResponse()), [P.me]: () => json(me) }, stored ? { [AFTER_AUTH_REDIRECT_KEY]: stored } : {});
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(navigate).toHaveBeenCalledExactlyOnceWith(expected);
    warn.mockRestore();
  });

  it('shows the server message on failure and keeps the email', async () => {
    const { store, snap, navigate } = setup({ [P.login]: () => json({ errors: ['Invalid email or password'], errorCode: 'ER-01006' }, { status: 401 }) });
    await store.preLogin('ada@example.com');
    const seen: boolean[] = [];
    store.subscribe(() => seen.push(store.getSnapshot().login.loading));
    await store.login({ email: 'ada@example.com', password: 'wrong' });
    expect(seen[0]).toBe(true);
    expect(snap()).toMatchObject({ isAuthenticated: false, login: { step: 'loginWithPassword', email: 'ada@example.com', loading: false, error: 'Invalid email or password' } });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('shows "User is not verified"', async () => {
    const { store, snap } = setup({ [P.login]: () => json({ errors: ['User is not verified'], errorCode: 'ER-01007' }, { status: 400 }) });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(snap().login.error).toBe('User is not verified');
  });

  it('with mfaRequired goes to loginWithTwoFactor and never sets the session', async () => {
    const { store, stub, snap, navigate } = setup({ [P.login]: () => json(loginResponse('mfa-partial', { mfaRequired: true, mfaToken: 'mfa-1' })), [P.me]: () => json(me) });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(snap()).toMatchObject({ isAuthenticated: false, user: null, login: { step: 'loginWithTwoFactor', mfaToken: 'mfa-1' } });
    expect(store.getAccessToken()).toBeNull();
    expect(stub.callsTo(P.me)).toHaveLength(0);
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('sign-up', () => {
  const body = { email: 'new@example.com', password: 'Secret-pass-1', name: 'New', companyName: 'Acme' };

  it('signs in at once when shouldActivate is false and authResponse is present', async () => {
    const { store, snap, navigate } = setup({ [P.signUp]: () => json({ shouldActivate: false, userId: 'u1', tenantId: 't1', authResponse: loginResponse('S') }), [P.me]: () => json(me) });
    await store.signUp(body);
    expect(snap()).toMatchObject({ isAuthenticated: true, user: { accessToken: 'S' }, signUp: { stage: 'SignUp', loading: false } });
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('shows SignUpSuccess with the email when activation is needed', async () => {
    const { store, stub, snap, navigate } = setup({ [P.signUp]: () => json({ shouldActivate: true, userId: 'u1', tenantId: 't1' }) });
    await store.signUp(body);
    expect(stub.callsTo(P.signUp)[0]!.body).toEqual(body);
    expect(snap().signUp).toEqual({ stage: 'SignUpSuccess', loading: false, error: null, email: 'new@example.com' });
    expect(snap().isAuthenticated).toBe(false);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('goes to the one-time-code activation route when a token comes back', async () => {
    const { store, navigate } = setup({ [P.signUp]: () => json({ shouldActivate: true, userId: 'u1', tenantId: 't1', activationToken: 'tk' }) });
    await store.signUp(body);
    expect(navigate).toHaveBeenCalledWith('/account/activate/code?userId=u1&token=tk');
  });

  it('shows the server error', async () => {
    const { store, snap } = setup({ [P.signUp]: () => json({ errors: ['User already exists'] }, { status: 409 }) });
    await store.signUp(body);
    expect(snap().signUp).toMatchObject({ stage: 'SignUp', error: 'User already exists', email: 'new@example.com', loading: false });
  });
});

describe('activation', () => {
  it('asks for a password, activates, signs in, and navigates only after 5000 ms', async () => {
    const { store, stub, snap, clock, navigate } = setup({
      [P.strategy]: () => json({ shouldSetPassword: true }),
      [P.activate]: () => json(loginResponse('A')),
      [P.me]: () => json(me),
    }, { [AFTER_AUTH_REDIRECT_KEY]: '/account/activate' });
    await store.startActivation({ userId: 'u1', token: 'tk' });
    expect(stub.callsTo(P.strategy)[0]!.url.search).toBe('?userId=u1&token=tk');
    expect(snap().activate).toMatchObject({ step: 'activatingForm', loading: false });
    await store.activate({ userId: 'u1', token: 'tk', password: 'Secret-pass-1' });
    expect(stub.callsTo(P.activate)[0]!.body).toEqual({ userId: 'u1', token: 'tk', password: 'Secret-pass-1' });
    expect(snap()).toMatchObject({ isAuthenticated: true, activate: { step: 'success' } });
    await clock.advance(4999);
    expect(navigate).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/');
  });

  it('activates directly when no password is needed', async () => {
    const { store, stub, snap } = setup({ [P.strategy]: () => json({ shouldSetPassword: false }), [P.activate]: () => json(loginResponse()), [P.me]: () => json(me) });
    await store.startActivation({ userId: 'u1', token: 'tk' });
    expect(stub.callsTo(P.activate)[0]!.body).toEqual({ userId: 'u1', token: 'tk' });
    expect(snap().activate.step).toBe('success');
  });

  it('goes to the login route after 1 s when MFA is required', async () => {
    const { store, snap, clock, navigate } = setup({ [P.strategy]: () => json({ shouldSetPassword: false }), [P.activate]: () => json(loginResponse('x', { mfaRequired: true })) });
    await store.startActivation({ userId: 'u1', token: 'tk' });
    expect(snap().isAuthenticated).toBe(false);
    await clock.advance(1000);
    expect(navigate).toHaveBeenCalledWith('/account/login');
  });

  it('fails with the server message for a bad link, then resends', async () => {
    const { store, stub, snap } = setup({
      [P.strategy]: () => json({ errors: ['Activation link is invalid or has expired'], errorCode: 'ER-01009' }, { status: 400 }),
      [P.resend]: () => new Response(null, { status: 204 }),
    });
    await store.startActivation({ userId: 'u1', token: 'bad' });
    expect(snap().activate).toMatchObject({ step: 'failed', error: 'Activation link is invalid or has expired', loading: false });
    await store.resendActivation('ada@example.com');
    expect(stub.callsTo(P.resend)[0]!.body).toEqual({ email: 'ada@example.com' });
    expect(snap().activate).toMatchObject({ step: 'resend', resendSent: true, error: null });
  });

  it('keeps the form with the error when the password is refused', async () => {
    const { store, snap } = setup({ [P.strategy]: () => json({ shouldSetPassword: true }), [P.activate]: () => json({ errors: ['Password must be at least 8 characters'], errorCode: 'ER-01010' }, { status: 400 }) });
    await store.startActivation({ userId: 'u1', token: 'tk' });
    await store.activate({ userId: 'u1', token: 'tk', password: 'short' });
    expect(snap().activate).toMatchObject({ step: 'activatingForm', error: 'Password must be at least 8 characters' });
  });

  it('fails when the token is rejected at activation', async () => {
    const { store, snap } = setup({ [P.strategy]: () => json({ shouldSetPassword: true }), [P.activate]: () => json({ errors: ['Activation link is invalid or has expired'], errorCode: 'ER-01009' }, { status: 400 }) });
    await store.startActivation({ userId: 'u1', token: 'tk' });
    await store.activate({ userId: 'u1', token: 'tk', password: 'Secret-pass-1' });
    expect(snap().activate).toMatchObject({ step: 'failed', error: 'Activation link is invalid or has expired' });
  });
});

describe('logout', () => {
  it('calls the server, clears the user and goes to the login URL', async () => {
    const { store, stub, snap, navigate, clock } = setup({ [P.logout]: () => new Response(null, { status: 204 }) });
    store.hydrate({ login: loginResponse('T'), me });
    await store.logout();
    expect(stub.callsTo(P.logout)[0]!.headers.get('authorization')).toBe('Bearer T');
    expect(snap()).toMatchObject({ isAuthenticated: false, user: null });
    expect(store.getAccessToken()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/account/login');
    expect(clock.pending()).toBe(0);
  });

  it('never throws when the network is down', async () => {
    const { store, snap, navigate } = setup({ [P.logout]: () => { throw new TypeError('fetch failed'); } });
    store.hydrate({ login: loginResponse(), me });
    await expect(store.logout()).resolves.toBeUndefined();
    expect(snap().isAuthenticated).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/account/login');
  });
});

describe('profile and tenants', () => {
  const png = 'data:image/png;base64,iVBORw0KGgo=';

  it('uploads a new base64 image first, then saves the profile', async () => {
    const { store, stub, snap } = setup({
      [P.image]: () => json({ profilePictureUrl: 'https://cdn.test/p/u1.png' }),
      [P.updateMe]: (req) => json({ ...me, ...(req.body as object) }),
    });
    store.hydrate({ login: loginResponse(), me });
    await store.updateProfile({ name: 'Ada L', profileImage: png });
    expect(stub.callsTo(P.image)[0]!.body).toEqual({ profileImage: png });
    expect(stub.callsTo(P.updateMe)[0]!.body).toEqual({ name: 'Ada L', profilePictureUrl: 'https://cdn.test/p/u1.png' });
    expect(snap().profile).toEqual({ saving: false, error: null, saved: true });
    expect(snap().user).toMatchObject({ name: 'Ada L', profilePictureUrl: 'https://cdn.test/p/u1.png', accessToken: 'tok-1' });
  });

  it('does not upload an unchanged or non-data-URL image', async () => {
    const { store, stub } = setup({ [P.updateMe]: () => json(me) });
    store.hydrate({ login: loginResponse(), me: { ...me, profilePictureUrl: png } });
    await store.updateProfile({ name: 'A', profileImage: png });
    await store.updateProfile({ name: 'A', profileImage: 'https://elsewhere/x.png' });
    expect(stub.callsTo(P.image)).toHaveLength(0);
    expect(stub.callsTo(P.updateMe)).toHaveLength(2);
  });

  it('reports a save error', async () => {
    const { store, snap } = setup({ [P.image]: () => json({ errors: ['too big'] }, { status: 413 }) });
    store.hydrate({ login: loginResponse(), me });
    await store.updateProfile({ profileImage: png });
    expect(snap().profile).toEqual({ saving: false, error: 'Error request is too large', saved: false });
  });

  it('switches tenant: PUT tenant, refresh for it, reload me', async () => {
    const { store, stub, snap } = setup({
      [P.switchTenant]: () => new Response(null, { status: 204 }),
      [P.refresh]: () => json(loginResponse('t2-token', { tenantId: 't2' })),
      [P.me]: () => json({ ...me, tenantId: 't2' }),
    });
    store.hydrate({ login: loginResponse(), me });
    await store.switchTenant('t2');
    expect(stub.callsTo(P.switchTenant)[0]!.body).toEqual({ tenantId: 't2' });
    expect(stub.callsTo(P.refresh)[0]!.body).toEqual({ tenantId: 't2' });
    expect(snap().user).toMatchObject({ tenantId: 't2', accessToken: 't2-token' });
  });
});

describe('token refresh', () => {
  it('refreshes before the access token expires and reschedules', async () => {
    const { store, stub, clock } = setup({ [P.refresh]: [() => json(loginResponse('r1')), () => json(loginResponse('r2'))] });
    store.hydrate({ login: loginResponse('t0'), me });
    expect(clock.delays()).toEqual([270_000]);
    await clock.advance(269_999);
    expect(stub.callsTo(P.refresh)).toHaveLength(0);
    await clock.advance(1);
    expect(store.getAccessToken()).toBe('r1');
    expect(store.getSnapshot().user?.accessToken).toBe('r1');
    await clock.advance(270_000);
    expect(store.getAccessToken()).toBe('r2');
    expect(stub.callsTo(P.refresh)[1]!.headers.get('authorization')).toBe('Bearer r1');
  });

  it('clears the user when the refresh fails', async () => {
    const { store, clock, snap } = setup({ [P.refresh]: unauthorized });
    store.hydrate({ login: loginResponse(), me });
    await clock.advance(270_000);
    expect(snap()).toMatchObject({ isAuthenticated: false, user: null });
  });

  it('dispose cancels every timer and listener', async () => {
    const { store, clock } = setup({ [P.strategy]: () => json({ shouldSetPassword: false }), [P.activate]: () => json(loginResponse()), [P.me]: () => json(me) });
    await store.startActivation({ userId: 'u1', token: 'tk' });
    expect(clock.pending()).toBe(2); // token refresh + activation redirect
    const listener = vi.fn();
    store.subscribe(listener);
    store.dispose();
    expect(clock.pending()).toBe(0);
    await store.preLogin('x@example.com');
    expect(listener).not.toHaveBeenCalled();
  });
});
