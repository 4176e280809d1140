import { afterEach, beforeEach, expect, it, vi } from 'vitest';

const boot = vi.fn();
// The network import of stage 2 is replaced at the module boundary; SRI itself is proven in e2e.
vi.mock('./assets', async (original) => ({
  ...(await original<typeof import('./assets')>()),
  importWithIntegrity: vi.fn(async () => ({ boot })),
}));

const { initialize } = await import('./gatehouse');

const manifest = { version: '7.78.0', bundles: { runtime: { version: '7.78.0', entry: 'runtime/7.78.0/runtime.js', integrity: 'sha384-x' } } };
let calls: string[] = [];
beforeEach(() => {
  calls = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    calls.push(url);
    return url.endsWith('cdn-manifest.json') ? new Response(JSON.stringify(manifest), { headers: { 'content-type': 'application/json' } }) : new Response('{}', { status: 404 });
  }));
  boot.mockReset();
  boot.mockResolvedValue({ store: { subscribe: () => () => {}, getSnapshot: () => ({}) }, getState: () => ({ isAuthenticated: false }), destroy: vi.fn() });
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

it('calls no API in preview mode, not even flags, metadata or the session (a browser that signed in before included): only the CDN manifest', async () => {
  localStorage.setItem('gatehouse-session:https://id.example.com', '1');
  const app = initialize({ contextOptions: { baseUrl: 'https://id.example.com' }, cdnUrl: 'https://cdn.example.com/cdn/', previewMode: true }, 'preview-stage-1');
  await app.ready;
  expect(calls).toEqual(['https://cdn.example.com/cdn/cdn-manifest.json']);
  expect(boot).toHaveBeenCalledWith(expect.objectContaining({ flags: {}, metadata: {}, session: null }));
  app.destroy();
});

it('still asks flags, metadata and the session without preview mode (the control of the test above)', async () => {
  localStorage.setItem('gatehouse-session:https://id.example.com', '1');
  const app = initialize({ contextOptions: { baseUrl: 'https://id.example.com' }, cdnUrl: 'https://cdn.example.com/cdn/' }, 'preview-control');
  await app.ready;
  expect(calls.filter((url) => url.startsWith('https://id.example.com/')).length).toBeGreaterThanOrEqual(3);
  app.destroy();
});
