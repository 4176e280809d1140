import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse, type GatehouseStore } from '@gatehouse/shared';
import { EntitlementPaths } from '@gatehouse/shared/admin-paths';
import { createFetchStub, json, type Handler } from '../../../shared/src/testing/fetch-stub';
import { watchCaller, type CallerData } from './caller-data';

const BASE = 'https://id.example.com';
const P = {
  flags: 'GET /flags',
  entitlements: `GET ${EntitlementPaths.userEntitlements}`,
  refresh: 'POST /identity/resources/auth/v1/user/token/refresh',
  switchTenant: 'PUT /identity/resources/users/v1/tenant',
  me: 'GET /identity/resources/users/v2/me',
  logout: 'POST /identity/resources/auth/v1/logout',
};
const me = {
  id: 'u1', email: 'ada@example.com', name: 'Ada', username: null, verified: true, tenantId: 't1', tenantIds: ['t1', 't2'], tenants: [],
  phoneNumber: null, address: null, jobTitle: null, profilePictureUrl: null, roles: [], permissions: [], superUser: false,
  mfaEnrolled: false, metadata: null, createdAt: '2026-01-01T00:00:00Z', lastLogin: null,
};
const login = (token: string) => ({ accessToken: token, expiresIn: 300, expires: '', mfaRequired: false, tenantId: 't1', userId: 'u1' });
const ANONYMOUS = { 'show-passkeys-new': 'off' };
const context = (feature: string) => ({ features: { [feature]: { planIds: ['p'], expireTime: -1, linkedPermissions: [] } }, plans: { p: { defaultTreatment: 'true' } }, permissions: {} });
/** Answers by the bearer token: the flags and entitlements of whoever holds it. */
const byToken = (answer: (token: string) => unknown): Handler => (req) => json(answer(req.headers.get('authorization')!.replace('Bearer ', '')));

/** The store's timers, held: `fire()` runs what is scheduled (the token refresh) at once. */
function heldTimers() {
  const queue = new Map<number, () => void>();
  let id = 0;
  const timers = {
    setTimeout: (callback: () => void) => (queue.set(++id, callback), id),
    clearTimeout: (handle: unknown) => void queue.delete(handle as number),
  };
  return {
    timers,
    fire() {
      const due = [...queue.values()];
      queue.clear();
      for (const callback of due) callback();
    },
  };
}
/** Lets pending fetches and promise chains settle. */
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 20));

const running: Array<{ store: GatehouseStore; caller: CallerData }> = [];
afterEach(() => {
  for (const { store, caller } of running.splice(0)) {
    caller.stop();
    store.dispose();
  }
});

function setup(routes: Record<string, Handler | Handler[]>, entitlementsEnabled = true) {
  const stub = createFetchStub({ [P.logout]: () => json({}), ...routes });
  const clock = heldTimers();
  const { store, api } = createGatehouse({
    baseUrl: BASE, clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1 },
    navigate: () => undefined, storage: null, timers: clock.timers,
  });
  /** The store refreshes its token before expiry: that moment, now. */
  const refreshToken = async (token: string) => {
    clock.fire();
    await vi.waitFor(() => expect(store.getAccessToken()).toBe(token));
  };
  const onFlags = vi.fn();
  const onEntitlements = vi.fn();
  const start = () => {
    const caller = watchCaller({ store, api, anonymousFlags: ANONYMOUS, entitlementsEnabled, onFlags, onEntitlements });
    running.push({ store, caller });
    return caller;
  };
  const bearers = (key: string) => stub.callsTo(key).map((c) => c.headers.get('authorization'));
  return { store, stub, refreshToken, onFlags, onEntitlements, start, bearers };
}

