/**
 * Test double of the store boundary (GatehouseStore) for component tests: a real
 * subscribe/snapshot object whose `updateProfile` records each call and follows the store's
 * saving -> saved | error protocol. Flows the portal never calls throw, so a stray call shows up.
 */
import type { AuthSnapshot, AuthUser, GatehouseApi, GatehouseStore, MountProps, UpdateMeRequest } from '../contract';
import type { AdminPortalProps } from '../admin-portal-props';

export function makeUser(overrides: Partial<AuthUser> = {}): AuthUser {
  return {
    id: 'user-1',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    username: null,
    verified: true,
    tenantId: 'tenant-1',
    tenantIds: ['tenant-1'],
    tenants: [{ id: 't1', tenantId: 'tenant-1', name: 'Analytical Engines', createdAt: '2026-01-01T00:00:00.000Z' }],
    phoneNumber: '+44 20 7946 0000',
    address: '12 St James Square',
    jobTitle: 'Analyst',
    profilePictureUrl: null,
    roles: [],
    permissions: [],
    superUser: false,
    mfaEnrolled: false,
    metadata: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastLogin: null,
    accessToken: 'token',
    expiresAt: Date.now() + 600_000,
    ...overrides,
  };
}

export type ProfileUpdate = UpdateMeRequest & { profileImage?: string };

export interface TestStore extends GatehouseStore {
  updates: ProfileUpdate[];
  /** How the next `updateProfile` ends: 'ok', a server error message, or a pending promise to resolve later. */
  nextOutcome: { kind: 'ok' } | { kind: 'error'; message: string } | { kind: 'pending'; release?: () => void };
  listenerCount(): number;
}

export function createTestStore(user: AuthUser | null): TestStore {
  let snapshot: AuthSnapshot = {
    isLoading: false,
    isAuthenticated: !!user,
    user,
    login: { step: 'preLogin', email: '', loading: false, error: null },
    signUp: { stage: 'SignUp', loading: false, error: null },
    activate: { step: 'activating', loading: false, error: null, resendSent: false },
    forgotPassword: { step: 'forgotPassword', identifier: '', loading: false, error: null },
    profile: { saving: false, error: null, saved: false },
    vendor: null,
    passkeys: { devices: null, loading: false, error: null, registered: false },
    social: null,
    resetPhoneNumber: { step: 'ResetPhoneNumber', email: '', loading: false, error: null },
    mfa: {
      step: 'verify', context: 'login', loading: false, error: null, mfaToken: null, mfaDevices: null, mfaStrategies: [], qrCode: null, uri: null, secret: null,
      recoveryCodes: [], otcToken: null, allowRememberDevice: false, rememberDeviceDays: 0, maxAge: null, steppedUp: false,
    },
    invitation: { step: 'validate', loading: false, error: null, shouldSetPassword: false, codeRequired: false, resendSent: false },
    impersonation: { step: 'impersonating', error: null },
  };
  const listeners = new Set<() => void>();
  const set = (next: Partial<AuthSnapshot>) => {
    snapshot = { ...snapshot, ...next };
    listeners.forEach((listener) => listener());
  };
  type Recorded = Pick<TestStore, 'updates' | 'nextOutcome' | 'listenerCount' | 'subscribe' | 'getSnapshot' | 'updateProfile'>;
  const store: Recorded = {
    updates: [],
    nextOutcome: { kind: 'ok' },
    listenerCount: () => listeners.size,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => snapshot,
    async updateProfile(input) {
      store.updates.push(input);
      set({ profile: { saving: true, error: null, saved: false } });
      const outcome = store.nextOutcome;
      if (outcome.kind === 'pending') await new Promise<void>((resolve) => (outcome.release = resolve));
      if (outcome.kind === 'error') {
        set({ profile: { saving: false, error: outcome.message, saved: false } });
        return;
      }
      const { profileImage, ...fields } = input;
      const current = snapshot.user!;
      set({
        user: { ...current, ...fields, name: fields.name ?? current.name, profilePictureUrl: profileImage ? 'https://cdn.example/p.png' : current.profilePictureUrl },
        profile: { saving: false, error: null, saved: true },
      });
    },
  };
  // Every other store flow fails loudly: the portal must not call it, and new contract methods need no edit here.
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name in target) return Reflect.get(target, name, receiver);
      return () => {
        throw new Error(`store.${String(name)} is not used by the admin portal`);
      };
    },
  }) as TestStore;
}

/** An API object whose every call fails loudly: the profile flow must go through the store. */
export function unusedApi(): GatehouseApi {
  return new Proxy({} as GatehouseApi, {
    get: (_target, name) => () => Promise.reject(new Error(`api.${String(name)} should not be called`)),
  });
}

/** A div inside an open shadow root, as the runtime's custom element provides. */
export function shadowMountPoint(): { host: HTMLElement; root: ShadowRoot; domElement: HTMLDivElement } {
  const host = document.createElement('gatehouse-admin-portal');
  document.body.append(host);
  const root = host.attachShadow({ mode: 'open' });
  const domElement = document.createElement('div');
  root.append(domElement);
  return { host, root, domElement };
}

export function portalProps(
  domElement: HTMLElement,
  store: GatehouseStore,
  extra: { adminPortal?: Record<string, unknown>; flags?: Record<string, string>; locale?: string; onClose?: () => void; setThemeSetter?: MountProps['setThemeSetter'] } = {},
): AdminPortalProps {
  return {
    name: 'admin-portal-test',
    domElement,
    store,
    api: unusedApi(),
    routes: {} as MountProps['routes'],
    options: { flags: extra.flags ?? {}, metadata: {}, ...(extra.adminPortal ? { adminPortal: extra.adminPortal } : {}), ...(extra.locale ? { locale: extra.locale } : {}) },
    navigate: () => {},
    setThemeSetter: extra.setThemeSetter ?? (() => {}),
    onClose: extra.onClose ?? (() => {}),
  };
}
