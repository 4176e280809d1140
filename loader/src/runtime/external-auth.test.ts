import { afterEach, describe, expect, it } from 'vitest';
import { createGatehouse, type GatehouseStore } from '@gatehouse/shared';
import { createFetchStub, json, type Handler } from '../../../shared/src/testing/fetch-stub';
import { createExternalAuth } from './external-auth';

const BASE = 'https://id.example.com';
const ME = 'GET /identity/resources/users/v2/me';
const NOW = Date.UTC(2026, 10, 27, 5, 0, 0);
const me = {
  id: 'u1', email: 'ada@example.com', name: 'Ada', username: null, verified: true, tenantId: 't1', tenantIds: ['t1', 't2'],
  tenants: [{ tenantId: 't1', name: 'One' }, { tenantId: 't2', name: 'Two' }],
  phoneNumber: null, address: null, jobTitle: null, profilePictureUrl: null, roles: [], permissions: [], superUser: false,
  mfaEnrolled: false, metadata: null, createdAt: '2026-01-01T00:00:00Z', lastLogin: null,
};
const b64url = (v: unknown) => btoa(JSON.stringify(v)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const jwt = (claims: Record<string, unknown>) => `${b64url({ alg: 'RS256' })}.${b64url(claims)}.signature`;

const stores: GatehouseStore[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.dispose()));

function setup(routes: Record<string, Handler | Handler[]>) {
  const stub = createFetchStub(routes);
  const { store } = createGatehouse({ baseUrl: BASE, clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1 }, navigate: () => undefined, storage: null, now: () => NOW });
  stores.push(store);
  const external = createExternalAuth({ store, baseUrl: BASE, clientId: 'c', source: 'gatehouse-runtime', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1 }, now: () => NOW });
  return { store, stub, external };
}

describe('app.setAuthentication (seed 000 section 4.10: external authentication)', () => {
  it('with a token sets the user, loaded with that token, with their tenants', async () => {
    const token = jwt({ sub: 'u1', exp: NOW / 1000 + 600 });
    const { store, stub, external } = setup({ [ME]: () => json(me) });
    await external.setAuthentication(token);
    const { user, isAuthenticated } = store.getSnapshot();
    expect(isAuthenticated).toBe(true);
    expect(user).toMatchObject({ id: 'u1', tenantId: 't1', accessToken: token, expiresAt: NOW + 600_000 });
    expect(user!.tenants.map((t) => t.tenantId)).toEqual(['t1', 't2']);
    expect(store.getAccessToken()).toBe(token);
    expect(stub.callsTo(ME).map((c) => c.headers.get('authorization'))).toEqual([`Bearer ${token}`]);
  });

  it('with null clears the user', async () => {
    const { store, external } = setup({ [ME]: () => json(me) });
    await external.setAuthentication(jwt({ sub: 'u1' }));
    expect(store.getSnapshot().isAuthenticated).toBe(true);
    await external.setAuthentication(null);
    expect(store.getSnapshot()).toMatchObject({ isAuthenticated: false, user: null });
    expect(store.getAccessToken()).toBeNull();
  });

  it("rejects a malformed token with the seed's message, asks nothing and keeps the signed-in user", async () => {
    const { store, stub, external } = setup({ [ME]: () => json(me) });
    const good = jwt({ sub: 'u1' });
    await external.setAuthentication(good);
    await expect(external.setAuthentication('not-a-token')).rejects.toThrow('Invalid token specified');
    await expect(external.setAuthentication('a.b+c.d')).rejects.toThrow('Illegal base64url string!');
    expect(stub.callsTo(ME)).toHaveLength(1);
    expect(store.getSnapshot().user?.accessToken).toBe(good);
  });

  it('refuses an expired token without asking the server', async () => {
    const { stub, external } = setup({ [ME]: () => json(me) });
    await expect(external.setAuthentication(jwt({ exp: NOW / 1000 - 1 }))).rejects.toThrow('The token has expired');
    expect(stub.calls).toHaveLength(0);
  });

  it('a token the server refuses rejects with its 401 and sets no user', async () => {
    const { store, external } = setup({ [ME]: () => json({ errors: ['Unauthorized'] }, { status: 401 }) });
    await expect(external.setAuthentication(jwt({ sub: 'u1' }))).rejects.toMatchObject({ statusCode: 401 });
    expect(store.getSnapshot().user).toBeNull();
  });

  it('the latest call wins: a null given while a token’s profile loads leaves the user cleared', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const { store, external } = setup({ [ME]: async () => (await held, json(me)) });
    const first = external.setAuthentication(jwt({ sub: 'u1' }));
    await external.setAuthentication(null);
    release();
    await first;
    expect(store.getSnapshot().user).toBeNull();
  });
});
