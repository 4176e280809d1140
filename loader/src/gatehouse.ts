/**
 * Stage-1 loader: the one script a host page adds. No dependencies, kept within the 3 KB budget (over the wire).
 * It reads the options, fetches the manifest, flags, metadata and session in parallel, then loads
 * the stage-2 runtime (module federation host + single-spa + shared core) with SRI and a timeout.
 */
import { ASSET_LOAD_TIMEOUT_MS, ASSET_VERSION, DEFAULT_APP_NAME, SDK_MARKER } from '@gatehouse/shared/constants';
import { validHeaders } from '../../shared/src/api/client-headers';
import { BootPaths as ApiPaths } from '../../shared/src/wire/paths';
import { withRefreshLock } from '../../shared/src/api/refresh-lock';
import { createSessionHint, isNoSessionAnswer, type SessionHint } from '../../shared/src/auth/session-hint';
import { ENTITLEMENTS_DISABLED_MESSAGE } from '../../shared/src/wire/entitlements/paths';
import { MULTI_APPS_ADMIN_PORTAL_FLAG } from '../../shared/src/wire/applications/paths';
import type { CheckOptions, CustomAttributes, EntitlementResult, EntitlementsContext } from '@gatehouse/shared/entitlements';
import type { BootContext, CdnManifest, EntitlementQuery, GatehouseOptions, LoadedEntitlements, RuntimeHandle } from './types';
import { importWithIntegrity, withTimeout } from './assets';
import { chooseVersions } from './versions';

export const LOADING_BODY_CLASS = 'gatehouse-loading';
export const APP_NOT_FOUND = 'GatehouseApp not found';
export const MISSING_BASE_URL = 'Please set contextOptions.baseUrl in the Gatehouse provider options';
/** Warned by showMultiAppsAdminPortal() while the flag is off: the normal portal opens instead. */
export const MULTI_APPS_FLAG_OFF = `[Gatehouse] The feature flag ${MULTI_APPS_ADMIN_PORTAL_FLAG} is off: the admin portal opens in its normal mode`;

type Listener = () => void;

/** One initialized Gatehouse instance; `Gatehouse.getApp(name)` returns it. */
export class GatehouseApp {
  readonly name: string;
  readonly options: GatehouseOptions;
  loading = true;
  /** Errors recorded by request name (seed 000 section 8): status >= 500 or network failures. */
  readonly errors: Array<{ request: string; message: string; traceId?: string }> = [];
  /** Resolves once the runtime has started (or rejects with the loading error). */
  readonly ready: Promise<void>;
  private runtime: RuntimeHandle | null = null;
  private listeners = new Set<Listener>();
  private changeListeners = new Set<Listener>();

  constructor(name: string, options: GatehouseOptions) {
    this.name = name;
    this.options = options;
    this.ready = this.start();
    this.ready.catch((error) => console.error('[Gatehouse]', error));
  }

