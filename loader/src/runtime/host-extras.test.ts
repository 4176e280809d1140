import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse, type GatehouseStore } from '@gatehouse/shared';
import { createFetchStub, json } from '../../../shared/src/testing/fetch-stub';
import { SEPARATE_TABS_BY_TENANT_KEY } from '../../../shared/src/auth/separate-tabs-keys';
import { TAB_TENANT_KEY } from './separate-tabs';
import type { BootContext } from '../types';
import { setAuthentication, startHostExtras, type HostExtras } from './host-extras';
import { createPreview } from './preview';
import { runtimeClient } from './index';

const BASE = 'https://id.example.com';
const me = { id: 'u1', email: 'a@b.co', name: 'A', username: null, verified: true, tenantId: 't1', tenantIds: ['t1'], tenants: [], roles: [], permissions: [] };
const b64url = (v: unknown) => btoa(JSON.stringify(v)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

const stores: GatehouseStore[] = [];
afterEach(() => {
  stores.splice(0).forEach((s) => s.dispose());
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

function extras(metadata: Record<string, unknown>) {
  const stub = createFetchStub({
    'GET /identity/resources/users/v2/me': () => json(me),
    'GET /override.json': () => json({ theme: { mode: 'dark' } }),
  });
  vi.stubGlobal('fetch', stub.fetch);
  const client = { baseUrl: BASE, clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1 } };
  const { store, api } = createGatehouse({ ...client, navigate: () => undefined, storage: null });
  stores.push(store);
  const ctx = { options: { contextOptions: { baseUrl: BASE } }, metadata, reportError: vi.fn() } as unknown as BootContext;
  const x: HostExtras = { ctx, store, api, client };
  return { x, stub, store };
}

describe('the host-extras chunk the runtime loads', () => {
  it('merges the metadata override into the boot context the bundles read, and starts nothing else while separate tabs are off', async () => {
    const { x } = extras({ theme: { mode: 'light', name: 'modern' }, metadataOverrides: { url: 'https://cdn.example.com/override.json' } });
    expect(await startHostExtras(x)).toBeUndefined();
    expect(x.ctx.metadata.theme).toEqual({ mode: 'dark', name: 'modern' });
  });

  it('with FRONTEGG_SEPARATE_TABS_BY_TENANT on, pins the tab to the signed-in tenant', async () => {
    localStorage.setItem(SEPARATE_TABS_BY_TENANT_KEY, 'true');
    const { x } = extras({});
    await setAuthentication(x, `${b64url({ alg: 'RS256' })}.${b64url({ sub: 'u1' })}.s`);
    const stop = await startHostExtras(x);
    expect(typeof stop).toBe('function');
    expect(sessionStorage.getItem(TAB_TENANT_KEY)).toBe('t1');
    stop!();
  });

  it('setAuthentication keeps one external-auth per app, so the latest call wins across calls', async () => {
    const { x, store } = extras({});
    const token = `${b64url({ alg: 'RS256' })}.${b64url({ sub: 'u1' })}.s`;
    const first = setAuthentication(x, token);
    await setAuthentication(x, null);
    await first;
    expect(store.getSnapshot().user).toBeNull();
  });

  it('setAuthentication in preview mode calls no network: the external-auth client gets the preview fetch (the sample user is set)', async () => {
    const network = vi.fn(async () => {
      throw new TypeError('network closed');
    });
    vi.stubGlobal('fetch', network);
    const options = { contextOptions: { baseUrl: BASE, clientId: 'c' }, previewMode: true };
    const ctx = { options, flags: {}, metadata: {}, session: null, reportError: vi.fn() } as unknown as BootContext;
    const preview = createPreview(ctx, BASE, '/dashboard');
    const client = { ...runtimeClient(options, BASE, preview.fetch), retry: { attempts: 1 } };
    const { store, api } = createGatehouse({ ...client, navigate: () => undefined, storage: null });
    stores.push(store);
    const x: HostExtras = { ctx, store, api, client };
    await setAuthentication(x, `${b64url({ alg: 'RS256' })}.${b64url({ sub: 'host-user' })}.s`);
    expect(store.getSnapshot().user?.email).toBe(ctx.session!.me.email);
    await setAuthentication(x, null);
    expect(store.getSnapshot().user).toBeNull();
    expect(network).not.toHaveBeenCalled();
  });

  it('the runtime client has no fetch of its own outside preview mode (the control of the test above: the page\'s fetch is used)', () => {
    expect(runtimeClient({ contextOptions: { baseUrl: BASE } }, BASE).fetch).toBeUndefined();
  });
});
