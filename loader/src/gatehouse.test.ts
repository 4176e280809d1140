import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const boot = vi.fn();
// The network import of stage 2 is replaced at the module boundary; SRI itself is proven in e2e.
vi.mock('./assets', async (original) => ({
  ...(await original<typeof import('./assets')>()),
  importWithIntegrity: vi.fn(async () => ({ boot })),
}));

const { initialize, getApp, APP_NOT_FOUND, MISSING_BASE_URL, LOADING_BODY_CLASS, MULTI_APPS_FLAG_OFF } = await import('./gatehouse');
const { isFlagOn } = await import('@gatehouse/shared');
const { CLIENT_ID_HEADER, SDK_HEADER, SDK_MARKER, SOURCE_HEADER } = await import('@gatehouse/shared/constants');
const { APPLICATION_ID_HEADER, FRAMEWORK_HEADER, LOGIN_ALIAS_HEADER, SCOPED_TENANT_HEADER } = await import('../../shared/src/api/client-headers');

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'x-trace-id': 'trace-1' } });
const manifest = { version: '7.78.0', bundles: { runtime: { version: '7.78.0', entry: 'runtime/7.78.0/runtime.js', integrity: 'sha384-x' } } };

let calls: string[] = [];
/** The headers each call was sent with, by URL. */
let sent = new Map<string, Headers>();
let release: () => void;
let signedIn = false;
let meAuthorization: string | null = null;
beforeEach(() => {
  calls = [];
  sent = new Map();
  const gate = new Promise<void>((r) => (release = r));
  signedIn = false;
  meAuthorization = null;
  vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit = {}) => {
    calls.push(url);
    sent.set(url, new Headers(init.headers));
    if (url.endsWith('/identity/resources/users/v2/me')) {
      meAuthorization = new Headers(init.headers).get('authorization');
      return meAuthorization === 'Bearer access-1' ? json({ id: 'u1', email: 'ada@example.com' }) : json({ errors: ['Unauthorized'] }, 401);
    }
    await gate; // nothing answers until every call has started: proves they run in parallel
    if (url.endsWith('cdn-manifest.json')) return json(manifest);
    if (url.endsWith('/flags')) return json({ 'multi-apps-admin-portal': 'on', 'show-passkeys-new': 'true' });
    if (url.includes('/metadata')) return json({ rows: [{ configuration: { theme: { primaryColor: '#123456' } } }] });
    if (url.includes('token/refresh')) return signedIn ? json({ accessToken: 'access-1', expiresIn: 300 }) : json({ errors: ['no session'] }, 401);
    return json({}, 404);
  }));
  boot.mockReset();
  boot.mockResolvedValue({ store: { subscribe: () => () => {}, getSnapshot: () => ({}) }, getState: () => ({ isAuthenticated: false }), destroy: vi.fn() });
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.className = '';
  localStorage.clear();
});
/** What the store leaves in the host page's localStorage once a session was established here. */
const HINT = 'gatehouse-session:https://id.example.com';
const signedInEarlier = () => localStorage.setItem(HINT, '1');