  /** Calls `listener` once the app has loaded (at once if it already has). */
  addOnLoadedListener(listener: Listener): () => void {
    if (!this.loading) listener();
    else this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Calls `listener` whenever the caller's feature flags or loaded entitlements change (read them
   * with getFeatureFlags() / getEntitlements()); the auth store has its own subscribe. Returns the unsubscribe.
   */
  subscribe(listener: Listener): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** The caller's feature flags, each 'on' or 'off' (the signed-out ones until a user's arrive); null until the app has loaded. */
  getFeatureFlags(): Record<string, 'on' | 'off'> | null {
    return this.runtime?.featureFlags() ?? null;
  }

  /** The auth store (subscribe/getSnapshot); null until the app has loaded. */
  get store() {
    return this.runtime?.store ?? null;
  }

  getState() {
    return this.runtime?.getState() ?? null;
  }

  async logout(): Promise<void> {
    await this.ready;
    await this.runtime!.logout();
  }

  /** External authentication (seed 000 section 4.10): a token from elsewhere sets the user (and their tenants); null clears it. */
  async setAuthentication(token: string | null): Promise<void> {
    await this.ready;
    await this.runtime!.setAuthentication(token);
  }

  async loginWithRedirect(): Promise<void> {
    await this.ready;
    this.runtime!.loginWithRedirect();
  }

  async showAdminPortal(): Promise<void> {
    await this.ready;
    await this.runtime!.showAdminPortal();
  }

  /**
   * The admin portal in multi-app mode (seed 000 section 2.1): it opens on the Applications view, where
   * admins give the account's users the vendor's applications. Only while the caller's feature flag
   * `multi-apps-admin-portal` is on; while it is off the normal portal opens and a console warning says why.
   */
  async showMultiAppsAdminPortal(): Promise<void> {
    await this.ready;
    const multiApps = this.runtime!.featureFlags()[MULTI_APPS_ADMIN_PORTAL_FLAG] === 'on';
    if (!multiApps) console.warn(MULTI_APPS_FLAG_OFF);
    await this.runtime!.showAdminPortal({ multiApps });
  }

  /** The hosted admin portal (seed 000 section 2.1) at `<baseUrl>/oauth/portal`, in a new tab or this window. */
  openHostedAdminPortal(newTab?: boolean): void {
    window.open(this.options.contextOptions.baseUrl.replace(/\/+$/, '') + '/oauth/portal', newTab ? '_blank' : '_self', 'noopener');
  }

  hideAdminPortal(): void {
    this.runtime?.hideAdminPortal();
  }

  /** Opens the checkout dialog for `planId` (docs/checkout.md); nothing of it loads before the first call. */
  async showCheckoutDialog(options: { planId: string }): Promise<void> {
    await this.ready;
    await this.runtime!.showCheckoutDialog(options);
  }

  hideCheckoutDialog(): void {
    this.runtime?.hideCheckoutDialog();
  }

  /** The signed-in user's entitlements (features, plans, permissions); null until loaded. Throws while `entitlementsOptions.enabled` is off. */
  getEntitlements(): EntitlementsContext | null {
    return this.entitlements()?.get() ?? null;
  }

  /** Is the signed-in user entitled to this feature or permission? `{ explain: true }` adds what decided. Throws while entitlements are off. */
  isEntitledTo(query: EntitlementQuery, customAttributes?: CustomAttributes, options?: Pick<CheckOptions, 'explain'>): EntitlementResult {
    return (
      this.entitlements()?.isEntitledTo(query, customAttributes, options) ?? {
        isEntitled: false,
        justification: (query as { featureKey?: string }).featureKey === undefined ? 'MISSING_PERMISSION' : 'MISSING_FEATURE',
        ...(options?.explain && { explanation: [{ source: 'none', reason: 'Entitlements are not loaded yet' }] }),
      }
    );
  }

  /** `isEntitledTo({ featureKey: key }, ...)`. */
  getFeatureEntitlements(key: string, customAttributes?: CustomAttributes, options?: Pick<CheckOptions, 'explain'>): EntitlementResult {
    return this.isEntitledTo({ featureKey: key }, customAttributes, options);
  }

  /** `isEntitledTo({ permissionKey: key }, ...)`. */
  getPermissionEntitlements(key: string, customAttributes?: CustomAttributes, options?: Pick<CheckOptions, 'explain'>): EntitlementResult {
    return this.isEntitledTo({ permissionKey: key }, customAttributes, options);
  }

  private entitlements(): LoadedEntitlements | null | undefined {
    if (!this.options.entitlementsOptions?.enabled) throw new Error(ENTITLEMENTS_DISABLED_MESSAGE);
    return this.runtime?.entitlements();
  }

  /** Unmounts everything and forgets the app. */
  destroy(): void {
    this.runtime?.destroy();
    apps.delete(this.name);
  }

  private async start(): Promise<void> {
    const body = document.body.classList;
    body.add(LOADING_BODY_CLASS);
    try {
      const baseUrl = this.options.contextOptions.baseUrl.replace(/\/+$/, '');
      const cdnBase = resolveCdnBase(this.options, baseUrl);
      const { contextOptions: c, framework } = this.options;
      // Seed 000 section 7.3: the API calls of stage 1 carry the client headers the runtime's client sends (the CDN manifest none).
      const headers = validHeaders({
        'x-gatehouse-source': 'gatehouse-loader',
        'x-gatehouse-sdk': SDK_MARKER,
        'x-gatehouse-client-id': c.clientId,
        'x-gatehouse-tenant-id': new URLSearchParams(location.search).get('tenantId'),
        'x-gatehouse-login-alias': c.loginAlias,
        'x-gatehouse-application-id': c.applicationId,
        'x-gatehouse-framework': framework,
      });
      const get = (path: string, init: RequestInit = {}) => this.fetchJson(baseUrl + path, path, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
      const hint = createSessionHint(baseUrl);
      // Preview mode calls no API at all: the runtime answers from sample data (only the CDN is fetched).
      const preview = this.options.previewMode === true;
      const [manifest, flags, metadata, session] = await Promise.all([
        this.fetchJson(cdnBase + 'cdn-manifest.json', 'manifest', { credentials: 'omit' }) as Promise<CdnManifest>,
        preview ? {} : (get(ApiPaths.flags).catch(() => ({})) as Promise<Record<string, string>>),
        preview
          ? {}
          : get(`${ApiPaths.metadata}?entityName=adminBox`)
              .then((m) => (m as { rows?: Array<{ configuration?: Record<string, unknown> }> }).rows?.[0]?.configuration ?? {})
              .catch(() => ({})),
        // Hosted login restores the session in the runtime (silent refresh), not with the embedded cookie call.
        // No hint: this browser holds no session here, and asking would only log a 401.
        preview || this.options.hostedLoginBox || !hint.mayHaveSession() ? null : withRefreshLock(baseUrl, () => loadSession(get, hint)),
      ]);
      // Each bundle's version for this person (pin, canary or default), known once the session is.
      const chosen = await chooseVersions(manifest, session?.me);
      const load = <T>(bundle: string) => importBundle<T>(chosen, cdnBase, bundle, this.options.nonce);
      const context: BootContext = {
        name: this.name,
        options: this.options,
        cdnBase,
        manifest: chosen,
        flags,
        metadata,
        session,
        // A pinned or canary version that fails to load falls back once to the default: a bad canary degrades, it does not break.
        importBundle: <T>(bundle: string) =>
          load<T>(bundle).catch((error: Error) => {
            const fallback = manifest.bundles[bundle]!;
            const failed = chosen.bundles[bundle]!;
            if (failed === fallback) throw error;
            this.record(bundle, new Error(`${failed.version} failed, loading ${fallback.version}: ${error.message}`));
            chosen.bundles[bundle] = fallback;
            return load<T>(bundle);
          }),
        reportError: (request, error) => this.record(request, error),
        notifyChange: () => this.changeListeners.forEach((listener) => listener()),
      };
      const runtime = await context.importBundle<{ boot(ctx: BootContext): Promise<RuntimeHandle> }>('runtime');
      this.runtime = await runtime.boot(context);
    } finally {
      body.remove(LOADING_BODY_CLASS);
      this.loading = false;
      for (const listener of this.listeners) listener();
      this.listeners.clear();
    }
  }

  private async fetchJson(url: string, request: string, init: RequestInit = {}): Promise<unknown> {
    let response: Response;
    try {
      const headers = { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers as Record<string, string>) };
      response = await fetch(url, { credentials: 'include', ...init, headers });
    } catch (error) {
      this.record(request, error);
      throw error;
    }
    if (!response.ok) {
      const error = Object.assign(new Error(`Error ${response.status} - ${response.statusText}`), {
        statusCode: response.status,
        traceId: response.headers.get('x-trace-id') ?? undefined,
      });
      if (response.status >= 500) this.record(request, error);
      throw error;
    }
    return response.json();
  }

  private record(request: string, error: unknown): void {
    const e = error as { message?: string; traceId?: string };
    this.errors.push({ request, message: e?.message ?? String(error), traceId: e?.traceId });
    console.error(`[Gatehouse] ${request} failed`, e?.message ?? error, e?.traceId ?? '');
  }
}

