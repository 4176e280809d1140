import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../../shared/src/testing/fetch-stub';
import { createGatehouseClient, GatehouseAppNameMismatchError } from './client.js';
import { createTestApp, login, me, ME, REFRESH, SWITCH, type TestApp } from './test/loader-app.js';
import type { LoaderApp } from './types.js';

const apps: TestApp[] = [];
afterEach(() => apps.splice(0).forEach((a) => a.store.dispose()));
const track = (app: TestApp) => (apps.push(app), app);
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('createGatehouseClient', () => {
  it("reads the caller's flags from the loader and follows its change events: no API call of its own, no polling", async () => {
    const app = track(createTestApp({ flags: { 'new-editor': 'off' } }));
    const client = createGatehouseClient({ connect: async () => app });
    let told = 0;
    client.subscribe(() => (told += 1));
    await client.whenReady();
    expect(client.getSnapshot().flags).toEqual({ 'new-editor': 'off' });
    const first = client.getSnapshot();
    // The loader's change event with the same flags (a new object per call) changes nothing.
    app.setFlags({ 'new-editor': 'off' });
    expect(client.getSnapshot()).toBe(first);
    // New flags (the loader fetched them for a new token): one notification, the new value.
    const before = told;
    app.setFlags({ 'new-editor': 'on' });
    expect(told).toBe(before + 1);
    expect(client.getSnapshot().flags).toEqual({ 'new-editor': 'on' });
    // The SDK itself asked the API for nothing (the stub records every call).
    expect(app.calls).toEqual([]);
  });

  it('shows entitlements when the loader tells they loaded, and drops them when it tells they were dropped; nothing is polled', async () => {
    vi.useFakeTimers();
    try {
      const app = track(createTestApp());
      let reads = 0;
      const read = app.getEntitlements;
      app.getEntitlements = () => ((reads += 1), read());
      const client = createGatehouseClient({ connect: async () => app });
      await client.whenReady();
      expect(client.getSnapshot().entitlements).toBeNull();
      // Signed in with nothing loaded yet: the client waits for the loader's event instead of looking again.
      const readsAtStart = reads;
      await vi.advanceTimersByTimeAsync(15_000);
      expect(reads).toBe(readsAtStart);
      const context = { features: { reports: { planIds: ['premium'], expireTime: -1, linkedPermissions: [] } }, plans: {}, permissions: {}, planId: 'premium' };
      app.setEntitlements(context);
      expect(client.getSnapshot().entitlements).toBe(context);
      app.setEntitlements(null);
      expect(client.getSnapshot().entitlements).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('follows a tenant switch through the store: the new user at once, then the flags the loader fetched for the new token', async () => {
    const app = track(createTestApp({ routes: { [SWITCH]: () => json({}), [REFRESH]: () => json(login('t2')), [ME]: () => json(me({ tenantId: 't2' })) } }));
    const client = createGatehouseClient({ connect: async () => app });
    const connected = await client.whenReady();
    await (connected as LoaderApp).store!.switchTenant('t2');
    await settle();
    expect(client.getSnapshot().auth.user?.tenantId).toBe('t2');
    app.setFlags({ beta: 'on' });
    expect(client.getSnapshot().flags).toEqual({ beta: 'on' });
    // Only the switch's own calls went out (PUT tenant, refresh, me), none from the SDK.
    expect(app.calls.map((c) => `${c.method} ${c.url.pathname}`).sort()).toEqual([ME, REFRESH, SWITCH].sort());
  });

  it('a loader that cannot be reached ends loading in an error state, signed out, and tells its subscribers', async () => {
    const client = createGatehouseClient({ connect: () => Promise.reject(new Error('Failed to load the Gatehouse loader')) });
    let told = 0;
    client.subscribe(() => (told += 1));
    expect(client.getSnapshot()).toMatchObject({ status: 'loading', auth: { isLoading: true } });
    await expect(client.whenReady()).rejects.toThrow('Failed to load the Gatehouse loader');
    expect(client.getSnapshot()).toMatchObject({ status: 'error', error: { message: 'Failed to load the Gatehouse loader' }, auth: { isLoading: false, isAuthenticated: false, user: null } });
    expect(told).toBe(1);
  });

  it("refuses a loader app of another name than the client's (seed 000 section 5): an error state, signed out, the other app's user never shown", async () => {
    const other = createTestApp({ name: 'billing', signedIn: { name: 'Other App User' } });
    const client = createGatehouseClient({ name: 'main', connect: async () => other });
    let told = 0;
    client.subscribe(() => (told += 1));
    await expect(client.whenReady()).rejects.toThrow("Gatehouse app name mismatch: the store belongs to the app 'billing', not to 'main'");
    expect(client.getSnapshot()).toMatchObject({ status: 'error', auth: { isLoading: false, isAuthenticated: false, user: null } });
    expect(client.getSnapshot().error).toBeInstanceOf(GatehouseAppNameMismatchError);
    expect(client.app()).toBeNull();
    expect(told).toBe(1);
  });

  it('accepts the app of its own name, the default app when none is given', async () => {
    const named = createGatehouseClient({ name: 'billing', connect: async () => createTestApp({ name: 'billing' }) });
    await expect(named.whenReady()).resolves.toMatchObject({ name: 'billing' });
    const unnamed = createGatehouseClient({ connect: async () => createTestApp() });
    expect(unnamed.name).toBe('default');
    await expect(unnamed.whenReady()).resolves.toMatchObject({ name: 'default' });
  });

  it('keeps the server snapshot signed out and loading, whatever the browser state', async () => {
    const app = track(createTestApp());
    const client = createGatehouseClient({ connect: async () => app });
    await client.whenReady();
    expect(client.getSnapshot().auth.isAuthenticated).toBe(true);
    expect(client.getServerSnapshot()).toMatchObject({ status: 'loading', auth: { isLoading: true, isAuthenticated: false, user: null }, entitlements: null });
  });
});
