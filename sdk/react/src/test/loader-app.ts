/**
 * A loader app for component tests: the real auth store of the runtime (createGatehouse from
 * @gatehouse/shared) and the real entitlement evaluator, behind the GatehouseApp methods the SDK
 * calls. The server side is the house fetch stub, as in the loader's own tests.
 */
import { createGatehouse, type GatehouseStore } from '@gatehouse/shared';
import { isEntitledToFeature, isEntitledToPermission, type EntitlementsContext } from '@gatehouse/shared/entitlements';
import { createFetchStub, json, type Handler } from '../../../../shared/src/testing/fetch-stub';
import type { LoaderApp, GatehouseLoaderOptions } from '../types';

/** Nothing listens there: a call the fetch stub does not answer fails at once, offline. */
export const BASE = 'http://127.0.0.1:9';
export const REFRESH = 'POST /identity/resources/auth/v1/user/token/refresh';
export const ME = 'GET /identity/resources/users/v2/me';
export const SWITCH = 'PUT /identity/resources/users/v1/tenant';
export const LOGOUT = 'POST /identity/resources/auth/v1/logout';

const b64url = (v: unknown) => btoa(JSON.stringify(v)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
export const jwt = (claims: Record<string, unknown>) => `${b64url({ alg: 'RS256' })}.${b64url(claims)}.signature`;

export function me(overrides: Record<string, unknown> = {}) {
  return {
    id: 'u1', email: 'ada@example.com', name: 'Ada', username: null, verified: true, tenantId: 't1', tenantIds: ['t1', 't2'],
    tenants: [{ id: 't1', tenantId: 't1', name: 'One', createdAt: '2026-01-01T00:00:00Z' }, { id: 't2', tenantId: 't2', name: 'Two', createdAt: '2026-01-01T00:00:00Z' }],
    phoneNumber: null, address: null, jobTitle: null, profilePictureUrl: null,
    roles: [{ id: 'r1', key: 'Admin', name: 'Admin' }],
    permissions: [{ id: 'p1', key: 'fe.secure.read.users', name: 'Read users' }, { id: 'p2', key: 'notes.write', name: 'Write notes' }],
    superUser: false, mfaEnrolled: false, metadata: null, createdAt: '2026-01-01T00:00:00Z', lastLogin: null,
    ...overrides,
  };
}

export function login(tenantId = 't1', claims: Record<string, unknown> = {}) {
  return { accessToken: jwt({ sub: 'u1', tenantId, exp: Math.floor(Date.now() / 1000) + 600, ...claims }), expiresIn: 600, expires: new Date(Date.now() + 600_000).toISOString(), mfaRequired: false };
}

export interface TestApp extends LoaderApp {
  store: GatehouseStore;
  calls: ReturnType<typeof createFetchStub>['calls'];
  /** Sets what the entitlements call would have loaded (null: not loaded yet), and tells `subscribe` listeners as the loader does. */
  setEntitlements(value: EntitlementsContext | null): void;
  /** Sets the caller's flags as the loader would after its flags call, and tells `subscribe` listeners. */
  setFlags(value: Record<string, 'on' | 'off'>): void;
  /** How many `subscribe` listeners are held. */
  changeListeners(): number;
  /** Which app methods were called, in order. */
  actions: string[];
}

/** A loaded app; `signedIn` hydrates the store with a session as the loader's stage 1 would. */
export function createTestApp(options: { name?: string; signedIn?: Record<string, unknown> | false; claims?: Record<string, unknown>; entitlements?: boolean; flags?: Record<string, 'on' | 'off'>; routes?: Record<string, Handler | Handler[]> } = {}): TestApp {
  const stub = createFetchStub({ [LOGOUT]: () => json({}), ...options.routes });
  const { store } = createGatehouse({ baseUrl: BASE, clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1 }, navigate: () => undefined, storage: null });
  store.hydrate(options.signedIn === false ? null : { login: login('t1', options.claims), me: me(options.signedIn ?? {}) });
  let entitlements: EntitlementsContext | null = null;
  let flags: Record<string, 'on' | 'off'> = options.flags ?? {};
  const changes = new Set<() => void>();
  const changed = () => changes.forEach((listener) => listener());
  const actions: string[] = [];
  const appOptions: GatehouseLoaderOptions = { contextOptions: { baseUrl: BASE, clientId: 'c' }, entitlementsOptions: { enabled: options.entitlements ?? true } };
  return {
    name: options.name ?? 'default',
    options: appOptions,
    ready: Promise.resolve(),
    store,
    calls: stub.calls,
    actions,
    setEntitlements: (value) => {
      entitlements = value;
      changed();
    },
    setFlags: (value) => {
      flags = value;
      changed();
    },
    changeListeners: () => changes.size,
    subscribe: (listener) => {
      changes.add(listener);
      return () => changes.delete(listener);
    },
    // A new object per call, as the loader answers.
    getFeatureFlags: () => ({ ...flags }),
    addOnLoadedListener: (listener) => {
      listener();
      return () => undefined;
    },
    logout: () => store.logout(),
    loginWithRedirect: async () => void actions.push('loginWithRedirect'),
    showAdminPortal: async () => void actions.push('showAdminPortal'),
    showMultiAppsAdminPortal: async () => void actions.push('showMultiAppsAdminPortal'),
    hideAdminPortal: () => void actions.push('hideAdminPortal'),
    showCheckoutDialog: async ({ planId }) => void actions.push(`showCheckoutDialog:${planId}`),
    hideCheckoutDialog: () => void actions.push('hideCheckoutDialog'),
    getEntitlements: () => {
      if (!appOptions.entitlementsOptions?.enabled) throw new Error('entitlements are off');
      return entitlements;
    },
    isEntitledTo: (query, customAttributes) => {
      if (!entitlements) return { isEntitled: false, justification: 'MISSING_FEATURE' };
      const attributes = { custom: customAttributes ?? {}, jwt: {} };
      return 'featureKey' in query ? isEntitledToFeature(query.featureKey, entitlements, attributes) : isEntitledToPermission(query.permissionKey, entitlements, attributes);
    },
  } as TestApp;
}