/** Session call: refresh cookie -> access token -> current user. No session: null (and no hint when the server said so). */
async function loadSession(get: (path: string, init?: RequestInit) => Promise<unknown>, hint: SessionHint): Promise<BootContext['session']> {
  try {
    const login = (await get(ApiPaths.refresh, { method: 'POST', body: '{}' })) as NonNullable<BootContext['session']>['login'];
    const me = (await get(ApiPaths.me, { headers: { authorization: `Bearer ${login.accessToken}` } })) as NonNullable<BootContext['session']>['me'];
    return { login, me };
  } catch (error) {
    if (isNoSessionAnswer((error as { statusCode?: number }).statusCode)) hint.clear();
    return null;
  }
}

/** Imports a bundle listed in the manifest: its files' hashes go into an import map first (SRI). */
export function importBundle<T>(manifest: CdnManifest, cdnBase: string, bundle: string, nonce?: string): Promise<T> {
  const entry = manifest.bundles[bundle];
  if (!entry) return Promise.reject(new Error(`Bundle ${bundle} is not in the CDN manifest`));
  const load = async () => {
    let listed = entry.files;
    if (entry.fileList) {
      // fetch() checks the list against the manifest's hash: a tampered list never reaches the map.
      const res = await fetch(cdnBase + entry.fileList, { credentials: 'omit', integrity: entry.fileListIntegrity ?? '' }).catch(() => null);
      if (!res?.ok) throw new Error(`Failed to load ${cdnBase + entry.fileList} (integrity check or network error)`);
      listed = (await res.json()) as Record<string, string>;
    }
    return importWithIntegrity<T>(cdnBase, entry.entry, { ...listed, [entry.entry]: entry.integrity }, nonce);
  };
  return withTimeout(load(), ASSET_LOAD_TIMEOUT_MS, `Failed to load ${bundle} from ${cdnBase + entry.entry}`);
}

