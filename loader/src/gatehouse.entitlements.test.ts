import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from '@gatehouse/shared';
import { ENTITLEMENTS_DISABLED_MESSAGE } from '@gatehouse/shared/admin-paths';
import { createFetchStub, json } from '../../shared/src/testing/fetch-stub';
import { createEntitlements } from './runtime/entitlements';
import type { LoadedEntitlements } from './types';

const boot = vi.fn();
// The network import of stage 2 is replaced at the module boundary (as in gatehouse.test.ts); the
// runtime handle it returns carries the real entitlements loader over a stubbed server.
vi.mock('./assets', async (original) => ({
  ...(await original<typeof import('./assets')>()),
  importWithIntegrity: vi.fn(async () => ({ boot })),
}));
const { initialize } = await import('./gatehouse');

const BASE = 'https://id.example.com';
const manifest = { version: '7.78.0', bundles: { runtime: { version: '7.78.0', entry: 'runtime/7.78.0/runtime.js', integrity: 'sha384-x' } } };
const context = {
  features: { reports: { planIds: ['premium'], expireTime: -1, linkedPermissions: ['fe.reports.read'] } },
  plans: { premium: { defaultTreatment: 'true' } },
  permissions: { 'fe.reports.read': true, 'fe.billing.read': true },
};

let release: () => void;
let loaded: LoadedEntitlements | null;
beforeEach(async () => {
  const gate = new Promise<void>((r) => (release = r));
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    await gate;
    if (url.endsWith('cdn-manifest.json')) return json(manifest);
    return json({});
  }));
  // The runtime's loader, filled from a server answering GET entitlements v2.
  const stub = createFetchStub({ 'GET /entitlements/resources/user-entitlements/v2': () => json(context) });
  const { api } = createGatehouse({ baseUrl: BASE, clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', navigate: () => undefined, storage: null });
  const loader = createEntitlements(api, () => null);
  await loader.load('u1\nt1');
  loaded = loader.loaded();
  boot.mockReset();
  boot.mockResolvedValue({ store: { subscribe: () => () => {}, getSnapshot: () => ({}) }, getState: () => ({}), entitlements: () => loaded, destroy: vi.fn() });
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.className = '';
});

const start = (name: string, entitlementsOptions?: { enabled: boolean }) =>
  initialize({ contextOptions: { baseUrl: BASE }, cdnUrl: `${BASE}/cdn/`, ...(entitlementsOptions && { entitlementsOptions }) }, name);

describe('app entitlement methods', () => {
  it.each([
    ['without the option', undefined],
    ['with enabled: false', { enabled: false }],
  ])('throw the error telling the host to enable entitlements (%s), before and after the runtime started', async (name, option) => {
    const app = start(`off-${name}`, option);
    const calls = [
      () => app.getEntitlements(),
      () => app.isEntitledTo({ featureKey: 'reports' }),
      () => app.getFeatureEntitlements('reports'),
      () => app.getPermissionEntitlements('fe.reports.read'),
    ];
    for (const call of calls) expect(call).toThrow(ENTITLEMENTS_DISABLED_MESSAGE);
    release();
    await app.ready;
    for (const call of calls) expect(call).toThrow(new Error(ENTITLEMENTS_DISABLED_MESSAGE));
    expect(ENTITLEMENTS_DISABLED_MESSAGE).toMatch(/entitlementsOptions: \{ enabled: true \}/);
    app.destroy();
  });

  it('answer "not entitled" until the entitlements are loaded: no data is MISSING_FEATURE or MISSING_PERMISSION, and explain says why', async () => {
    const app = start('not-yet', { enabled: true });
    expect(app.getEntitlements()).toBeNull();
    expect(app.isEntitledTo({ featureKey: 'reports' })).toEqual({ isEntitled: false, justification: 'MISSING_FEATURE' });
    expect(app.getPermissionEntitlements('fe.reports.read')).toEqual({ isEntitled: false, justification: 'MISSING_PERMISSION' });
    expect(app.getFeatureEntitlements('reports', {}, { explain: true })).toEqual({
      isEntitled: false,
      justification: 'MISSING_FEATURE',
      explanation: [{ source: 'none', reason: 'Entitlements are not loaded yet' }],
    });
    // The runtime started but nothing loaded yet (e.g. signed out): the same answers.
    loaded = null;
    release();
    await app.ready;
    expect(app.getEntitlements()).toBeNull();
    expect(app.isEntitledTo({ permissionKey: 'fe.reports.read' })).toMatchObject({ isEntitled: false, justification: 'MISSING_PERMISSION' });
    app.destroy();
  });

  it("answer from the runtime's loaded entitlements once there: getEntitlements, isEntitledTo, getFeatureEntitlements, getPermissionEntitlements", async () => {
    const app = start('loaded', { enabled: true });
    release();
    await app.ready;
    expect(app.getEntitlements()).toEqual({ ...context, planId: null });
    expect(app.isEntitledTo({ featureKey: 'reports' })).toEqual({ isEntitled: true });
    expect(app.isEntitledTo({ featureKey: 'exports' })).toMatchObject({ isEntitled: false, justification: 'MISSING_FEATURE' });
    expect(app.getFeatureEntitlements('reports')).toEqual({ isEntitled: true });
    expect(app.getPermissionEntitlements('fe.reports.read')).toMatchObject({ isEntitled: true });
    expect(app.getPermissionEntitlements('fe.users.delete')).toMatchObject({ isEntitled: false, justification: 'MISSING_PERMISSION' });
    const explained = app.isEntitledTo({ featureKey: 'reports' }, { seats: 3 }, { explain: true });
    expect(explained.isEntitled).toBe(true);
    expect(explained.explanation).toEqual(expect.arrayContaining([expect.objectContaining({ source: 'direct', featureKey: 'reports' })]));
    app.destroy();
  });
});

describe('app change API (the React SDK reads flags and entitlements through it)', () => {
  it("getFeatureFlags gives the runtime's current flags once loaded (null before), and subscribe's listeners hear every change the runtime reports until unsubscribed", async () => {
    let flags: Record<string, 'on' | 'off'> = { beta: 'off' };
    boot.mockResolvedValue({ store: { subscribe: () => () => {}, getSnapshot: () => ({}) }, getState: () => ({}), entitlements: () => loaded, featureFlags: () => flags, destroy: vi.fn() });
    const app = start('changes', { enabled: true });
    expect(app.getFeatureFlags()).toBeNull();
    const first = vi.fn();
    const second = vi.fn();
    // Subscribing before the runtime is there: the listener hears the changes it reports later.
    const unsubscribe = app.subscribe(first);
    app.subscribe(second);
    release();
    await app.ready;
    expect(app.getFeatureFlags()).toEqual({ beta: 'off' });
    const { notifyChange } = boot.mock.calls[0]![0] as { notifyChange(): void };
    flags = { beta: 'on' };
    notifyChange();
    expect(app.getFeatureFlags()).toEqual({ beta: 'on' });
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
    unsubscribe();
    notifyChange();
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(2);
    app.destroy();
  });
});