describe('per-caller flags and entitlements', () => {
  it('loads nothing while signed out and keeps the anonymous flags', async () => {
    const { stub, start, onFlags } = setup({});
    const caller = start();
    await flush();
    expect(stub.calls).toHaveLength(0);
    expect(caller.flags()).toBe(ANONYMOUS);
    expect(caller.entitlements()).toBeNull();
    expect(onFlags).not.toHaveBeenCalled();
  });

  it("at sign-in fetches /flags and entitlements v2 with the caller's bearer token, and hands the caller's flags on", async () => {
    const { store, start, onFlags, bearers } = setup({
      [P.flags]: byToken((t) => ({ 'show-passkeys-new': 'on', tenant: t })),
      [P.entitlements]: byToken(() => context('reports')),
    });
    store.hydrate({ login: login('tok-1'), me });
    const caller = start();
    await vi.waitFor(() => expect(caller.entitlements()).not.toBeNull());
    expect(bearers(P.flags)).toEqual(['Bearer tok-1']);
    expect(bearers(P.entitlements)).toEqual(['Bearer tok-1']);
    expect(caller.flags()).toEqual({ 'show-passkeys-new': 'on', tenant: 'tok-1' });
    expect(onFlags).toHaveBeenCalledWith({ 'show-passkeys-new': 'on', tenant: 'tok-1' });
    expect(caller.entitlements()!.get().features).toHaveProperty('reports');
  });

  it('loads both again with every token refresh, answering from the newest token', async () => {
    const { store, refreshToken, start, bearers } = setup({
      [P.refresh]: [() => json(login('tok-2'))],
      [P.flags]: byToken((t) => ({ by: t })),
      [P.entitlements]: byToken((t) => context(`feature-of-${t}`)),
    });
    store.hydrate({ login: login('tok-1'), me });
    const caller = start();
    await vi.waitFor(() => expect(caller.entitlements()).not.toBeNull());
    await refreshToken('tok-2');
    await vi.waitFor(() => expect(caller.entitlements()!.get().features).toHaveProperty('feature-of-tok-2'));
    expect(bearers(P.entitlements)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(bearers(P.flags)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(caller.flags()).toEqual({ by: 'tok-2' });
  });

  it('loads both again after a tenant switch, dropping the old tenant’s entitlements at once', async () => {
    let releaseT2!: () => void;
    const t2Held = new Promise<void>((r) => (releaseT2 = r));
    const { store, start, bearers } = setup({
      [P.switchTenant]: () => new Response(null, { status: 200 }),
      [P.refresh]: () => json(login('tok-t2')),
      [P.me]: () => json({ ...me, tenantId: 't2' }),
      [P.flags]: byToken((t) => ({ by: t })),
      [P.entitlements]: [byToken(() => context('t1-feature')), async (req) => (await t2Held, byToken(() => context('t2-feature'))(req))],
    });
    store.hydrate({ login: login('tok-t1'), me });
    const caller = start();
    await vi.waitFor(() => expect(caller.entitlements()).not.toBeNull());
    await store.switchTenant('t2');
    await vi.waitFor(() => expect(bearers(P.entitlements)).toEqual(['Bearer tok-t1', 'Bearer tok-t2']));
    // Another tenant: the first tenant's value is gone before the second's arrives.
    expect(caller.entitlements()).toBeNull();
    releaseT2();
    await vi.waitFor(() => expect(caller.entitlements()!.get().features).toHaveProperty('t2-feature'));
    expect(caller.flags()).toEqual({ by: 'tok-t2' });
  });

  it('ignores failed loads: the last good flags and entitlements stay', async () => {
    const { store, refreshToken, start, onFlags, bearers } = setup({
      [P.refresh]: () => json(login('tok-2')),
      [P.flags]: [() => json({ beta: 'on' }), () => json({ errors: ['down'] }, { status: 500 })],
      [P.entitlements]: [() => json(context('reports')), () => json({ errors: ['down'] }, { status: 500 })],
    });
    store.hydrate({ login: login('tok-1'), me });
    const caller = start();
    await vi.waitFor(() => expect(caller.entitlements()).not.toBeNull());
    await refreshToken('tok-2');
    await vi.waitFor(() => expect(bearers(P.entitlements)).toHaveLength(2));
    await flush();
    expect(caller.flags()).toEqual({ beta: 'on' });
    expect(onFlags).toHaveBeenCalledTimes(1);
    expect(caller.entitlements()!.get().features).toHaveProperty('reports');
  });

  it('signing out forgets the entitlements and goes back to the anonymous flags', async () => {
    const { store, start, onFlags } = setup({ [P.flags]: () => json({ beta: 'on' }), [P.entitlements]: () => json(context('reports')) });
    store.hydrate({ login: login('tok-1'), me });
    const caller = start();
    await vi.waitFor(() => expect(caller.entitlements()).not.toBeNull());
    await store.logout();
    expect(caller.entitlements()).toBeNull();
    expect(caller.flags()).toBe(ANONYMOUS);
    expect(onFlags).toHaveBeenLastCalledWith(ANONYMOUS);
  });

  it('with entitlements off, fetches only the flags and never imports or calls entitlements', async () => {
    const { store, stub, start } = setup({ [P.flags]: () => json({ beta: 'on' }), [P.entitlements]: () => json(context('reports')) }, false);
    store.hydrate({ login: login('tok-1'), me });
    const caller = start();
    await vi.waitFor(() => expect(caller.flags()).toEqual({ beta: 'on' }));
    await flush();
    expect(stub.callsTo(P.entitlements)).toHaveLength(0);
    expect(caller.entitlements()).toBeNull();
  });

  it('does not hand on flags that are the same as the ones held, nor an answer that is not a flag record', async () => {
    const { store, refreshToken, start, onFlags, bearers } = setup({
      [P.refresh]: [() => json(login('tok-2')), () => json(login('tok-3'))],
      [P.flags]: [() => json({ beta: 'on' }), () => json({ beta: 'on' }), () => json({ beta: 1 })],
      [P.entitlements]: () => json(context('reports')),
    });
    store.hydrate({ login: login('tok-1'), me });
    const caller = start();
    await vi.waitFor(() => expect(onFlags).toHaveBeenCalledTimes(1));
    await refreshToken('tok-2');
    await vi.waitFor(() => expect(bearers(P.flags)).toHaveLength(2));
    await flush();
    await refreshToken('tok-3');
    await vi.waitFor(() => expect(bearers(P.flags)).toHaveLength(3));
    await flush();
    expect(onFlags).toHaveBeenCalledTimes(1);
    expect(caller.flags()).toEqual({ beta: 'on' });
  });

  it('tells onEntitlements each time the loaded entitlements change: loaded, dropped at a tenant switch, loaded for the new tenant, dropped at sign-out; not for a failed load', async () => {
    const { store, refreshToken, start, onEntitlements, bearers } = setup({
      [P.switchTenant]: () => new Response(null, { status: 200 }),
      [P.refresh]: [() => json(login('tok-2')), () => json(login('tok-t2'))],
      [P.me]: () => json({ ...me, tenantId: 't2' }),
      [P.flags]: () => json({ beta: 'on' }),
      [P.entitlements]: [() => json(context('t1-feature')), () => json({ errors: ['down'] }, { status: 500 }), () => json(context('t2-feature'))],
    });
    store.hydrate({ login: login('tok-1'), me });
    const caller = start();
    await vi.waitFor(() => expect(caller.entitlements()).not.toBeNull());
    expect(onEntitlements).toHaveBeenCalledTimes(1);
    // Same user and tenant, a failed load: the value stays and nobody is told.
    await refreshToken('tok-2');
    await vi.waitFor(() => expect(bearers(P.entitlements)).toHaveLength(2));
    await flush();
    expect(onEntitlements).toHaveBeenCalledTimes(1);
    await store.switchTenant('t2');
    await vi.waitFor(() => expect(caller.entitlements()?.get().features).toHaveProperty('t2-feature'));
    expect(onEntitlements).toHaveBeenCalledTimes(3);
    await store.logout();
    expect(caller.entitlements()).toBeNull();
    expect(onEntitlements).toHaveBeenCalledTimes(4);
  });

  it('stops watching once stopped', async () => {
    const { store, stub, start } = setup({ [P.flags]: () => json({ beta: 'on' }) }, false);
    const caller = start();
    caller.stop();
    store.hydrate({ login: login('tok-1'), me });
    await flush();
    expect(stub.calls).toHaveLength(0);
  });
});
