import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from './create-gatehouse';
import { createFetchStub, json, type Handler } from '../testing/fetch-stub';
import { createManualTimers } from '../testing/manual-timers';
import type { GatehouseStore } from '../core/types';
import { TENANT_SWITCH_CALLS, TWO_TENANTS, tokenAnswer } from '../testing/tenant-switch';

/** chooseTenantAfterLogin: the login box's account choice holds the navigation after sign-in for a user in several tenants. */
const P = TENANT_SWITCH_CALLS;
const tenants = TWO_TENANTS;
const me = (tenantId = 't1', inTenants = tenants) => ({ id: 'u1', email: 'ada@example.com', name: 'Ada', username: null, verified: true, tenantId, tenantIds: inTenants.map((t) => t.tenantId), tenants: inTenants, roles: [], permissions: [] });
const token = tokenAnswer;

let current: GatehouseStore | null = null;
afterEach(() => {
  current?.dispose();
  current = null;
});

function setup(routes: Record<string, Handler>, chooseTenantAfterLogin?: boolean) {
  const stub = createFetchStub(routes);
  const clock = createManualTimers();
  const navigate = vi.fn();
  const { store } = createGatehouse({
    baseUrl: 'http://api.test', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1, delayMs: 1 },
    navigate, storage: null, now: clock.now, timers: clock.timers, getCurrentUrl: () => 'https://app.example.com/account/login', chooseTenantAfterLogin,
  });
  current = store;
  return { store, stub, navigate };
}

describe('choosing the tenant after sign-in (chooseTenantAfterLogin)', () => {
  it('a user in two tenants stays on the signed-in step until Continue, and continues in the tenant chosen there', async () => {
    let active = 't1';
    const { store, stub, navigate } = setup({
      [P.login]: () => token('tok-1', 't1'),
      [P.me]: () => json(me(active)),
      [P.switchTenant]: (req) => {
        active = (req.body as { tenantId: string }).tenantId;
        return new Response(null, { status: 200 });
      },
      [P.refresh]: () => token('tok-2', active),
    }, true);
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(store.getSnapshot()).toMatchObject({ isAuthenticated: true, login: { step: 'success' }, user: { tenantId: 't1' } });
    expect(navigate).not.toHaveBeenCalled();

    await store.switchTenant('t2');
    expect(stub.callsTo(P.switchTenant)[0]!.body).toEqual({ tenantId: 't2' });
    expect(store.getSnapshot().user).toMatchObject({ tenantId: 't2', accessToken: 'tok-2' });
    expect(navigate).not.toHaveBeenCalled();

    store.continueNow();
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/');
    store.continueNow();
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('a user in one tenant goes on at once, as without the option', async () => {
    const { store, navigate } = setup({ [P.login]: () => token('tok-1', 't1'), [P.me]: () => json(me('t1', tenants.slice(0, 1))) }, true);
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/');
  });

  it('without the option a user in two tenants goes on at once', async () => {
    const { store, navigate } = setup({ [P.login]: () => token('tok-1', 't1'), [P.me]: () => json(me()) });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(store.getSnapshot().login.step).toBe('success');
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/');
  });
});
