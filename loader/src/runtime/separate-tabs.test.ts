import { afterEach, describe, expect, it } from 'vitest';
import { createGatehouse, type GatehouseStore, type KeyValueStorage } from '@gatehouse/shared';
import { SEPARATE_TABS_BY_TENANT_KEY, separateTabsEnabled } from '../../../shared/src/auth/separate-tabs-keys';
import { createFetchStub, json, type RecordedRequest } from '../../../shared/src/testing/fetch-stub';
import { createExternalAuth } from './external-auth';
import { keepTabTenant, TAB_TENANT_KEY } from './separate-tabs';

const BASE = 'https://id.example.com';
const me = (tenantId: string) => ({
  id: 'u1', email: 'ada@example.com', name: 'Ada', username: null, verified: true, tenantId, tenantIds: ['t1', 't2'], tenants: [],
  phoneNumber: null, address: null, jobTitle: null, profilePictureUrl: null, roles: [], permissions: [], superUser: false,
  mfaEnrolled: false, metadata: null, createdAt: '2026-01-01T00:00:00Z', lastLogin: null,
});
const b64url = (v: unknown) => btoa(JSON.stringify(v)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const claimsOf = (jwt: string) => JSON.parse(atob(jwt.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;
/** Tokens name their tenant, as the server's do. */
const token = (tenantId: string, n: number) => `${b64url({ alg: 'RS256' })}.${b64url({ sub: 'u1', tenantId, n })}.sig`;
const tenantOf = (req: RecordedRequest) => claimsOf(req.headers.get('authorization')!).tenantId as string;

/** One server session (one refresh cookie shared by every tab): a refresh that names a tenant moves it there, as the server does. */
function sessionServer(initial: string) {
  let sessionTenant = initial;
  let n = 0;
  const refreshes: Array<string | undefined> = [];
  const stub = createFetchStub({
    'POST /identity/resources/auth/v1/user/token/refresh': (req) => {
      const asked = (req.body as { tenantId?: string } | undefined)?.tenantId;
      refreshes.push(asked);
      if (asked) sessionTenant = asked;
      return json({ accessToken: token(sessionTenant, ++n), expiresIn: 300, expires: '', mfaRequired: false, tenantId: sessionTenant, userId: 'u1' });
    },
    'PUT /identity/resources/users/v1/tenant': (req) => ((sessionTenant = (req.body as { tenantId: string }).tenantId), new Response(null, { status: 200 })),
    'GET /identity/resources/users/v2/me': (req) => json(me(tenantOf(req))),
  });
  return { stub, refreshes, tenant: () => sessionTenant, login: (tenantId: string) => ({ accessToken: token(tenantId, ++n), expiresIn: 300, expires: '', mfaRequired: false, tenantId, userId: 'u1' }) };
}

function memoryStorage(): KeyValueStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

const stores: GatehouseStore[] = [];
const stops: Array<() => void> = [];
afterEach(() => {
  stops.splice(0).forEach((s) => s());
  stores.splice(0).forEach((s) => s.dispose());
});

/** A browser tab: its own store and sessionStorage, the shared server session. */
async function openTab(server: ReturnType<typeof sessionServer>, tab = memoryStorage()) {
  const { store, api } = createGatehouse({ baseUrl: BASE, clientId: 'c', fetch: server.stub.fetch, getLocationSearch: () => '', retry: { attempts: 1 }, navigate: () => undefined, storage: null });
  stores.push(store);
  // What stage 1 does on load: a refresh naming no tenant, then me.
  const login = await api.refresh();
  store.hydrate({ login, me: me(login.tenantId!) });
  const external = createExternalAuth({ store, baseUrl: BASE, clientId: 'c', fetch: server.stub.fetch, getLocationSearch: () => '', retry: { attempts: 1 } });
  stops.push(await keepTabTenant({ api, store, tab, adopt: (t) => external.setAuthentication(t) }));
  return { store, api, tab };
}

describe('separate tabs per tenant (FRONTEGG_SEPARATE_TABS_BY_TENANT)', () => {
  it("is on only when the host set the key to the string 'true'", () => {
    const local = memoryStorage();
    expect(separateTabsEnabled(local)).toBe(false);
    local.setItem(SEPARATE_TABS_BY_TENANT_KEY, '1');
    expect(separateTabsEnabled(local)).toBe(false);
    local.setItem(SEPARATE_TABS_BY_TENANT_KEY, 'true');
    expect(separateTabsEnabled(local)).toBe(true);
    expect(separateTabsEnabled({ getItem: () => { throw new Error('SecurityError'); } })).toBe(false);
    expect(separateTabsEnabled(null)).toBe(false);
  });

  it('a tab keeps its tenant through its token refreshes while another tab switches', async () => {
    const server = sessionServer('t1');
    const one = await openTab(server);
    const two = await openTab(server);
    await two.store.switchTenant('t2');
    expect(two.store.getSnapshot().user!.tenantId).toBe('t2');
    expect(two.tab.getItem(TAB_TENANT_KEY)).toBe('t2');
    // Tab one's timed refresh (the store calls refresh with no tenant) names tab one's tenant.
    const login = await one.api.refresh();
    expect(login.tenantId).toBe('t1');
    expect(server.refreshes.at(-1)).toBe('t1');
    expect(one.tab.getItem(TAB_TENANT_KEY)).toBe('t1');
    // And tab two's next one names t2 again.
    expect((await two.api.refresh()).tenantId).toBe('t2');
  });

  it("a reloaded tab whose session came back in another tab's tenant is moved back to its own", async () => {
    const server = sessionServer('t1');
    const one = await openTab(server);
    const two = await openTab(server);
    await two.store.switchTenant('t2');
    // Tab one reloads: same sessionStorage, and stage 1's refresh returns the session's tenant (t2).
    one.store.dispose();
    const reloaded = await openTab(server, one.tab);
    expect(reloaded.store.getSnapshot().user!.tenantId).toBe('t1');
    const claims = claimsOf(reloaded.store.getAccessToken()!);
    expect(claims.tenantId).toBe('t1');
    expect(server.tenant()).toBe('t1');
  });

  it('without a saved tenant the tab takes the one its session has, and asks nothing more', async () => {
    const server = sessionServer('t2');
    const tab = await openTab(server);
    expect(server.refreshes).toEqual([undefined]);
    expect(tab.tab.getItem(TAB_TENANT_KEY)).toBe('t2');
  });
});
