import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from '../create-gatehouse';
import { createFetchStub, json, type Handler } from '../../testing/fetch-stub';
import { createManualTimers } from '../../testing/manual-timers';
import type { GatehouseStore } from '../../core/types';

const P = {
  me: 'GET /identity/resources/users/v2/me',
  impersonate: 'POST /identity/resources/auth/v1/impersonate',
};
const target = { id: 'u2', email: 'target@example.com', name: 'Target', username: null, verified: true, tenantId: 't1', tenantIds: ['t1'], tenants: [], roles: [], permissions: [] };
const session: Handler = () => json({ accessToken: 'a.b.c', expiresIn: 300, expires: '', mfaRequired: false });

let current: GatehouseStore | null = null;
afterEach(() => {
  current?.dispose();
  current = null;
});

function setup(routes: Record<string, Handler | Handler[]>) {
  const stub = createFetchStub({ [P.me]: () => json(target), ...routes });
  const clock = createManualTimers();
  const navigate = vi.fn();
  const { store } = createGatehouse({
    baseUrl: 'http://api.test', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1, delayMs: 1 },
    navigate, storage: null, now: clock.now, timers: clock.timers, getCurrentUrl: () => 'https://app.example.com/account/impersonate',
  });
  current = store;
  return { store, stub, clock, navigate, imp: () => store.getSnapshot().impersonation };
}

describe('impersonation flow (seed 4.7)', () => {
  it('impersonating -> success as the target, then navigates to the authenticated URL after 1 s', async () => {
    const { store, stub, imp, clock, navigate } = setup({ [P.impersonate]: session });
    expect(imp()).toEqual({ step: 'impersonating', error: null });
    await store.impersonate('tok-1');
    expect(stub.callsTo(P.impersonate)[0]!.body).toEqual({ token: 'tok-1' });
    expect(imp()).toEqual({ step: 'success', error: null });
    expect(store.getSnapshot().user).toMatchObject({ id: 'u2', accessToken: 'a.b.c' });
    await clock.advance(999);
    expect(navigate).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('spends a token once, even when the route asks twice', async () => {
    const { store, stub } = setup({ [P.impersonate]: session });
    await Promise.all([store.impersonate('tok-1'), store.impersonate('tok-1')]);
    expect(stub.callsTo(P.impersonate)).toHaveLength(1);
  });

  it('a refused or missing token stays on impersonating with the error, signing nobody in', async () => {
    const { store, stub, imp, navigate } = setup({ [P.impersonate]: () => json({ errors: ['The impersonation link is invalid or has expired'], errorCode: 'ER-01106' }, { status: 400 }) });
    await store.impersonate('used');
    expect(imp()).toEqual({ step: 'impersonating', error: 'The impersonation link is invalid or has expired' });
    expect(store.getSnapshot().isAuthenticated).toBe(false);
    await store.impersonate(null);
    expect(imp()).toEqual({ step: 'impersonating', error: 'The impersonation link is invalid or has expired' });
    expect(stub.callsTo(P.impersonate)).toHaveLength(1);
    expect(navigate).not.toHaveBeenCalled();
  });
});
