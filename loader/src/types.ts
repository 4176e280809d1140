/** Types shared by the stage-1 loader and the stage-2 runtime. No runtime code here. */
import type { AuthRoutes, AuthSnapshot, GatehouseStore } from '@gatehouse/shared';
import type { CdnManifestBundle, CdnVersionDescriptor, LoginResponse, MeResponse } from '@gatehouse/shared/wire';
import type { CheckOptions, CustomAttributes, EntitlementResult, EntitlementsContext } from '@gatehouse/shared/entitlements';

/** Options of `Gatehouse.initialize(options, name)`. */
export interface GatehouseOptions {
  /** `loginAlias` and `applicationId` (the requested application) go with every call as headers (seed 000 section 7.3). */
  contextOptions: { baseUrl: string; clientId?: string; tenantResolver?: () => string | undefined; loginAlias?: string; applicationId?: string };
  /** The host framework's marker sent with every call (seed 000 section 7.3), e.g. `@gatehouse/react@1.0.0`; the SDKs set it. */
  framework?: string;
  authOptions?: {
    routes?: Partial<AuthRoutes>;
    /** Allowed origins for `redirectUrl`, besides the page's own site. */
    allowedRedirectOrigins?: string[];
    enforceRedirectToSameSite?: boolean;
    /** After sign-in, a user in several tenants chooses the tenant to continue in on the login box (default false: straight on). */
    chooseTenantAfterLogin?: boolean;
  };
  /** Where the CDN lives; default: the folder the loader script was served from, up to `/cdn/`. */
  cdnUrl?: string;
  /** Render inside a shadow root (default) or in light DOM (better password-manager autofill). */
  shadowDom?: boolean;
  /** Nonce for elements the loader adds (import maps), for a strict Content-Security-Policy. */
  nonce?: string;
  /** Send users to this page instead of the login route when a page needs a signed-in user. */
  customLoginUrl?: string;
  /** Redirect to the login route when no user is signed in and the page is not an auth route (default true). */
  redirectToLogin?: boolean;
  /**
   * Hosted login (seed 000 sections 1, 4.10): users sign in on the Gatehouse server's login page
   * (OAuth 2.0 authorization code with PKCE S256) instead of an embedded login box.
   * `contextOptions.clientId` is then the registered OAuth client (e.g. `demo-spa` in dev mode).
   */
  hostedLoginBox?: boolean;
  /** Hosted login: the tenant to sign in to, sent to authorize as `tenantId` / `organization`. */
  hostedLoginOptions?: { tenantId?: string; organization?: string };
  adminPortal?: Record<string, unknown>;
  /**
   * The language of the login box, the portal and the emails they cause: 'en', 'de', 'es', 'he',
   * or any BCP 47 tag of those ('de-AT'). Default: the browser's languages, else English.
   */
  locale?: string;
  /**
   * This app's look over the tenant's: 'light', 'dark' or 'system', or tokens such as
   * `{ mode: 'dark', primary: '#0b7285', radius: '12px' }` (docs/theming.md). It wins over metadata.
   */
  theme?: string | Record<string, unknown>;
  /**
   * Entitlements in the browser (docs/entitlements.md "In the browser"): with `enabled: true` the
   * signed-in user's entitlements load after sign-in and again with every new access token, and
   * `app.getEntitlements()` / `app.isEntitledTo(...)` answer from them. Off by default: those
   * methods then throw an error telling the host to enable this option.
   */
  entitlementsOptions?: { enabled: boolean };
  /**
   * Preview mode (docs/preview-mode.md): the login box and the portal work on the seed's sample data,
   * every action simulated in the browser; the identity API is never called (the bundles still load from the CDN).
   */
  previewMode?: boolean;
}

/** What an entitlement check asks about: a feature or a permission (patterns with `*`). */
export type EntitlementQuery = { featureKey: string } | { permissionKey: string };

/** The runtime's entitlements, once loaded: the data and the checks over it. */
export interface LoadedEntitlements {
  get(): EntitlementsContext;
  isEntitledTo(query: EntitlementQuery, customAttributes?: CustomAttributes, options?: Pick<CheckOptions, 'explain'>): EntitlementResult;
}

/** One version of a bundle as the manifest describes it, and a bundle with its rollout (docs/cdn.md): the server's shapes. */
export type ManifestEntry = CdnVersionDescriptor;
export type ManifestBundle = CdnManifestBundle;
/** `cdn-manifest.json`: which version of each bundle is live, with integrity hashes. */
export interface CdnManifest { version: string; bundles: Record<string, ManifestBundle> }

/** What stage 1 fetched in parallel and hands to stage 2. */
export interface BootContext {
  name: string;
  options: GatehouseOptions;
  cdnBase: string;
  manifest: CdnManifest;
  flags: Record<string, string>;
  metadata: Record<string, unknown>;
  session: { login: LoginResponse; me: MeResponse } | null;
  /** Loads (with SRI and the asset timeout) a module listed in the manifest. */
  importBundle<T>(name: string): Promise<T>;
  /** Records an error by request name (seed 000 section 8). */
  reportError(requestName: string, error: unknown): void;
  /** Tells the app's `subscribe()` listeners that the caller's flags or entitlements changed (absent under an older loader). */
  notifyChange?(): void;
}

/** What stage 2 returns to the app object. */
export interface RuntimeHandle {
  store: GatehouseStore;
  getState(): AuthSnapshot;
  /** `multiApps`: in multi-app mode (the caller checked the flag); shown already, the portal switches mode. */
  showAdminPortal(options?: { multiApps?: boolean }): Promise<void>;
  hideAdminPortal(): void;
  /** Mounts the checkout dialog for a plan; the checkout bundle loads on first use. */
  showCheckoutDialog(options: { planId: string }): Promise<void>;
  hideCheckoutDialog(): void;
  showLoginBox(): Promise<void>;
  logout(): Promise<void>;
  /** External authentication (seed 000 section 4.10): a token sets the user, null clears it. */
  setAuthentication(token: string | null): Promise<void>;
  loginWithRedirect(): void;
  /** The signed-in user's entitlements; null until loaded (or when loading is off, or signed out). */
  entitlements(): LoadedEntitlements | null;
  /** The caller's feature flags (the anonymous ones while signed out), each 'on' or 'off'. */
  featureFlags(): Record<string, 'on' | 'off'>;
  destroy(): void;
}