describe('Gatehouse.initialize', () => {
  it('alerts and throws when contextOptions.baseUrl is missing', () => {
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    expect(() => initialize({ contextOptions: { baseUrl: '' } })).toThrow(MISSING_BASE_URL);
    expect(alert).toHaveBeenCalledWith(MISSING_BASE_URL);
  });

  it("keeps an app registry: the same name returns the same app, an unknown one throws 'GatehouseApp not found'", async () => {
    const app = initialize({ contextOptions: { baseUrl: 'https://id.example.com' }, cdnUrl: 'https://id.example.com/cdn/' }, 'registry');
    expect(initialize({ contextOptions: { baseUrl: 'https://other.example.com' } }, 'registry')).toBe(app);
    expect(getApp('registry')).toBe(app);
    expect(() => getApp('nope')).toThrow(APP_NOT_FOUND);
    expect(APP_NOT_FOUND).toBe('GatehouseApp not found');
    release();
    await app.ready;
    app.destroy();
    expect(() => getApp('registry')).toThrow(APP_NOT_FOUND);
  });

  it('adds the loading body class, fetches manifest, flags, metadata and session in parallel, then boots stage 2', async () => {
    signedInEarlier();
    const app = initialize({ contextOptions: { baseUrl: 'https://id.example.com/' }, cdnUrl: 'https://cdn.example.com/cdn' }, 'parallel');
    const loaded = vi.fn();
    app.addOnLoadedListener(loaded);
    expect(document.body.classList.contains(LOADING_BODY_CLASS)).toBe(true);
    await vi.waitFor(() => expect(calls).toHaveLength(4));
    expect(calls.sort()).toEqual([
      'https://cdn.example.com/cdn/cdn-manifest.json',
      'https://id.example.com/flags',
      'https://id.example.com/identity/resources/auth/v1/user/token/refresh',
      'https://id.example.com/metadata?entityName=adminBox',
    ]);
    expect(loaded).not.toHaveBeenCalled();
    release();
    await app.ready;
    expect(document.body.classList.contains(LOADING_BODY_CLASS)).toBe(false);
    expect(loaded).toHaveBeenCalledOnce();
    const ctx = boot.mock.calls[0]![0];
    expect(ctx.session).toBeNull();
    expect(ctx.metadata).toEqual({ theme: { primaryColor: '#123456' } });
    expect(ctx.cdnBase).toBe('https://cdn.example.com/cdn/');
    app.destroy();
  });

  // Regression: the loader once dropped the Authorization header when merging request headers,
  // so a reload after sign-in lost the session.
  it('restores the session: refresh, then me with the new access token as bearer', async () => {
    signedIn = true;
    signedInEarlier();
    const app = initialize({ contextOptions: { baseUrl: 'https://id.example.com' }, cdnUrl: 'https://id.example.com/cdn/' }, 'session');
    release();
    await app.ready;
    expect(meAuthorization).toBe('Bearer access-1');
    expect(boot.mock.calls[0]![0].session).toEqual({ login: { accessToken: 'access-1', expiresIn: 300 }, me: { id: 'u1', email: 'ada@example.com' } });
    app.destroy();
  });

  it('a browser that never signed in here (no session hint) does not ask refresh, so no 401 is logged', async () => {
    const app = initialize({ contextOptions: { baseUrl: 'https://id.example.com' }, cdnUrl: 'https://id.example.com/cdn/' }, 'signed-out');
    await vi.waitFor(() => expect(calls).toHaveLength(3));
    release();
    await app.ready;
    expect(calls.some((url) => url.includes('token/refresh'))).toBe(false);
    expect(boot.mock.calls[0]![0].session).toBeNull();
    app.destroy();
  });

  it('drops the hint when refresh answers 401, so the next load does not ask again', async () => {
    signedInEarlier();
    const app = initialize({ contextOptions: { baseUrl: 'https://id.example.com' }, cdnUrl: 'https://id.example.com/cdn/' }, 'ended');
    release();
    await app.ready;
    expect(calls.filter((url) => url.includes('token/refresh'))).toHaveLength(1);
    expect(boot.mock.calls[0]![0].session).toBeNull();
    expect(localStorage.getItem(HINT)).toBeNull();
    app.destroy();
  });

  it('keeps the hint when refresh could not be asked (network), so a good session is not given up', async () => {
    signedInEarlier();
    const fetchStub = globalThis.fetch as ReturnType<typeof vi.fn>;
    const answer = fetchStub.getMockImplementation() as (url: string, init?: RequestInit) => Promise<Response>;
    fetchStub.mockImplementation(async (url: string, init?: RequestInit) => {
      if (url.includes('token/refresh')) throw new TypeError('Failed to fetch');
      return answer(url, init);
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const app = initialize({ contextOptions: { baseUrl: 'https://id.example.com' }, cdnUrl: 'https://id.example.com/cdn/' }, 'offline');
    release();
    await app.ready;
    expect(boot.mock.calls[0]![0].session).toBeNull();
    expect(localStorage.getItem(HINT)).toBe('1');
    app.destroy();
    vi.mocked(console.error).mockRestore();
  });

  it("passes flags through and counts a flag as on only when its value is the string 'on'", async () => {
    const app = initialize({ contextOptions: { baseUrl: 'https://id.example.com' }, cdnUrl: 'https://id.example.com/cdn/' }, 'flags');
    release();
    await app.ready;
    const { flags } = boot.mock.calls[0]![0];
    expect(isFlagOn(flags, 'multi-apps-admin-portal')).toBe(true);
    expect(isFlagOn(flags, 'show-passkeys-new')).toBe(false); // 'true' is not 'on'
    expect(isFlagOn(flags, 'missing')).toBe(false);
    expect(isFlagOn({ x: 'ON' }, 'x')).toBe(false);
    app.destroy();
  });

  it('shows the admin portal in multi-app mode only while the flag multi-apps-admin-portal is on; off, the normal portal opens with a warning naming the flag', async () => {
    let flags: Record<string, 'on' | 'off'> = { 'multi-apps-admin-portal': 'on' };
    const showAdminPortal = vi.fn(async () => undefined);
    boot.mockResolvedValue({ store: { subscribe: () => () => {}, getSnapshot: () => ({}) }, featureFlags: () => flags, showAdminPortal, destroy: vi.fn() });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const app = initialize({ contextOptions: { baseUrl: 'https://id.example.com' }, cdnUrl: 'https://id.example.com/cdn/' }, 'multi-apps');
    release();
    await app.showMultiAppsAdminPortal();
    expect(showAdminPortal).toHaveBeenLastCalledWith({ multiApps: true });
    expect(warn).not.toHaveBeenCalled();

    // The caller's flags as they are now (a user's flags replace the anonymous ones after sign-in).
    flags = { 'multi-apps-admin-portal': 'off' };
    await app.showMultiAppsAdminPortal();
    expect(showAdminPortal).toHaveBeenLastCalledWith({ multiApps: false });
    expect(warn).toHaveBeenCalledWith(MULTI_APPS_FLAG_OFF);

    flags = {};
    await app.showMultiAppsAdminPortal();
    expect(showAdminPortal).toHaveBeenLastCalledWith({ multiApps: false });
    expect(warn).toHaveBeenCalledTimes(2);

    // The plain call never asks for multi-app mode.
    flags = { 'multi-apps-admin-portal': 'on' };
    await app.showAdminPortal();
    expect(showAdminPortal).toHaveBeenLastCalledWith();
    warn.mockRestore();
    app.destroy();
  });

  it("sends the seed's client headers (section 7.3) with stage 1's API calls, as the runtime's client does, and none with the CDN manifest", async () => {
    signedIn = true;
    signedInEarlier();
    window.history.replaceState(null, '', '/dashboard?tenantId=t-9');
    const app = initialize(
      { contextOptions: { baseUrl: 'https://id.example.com', clientId: 'my-app', loginAlias: 'acme', applicationId: 'app-1' }, framework: '@gatehouse/react@1.0.0', cdnUrl: 'https://cdn.example.com/cdn/' },
      'client-headers',
    );
    release();
    await app.ready;
    const expected = {
      [SOURCE_HEADER]: 'gatehouse-loader',
      [SDK_HEADER]: SDK_MARKER,
      [CLIENT_ID_HEADER]: 'my-app',
      [SCOPED_TENANT_HEADER]: 't-9',
      [LOGIN_ALIAS_HEADER]: 'acme',
      [APPLICATION_ID_HEADER]: 'app-1',
      [FRAMEWORK_HEADER]: '@gatehouse/react@1.0.0',
    };
    const api = [...sent.keys()].filter((url) => url.startsWith('https://id.example.com/'));
    expect(api.sort()).toEqual([
      'https://id.example.com/flags',
      'https://id.example.com/identity/resources/auth/v1/user/token/refresh',
      'https://id.example.com/identity/resources/users/v2/me',
      'https://id.example.com/metadata?entityName=adminBox',
    ]);
    for (const url of api) expect(Object.fromEntries(Object.keys(expected).map((name) => [name, sent.get(url)!.get(name)])), url).toEqual(expected);
    // The bearer token of the profile call is kept beside them.
    expect(meAuthorization).toBe('Bearer access-1');
    const manifestHeaders = sent.get('https://cdn.example.com/cdn/cdn-manifest.json')!;
    expect([...manifestHeaders.keys()].filter((name) => name.startsWith('x-gatehouse-'))).toEqual([]);
    window.history.replaceState(null, '', '/');
    app.destroy();
  });

  it('leaves out a client header whose value fetch would refuse or that is over 256 characters, and those not set', async () => {
    const app = initialize(
      { contextOptions: { baseUrl: 'https://id.example.com', loginAlias: 'acmé', applicationId: 'a'.repeat(257) }, framework: 'ok\nno', cdnUrl: 'https://cdn.example.com/cdn/' },
      'client-headers-invalid',
    );
    release();
    await app.ready;
    const flags = sent.get('https://id.example.com/flags')!;
    expect([LOGIN_ALIAS_HEADER, APPLICATION_ID_HEADER, FRAMEWORK_HEADER, CLIENT_ID_HEADER, SCOPED_TENANT_HEADER].map((name) => flags.get(name))).toEqual([null, null, null, null, null]);
    expect(flags.get(SDK_HEADER)).toBe(SDK_MARKER);
    app.destroy();
  });
});
