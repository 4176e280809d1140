import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BootContext } from './types';

const boot = vi.fn();
/** Entry URLs whose import fails, as a file failing its integrity check does. */
const failing = new Set<string>();
const imported: string[] = [];
// The network import is replaced at the module boundary (as in gatehouse.test.ts); SRI itself is proven in e2e/cdn-rollouts.e2e.test.ts.
vi.mock('./assets', async (original) => ({
  ...(await original<typeof import('./assets')>()),
  importWithIntegrity: vi.fn(async (base: string, entry: string) => {
    const url = new URL(entry, base).href;
    imported.push(url);
    if (failing.has(url)) throw new Error(`Failed to load ${url}: integrity (integrity check or network error)`);
    return entry.startsWith('runtime/') ? { boot } : { container: url };
  }),
}));
const { initialize } = await import('./gatehouse');

const CDN = 'https://cdn.example.com/cdn/';
/** The pin key of 'tenant-a' (base64url of SHA-256, see versions.test.ts). */
const TENANT_A_PIN_KEY = 'gKcHr33HfuEij5EnGA85ZINeW-tMSrDYEvD-dZNXmzo';
const descriptor = (bundle: string, version: string, entry = 'remoteEntry.js') => ({ version, entry: `${bundle}/${version}/${entry}`, integrity: `sha384-${bundle}-${version}` });
const manifest = {
  version: '7.78.0',
  bundles: {
    runtime: { ...descriptor('runtime', '7.78.0', 'runtime.js'), canary: { version: '7.79.0', percent: 100 }, versions: { '7.79.0': descriptor('runtime', '7.79.0', 'runtime.js') } },
    'login-box': { ...descriptor('login-box', '7.78.0'), previous: '7.77.0', pins: { [TENANT_A_PIN_KEY]: '7.77.0' }, versions: { '7.77.0': descriptor('login-box', '7.77.0') } },
  },
};

let signedIn = false;
beforeEach(() => {
  signedIn = false;
  failing.clear();
  imported.length = 0;
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url.endsWith('cdn-manifest.json')) return json(manifest);
    if (url.includes('token/refresh')) return signedIn ? json({ accessToken: 'a1', expiresIn: 300 }) : json({}, 401);
    if (url.endsWith('/users/v2/me')) return json({ id: 'u1', tenantId: 'tenant-a' });
    return json({});
  }));
  boot.mockReset();
  boot.mockImplementation(async () => ({ store: { subscribe: () => () => {}, getSnapshot: () => ({}) }, destroy: vi.fn() }));
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  vi.restoreAllMocks();
});

const start = async (name: string) => {
  const app = initialize({ contextOptions: { baseUrl: 'https://id.example.com' }, cdnUrl: CDN }, name);
  await app.ready;
  return { app, ctx: boot.mock.calls[0]![0] as BootContext };
};

describe('version choice in stage 1', () => {
  it("loads the chosen version after the session call: the canary runtime, the signed-in user's tenant's pinned login box", async () => {
    signedIn = true;
    localStorage.setItem('gatehouse-session:https://id.example.com', '1');
    const { app, ctx } = await start('chosen');
    expect(imported).toEqual([`${CDN}runtime/7.79.0/runtime.js`]);
    // The runtime gets the chosen descriptors: federation registers the pinned login box's entry.
    expect(ctx.manifest.bundles['login-box']!.entry).toBe('login-box/7.77.0/remoteEntry.js');
    await ctx.importBundle('login-box');
    expect(imported.at(-1)).toBe(`${CDN}login-box/7.77.0/remoteEntry.js`);
    expect(app.errors).toEqual([]);
    app.destroy();
  });

  it('signed out, a pin does not apply (no tenant yet): the default login box', async () => {
    const { app, ctx } = await start('signed-out');
    await ctx.importBundle('login-box');
    expect(imported.at(-1)).toBe(`${CDN}login-box/7.78.0/remoteEntry.js`);
    app.destroy();
  });
});

describe('fallback', () => {
  it('a chosen version that fails falls back once to the default, and the failure is reported by request name with the version', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    failing.add(`${CDN}runtime/7.79.0/runtime.js`);
    const { app, ctx } = await start('fallback');
    expect(imported).toEqual([`${CDN}runtime/7.79.0/runtime.js`, `${CDN}runtime/7.78.0/runtime.js`]);
    expect(boot).toHaveBeenCalledOnce();
    expect(app.errors).toHaveLength(1);
    expect(app.errors[0]!.request).toBe('runtime');
    expect(app.errors[0]!.message).toContain('7.79.0 failed, loading 7.78.0');
    expect(app.errors[0]!.message).toContain(`${CDN}runtime/7.79.0/runtime.js`);
    // From then on the runtime sees the default (its lazy list is registered for what did load).
    expect(ctx.manifest.bundles.runtime!.version).toBe('7.78.0');
    app.destroy();
  });

  it('the fallback happens once: when the default fails too, the load fails with its error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    failing.add(`${CDN}runtime/7.79.0/runtime.js`);
    failing.add(`${CDN}runtime/7.78.0/runtime.js`);
    const app = initialize({ contextOptions: { baseUrl: 'https://id.example.com' }, cdnUrl: CDN }, 'both-fail');
    await expect(app.ready).rejects.toThrow(`Failed to load ${CDN}runtime/7.78.0/runtime.js`);
    expect(imported).toEqual([`${CDN}runtime/7.79.0/runtime.js`, `${CDN}runtime/7.78.0/runtime.js`]);
    app.destroy();
  });

  it('a default version that fails is not retried (there is nothing to fall back to)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { app, ctx } = await start('default-fails');
    failing.add(`${CDN}login-box/7.78.0/remoteEntry.js`);
    await expect(ctx.importBundle('login-box')).rejects.toThrow('integrity');
    expect(imported.filter((url) => url.includes('login-box'))).toEqual([`${CDN}login-box/7.78.0/remoteEntry.js`]);
    expect(app.errors).toEqual([]);
    app.destroy();
  });
});
