import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const boot = vi.fn();
// The network import of stage 2 is replaced at the module boundary (as in gatehouse.test.ts): this
// proves stage 1's part; the runtime mounting the real checkout bundle is e2e/checkout.e2e.test.ts.
vi.mock('./assets', async (original) => ({
  ...(await original<typeof import('./assets')>()),
  importWithIntegrity: vi.fn(async () => ({ boot })),
}));
const { initialize } = await import('./gatehouse');

const manifest = { version: '7.78.0', bundles: { runtime: { version: '7.78.0', entry: 'runtime/7.78.0/runtime.js', integrity: 'sha384-x' } } };
let release: () => void;
const shown: Array<{ planId: string }> = [];
let hidden = 0;

beforeEach(() => {
  const gate = new Promise<void>((r) => (release = r));
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    await gate;
    return new Response(JSON.stringify(url.endsWith('cdn-manifest.json') ? manifest : {}), { headers: { 'content-type': 'application/json' } });
  }));
  shown.length = 0;
  hidden = 0;
  boot.mockReset();
  boot.mockResolvedValue({
    store: { subscribe: () => () => {}, getSnapshot: () => ({}) },
    getState: () => ({ isAuthenticated: true }),
    showCheckoutDialog: async (options: { planId: string }) => void shown.push(options),
    hideCheckoutDialog: () => void hidden++,
    destroy: vi.fn(),
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('app.showCheckoutDialog / hideCheckoutDialog', () => {
  it('waits for the runtime, then hands the plan to it; hide before the runtime is up is a no-op', async () => {
    const app = initialize({ contextOptions: { baseUrl: 'https://id.example.com' }, cdnUrl: 'https://id.example.com/cdn/' }, 'checkout');
    app.hideCheckoutDialog();
    const showing = app.showCheckoutDialog({ planId: 'plan-premium' });
    await Promise.resolve();
    expect(shown).toEqual([]);
    release();
    await showing;
    expect(shown).toEqual([{ planId: 'plan-premium' }]);
    expect(hidden).toBe(0);
    app.hideCheckoutDialog();
    expect(hidden).toBe(1);
    app.destroy();
  });
});
