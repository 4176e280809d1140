/**
 * The framework-agnostic core of the SDK: one object with `subscribe(listener)` and a snapshot
 * that joins the loader's auth store, the caller's feature flags and the loaded entitlements
 * (all three as the loader holds them: the SDK makes no API call of its own).
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
  /** The caller's feature flags as the loader holds them (`app.getFeatureFlags()`), `'on'` / `'off'` by key. */
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
  /** The name of the loader app this client is for (`Gatehouse.initialize(options, name)`). */
  readonly name: string;
}

export interface GatehouseClientOptions {
  /** Resolves to the loader's app (the provider loads the script and calls `Gatehouse.initialize`). */
  connect(): Promise<LoaderApp>;
  /** The app name the client is for; an app of another name is refused (default: `'default'`, the loader's). */
  name?: string;
}

/** The loader's app name when none is given (`Gatehouse.initialize(options)`). */
export const DEFAULT_APP_NAME = 'default';

/**
 * Seed 000 section 5: a store whose app name does not match the instance name is an error,
 * never a silent mix of two apps' users (e.g. a client built for one app handed to a provider
 * named for another, or a loader that answers another app than the one asked for).
 */
export class GatehouseAppNameMismatchError extends Error {
  override readonly name = 'GatehouseAppNameMismatchError';
  constructor(readonly expected: string, readonly actual: string) {
    super(`Gatehouse app name mismatch: the store belongs to the app '${actual}', not to '${expected}'`);
  }
}

const SIGNED_OUT: LoaderAuthSnapshot = Object.freeze({ isLoading: true, isAuthenticated: false, user: null });
const NO_FLAGS = Object.freeze({}) as Record<string, string>;
const SERVER_STATE: GatehouseState = Object.freeze({ status: 'loading', error: null, auth: SIGNED_OUT, entitlements: null, flags: NO_FLAGS });

/** Same keys and values: the loader answers a new flags object per call, the hooks need a stable one. */
function sameFlags(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}

/**
 * The client over a loader app: the auth store's `subscribe` for the user, and the app's
 * `subscribe` (flags and entitlements changed) for the rest; it never calls the API itself.
 */
export function createGatehouseClient(options: GatehouseClientOptions): GatehouseClient {
  const name = options.name ?? DEFAULT_APP_NAME;
  const listeners = new Set<() => void>();
  let state: GatehouseState = SERVER_STATE;
  let app: LoaderApp | null = null;
  let error: Error | null = null;
  let started: Promise<LoaderApp> | null = null;

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
    const loaded = app?.getFeatureFlags() ?? null;
    const flags = loaded && !sameFlags(loaded, prev.flags) ? loaded : prev.flags;
    const sameAuth = prev.auth === auth || (prev.auth.isLoading === auth.isLoading && prev.auth.isAuthenticated === auth.isAuthenticated && prev.auth.user === auth.user);
    if (sameAuth && prev.status === status && prev.error === error && prev.entitlements === entitlements && prev.flags === flags) return false;
    state = { status, error, auth: sameAuth ? prev.auth : auth, entitlements, flags };
    return true;
  };

  const notify = () => {
    if (!refresh()) return;
    for (const listener of [...listeners]) listener();
  };

  const start = (): Promise<LoaderApp> => {
    started ??= options.connect().then(
      (connected) => {
        if (connected.name !== name) throw new GatehouseAppNameMismatchError(name, connected.name);
        // The loader tells when the caller's flags or entitlements change (app.subscribe) and when
        // the user does (store.subscribe); each is read again then, never polled.
        connected.subscribe(notify);
        connected.addOnLoadedListener(() => {
          app = connected;
          connected.store?.subscribe(notify);
          notify();
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
    name,
  };
}