function resolveCdnBase(options: GatehouseOptions, baseUrl: string): string {
  if (options.cdnUrl) return options.cdnUrl.replace(/\/*$/, '/');
  // An inline script calling initialize() is the current script then, with an empty src: the loader's own is meant.
  const src = (document.currentScript as HTMLScriptElement | null)?.src || loaderSrc;
  const at = src?.indexOf('/cdn/') ?? -1;
  return at >= 0 ? src!.slice(0, at + 5) : `${baseUrl}/cdn/`;
}

// currentScript is only set while the script first runs; remember it for later initialize() calls.
const loaderSrc = (document.currentScript as HTMLScriptElement | null)?.src;
const apps = new Map<string, GatehouseApp>();

/** Creates (or returns) the app called `name`. A missing base URL alerts and throws. */
export function initialize(options: GatehouseOptions, name: string = DEFAULT_APP_NAME): GatehouseApp {
  if (!options?.contextOptions?.baseUrl) {
    alert(MISSING_BASE_URL);
    throw new Error(MISSING_BASE_URL);
  }
  let app = apps.get(name);
  if (!app) {
    app = new GatehouseApp(name, options);
    apps.set(name, app);
  }
  return app;
}

/** Returns the app called `name`; throws 'GatehouseApp not found' for an unknown name. */
export function getApp(name: string = DEFAULT_APP_NAME): GatehouseApp {
  const app = apps.get(name);
  if (!app) throw new Error(APP_NOT_FOUND);
  return app;
}

export const version = ASSET_VERSION;
