/**
 * The framework-agnostic core of the SDK: one object with `subscribe(listener)` and a snapshot
 * that joins the loader's auth store, the caller's feature flags and the loaded entitlements.
 * The React hooks are a thin `useSyncExternalStore` over it; no auth logic lives here.
 */
import type { EntitlementsData, LoaderApp, LoaderAuthSnapshot } from './types.js';

/** What the hooks read; a new object only when something in it changed. */
export interface GatehouseState {
  /** loading: the loader is not ready yet; error: it failed to load (see `error`). */
  status: 'loading' | 'ready' | 'error';
  error: Error | null;
  auth: LoaderAuthSnapshot;
  /** The signed-in user's entitlements once loaded (with `entitlementsOptions.enabled`), else null. */
  entitlements: EntitlementsData | null;
  /** The feature flags evaluated for the caller (`GET /flags`), `'on'` / `'off'` by key. */
  flags: Record<string, string>;
}

export interface GatehouseClient {
  subscribe(listener: () => void): () => void;
  getSnapshot(): GatehouseState;
  /** The state during server rendering and hydration: signed out, loading. */
  getServerSnapshot(): GatehouseState;
  /** Starts connecting to the loader (once; later calls do nothing). Browser only. */
  start(): void;
  /** The loader app once ready. */
  whenReady(): Promise<LoaderApp>;
  /** The loader app, or null before it is ready. */
  app(): LoaderApp | null;
}

export interface GatehouseClientOptions {
  /** Resolves to the loader's app (the provider loads the script and calls `Gatehouse.initialize`). */
  connect(): Promise<LoaderApp>;
  /** Fetches the caller's flags; default: `GET <baseUrl>/flags` with the access token. */
  fetchFlags?(app: LoaderApp, accessToken: string | null): Promise<Record<string, string>>;
  /** How often to look for entitlements the loader is still loading (it has no event for them yet). */
  entitlementsPollMs?: number;
}

const SIGNED_OUT: LoaderAuthSnapshot = Object.freeze({ isLoading: true, isAuthenticated: false, user: null });
const SERVER_STATE: GatehouseState = Object.freeze({ status: 'loading', error: null, auth: SIGNED_OUT, entitlements: null, flags: Object.freeze({}) as Record<string, string> });
/** Entitlements normally arrive within a second of a new token; give up looking after this many polls. */
const MAX_ENTITLEMENT_POLLS = 40;

const isFlagRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');

/** `GET <baseUrl>/flags` for the caller; a failure keeps the flags held (seed 000 section 8: flags are never an error to show). */
export async function fetchCallerFlags(app: LoaderApp, accessToken: string | null): Promise<Record<string, string>> {
  const baseUrl = app.options.contextOptions.baseUrl.replace(/\/+$/, '');
  const response = await fetch(`${baseUrl}/flags`, {
    credentials: 'include',
    headers: { accept: 'application/json', ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) },
  });
  if (!response.ok) throw new Error(`GET /flags answered ${response.status}`);
  const body: unknown = await response.json();
  if (!isFlagRecord(body)) throw new Error('GET /flags answered something other than a flag record');
  return body;
}

export function createGatehouseClient(options: GatehouseClientOptions): GatehouseClient {
  const listeners = new Set<() => void>();
  const fetchFlags = options.fetchFlags ?? fetchCallerFlags;
  const pollMs = options.entitlementsPollMs ?? 250;
  let state: GatehouseState = SERVER_STATE;
  let app: LoaderApp | null = null;
  let error: Error | null = null;
  let flags: Record<string, string> = SERVER_STATE.flags;
  let flagsFor: string | null | undefined; // the access token the flags were fetched for
  let started: Promise<LoaderApp> | null = null;
  let pollTimer: ReturnType<typeof setTimeout> | null = null;
  let polls = 0;

  const readEntitlements = (): EntitlementsData | null => {
    if (!app?.options.entitlementsOptions?.enabled) return null;
    try {
      return app.getEntitlements();
    } catch {
      return null;
    }
  };

  const refresh = () => {
    const auth = app?.store?.getSnapshot() ?? (error ? { ...SIGNED_OUT, isLoading: false } : SIGNED_OUT);
    const status: GatehouseState['status'] = error ? 'error' : app ? 'ready' : 'loading';
    const entitlements = auth.isAuthenticated ? readEntitlements() : null;
    const prev = state;
    const sameAuth = prev.auth === auth || (prev.auth.isLoading === auth.isLoading && prev.auth.isAuthenticated === auth.isAuthenticated && prev.auth.user === auth.user);
    if (sameAuth && prev.status === status && prev.error === error && prev.entitlements === entitlements && prev.flags === flags) return false;
    state = { status, error, auth: sameAuth ? prev.auth : auth, entitlements, flags };
    return true;
  };

  const notify = () => {
    if (!refresh()) return;
    for (const listener of [...listeners]) listener();
  };

  const watchFlags = () => {
    if (!app) return;
    const token = state.auth.user?.accessToken ?? null;
    if (token === flagsFor) return;
    flagsFor = token;
    fetchFlags(app, token).then(
      (next) => {
        if (flagsFor !== token || JSON.stringify(next) === JSON.stringify(flags)) return;
        flags = next;
        notify();
      },
      () => undefined,
    );
  };

  // The loader sends no event when entitlements arrive: look again for a while after each change.
  const watchEntitlements = () => {
    if (pollTimer || !state.auth.isAuthenticated || state.entitlements || !app?.options.entitlementsOptions?.enabled) return;
    if (polls >= MAX_ENTITLEMENT_POLLS) return;
    pollTimer = setTimeout(() => {
      pollTimer = null;
      polls += 1;
      notify();
      watchEntitlements();
    }, pollMs);
  };

  const onStoreChange = () => {
    const before = state.auth.user?.accessToken;
    notify();
    if (state.auth.user?.accessToken !== before) polls = 0;
    watchFlags();
    watchEntitlements();
  };

  const start = (): Promise<LoaderApp> => {
    started ??= options.connect().then(
      (connected) => {
        connected.addOnLoadedListener(() => {
          app = connected;
          connected.store?.subscribe(onStoreChange);
          onStoreChange();
        });
        return connected.ready.then(() => connected);
      },
      (failure: unknown) => {
        error = failure instanceof Error ? failure : new Error(String(failure));
        notify();
        throw error;
      },
    );
    // A loader that fails after connecting (its runtime did not load) is an error state too.
    started.catch((failure: unknown) => {
      if (error) return;
      error = failure instanceof Error ? failure : new Error(String(failure));
      notify();
    });
    return started;
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => state,
    getServerSnapshot: () => SERVER_STATE,
    start: () => void start(),
    whenReady: () => start(),
    app: () => app,
  };
}
