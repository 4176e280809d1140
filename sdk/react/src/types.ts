/**
 * The shapes of the loader this SDK talks to (loader/src/gatehouse.ts), written out here so the
 * published package depends on no private workspace package. Types only: no runtime code.
 */

export interface GatehouseRole { id: string; key: string; name: string }
export interface GatehousePermission { id: string; key: string; name: string }
export interface GatehouseTenant { id: string; tenantId: string; name: string; isReseller?: boolean }

/** The signed-in user as the loader's store holds it (`me` plus the access token). */
export interface GatehouseUser {
  id: string;
  email: string | null;
  name: string;
  tenantId: string;
  tenantIds: string[];
  tenants: GatehouseTenant[];
  roles: GatehouseRole[];
  permissions: GatehousePermission[];
  superUser: boolean;
  username?: string | null;
  phoneNumber?: string | null;
  profilePictureUrl?: string | null;
  verified?: boolean;
  mfaEnrolled?: boolean;
  accessToken: string;
  /** Epoch ms when the access token expires. */
  expiresAt?: number;
}

/** The part of the loader store's snapshot the hooks read. */
export interface LoaderAuthSnapshot {
  isLoading: boolean;
  isAuthenticated: boolean;
  user: GatehouseUser | null;
}

/** The loader's auth store: subscribe/snapshot plus the actions the hooks expose. */
export interface LoaderStore {
  subscribe(listener: () => void): () => void;
  getSnapshot(): LoaderAuthSnapshot;
  getAccessToken(): string | null;
  logout(): Promise<void>;
  switchTenant(tenantId: string): Promise<void>;
}

/** What an entitlement check asks about. */
export type EntitlementQuery = { featureKey: string } | { permissionKey: string };
export type CustomAttributes = Record<string, string | number | boolean | Date>;
export type EntitlementResult = { isEntitled: true; justification?: undefined } | { isEntitled: false; justification: string };

/** One feature of the signed-in user's entitlements (expireTime: epoch ms, -1 for none, null for not entitled). */
export interface FeatureEntitlement { planIds: string[]; expireTime: number | null; linkedPermissions: string[] }
export interface EntitlementsData {
  features: Record<string, FeatureEntitlement>;
  plans: Record<string, unknown>;
  permissions: Record<string, true>;
  /** The tenant's plan (its subscription, a retained trial, else the vendor's default plan), null for none. */
  planId?: string | null;
}

/** Options of `Gatehouse.initialize(options, name)` (docs/loader.md); passed through as given. */
export interface GatehouseLoaderOptions {
  contextOptions: { baseUrl: string; clientId?: string; tenantResolver?: () => string | undefined };
  authOptions?: {
    routes?: Record<string, string>;
    allowedRedirectOrigins?: string[];
    enforceRedirectToSameSite?: boolean;
    /** The login box offers a user in several tenants the choice of tenant after sign-in (docs/embedding.md). */
    chooseTenantAfterLogin?: boolean;
  };
  entitlementsOptions?: { enabled: boolean };
  [option: string]: unknown;
}

/** A `GatehouseApp` of the loader (`Gatehouse.initialize` returns it). */
export interface LoaderApp {
  readonly name: string;
  readonly options: GatehouseLoaderOptions;
  readonly ready: Promise<void>;
  readonly store: LoaderStore | null;
  addOnLoadedListener(listener: () => void): () => void;
  logout(): Promise<void>;
  loginWithRedirect(): Promise<void>;
  showAdminPortal(): Promise<void>;
  /** The admin portal in multi-app mode while the flag multi-apps-admin-portal is on; else the normal portal, with a console warning. */
  showMultiAppsAdminPortal(): Promise<void>;
  hideAdminPortal(): void;
  showCheckoutDialog(options: { planId: string }): Promise<void>;
  hideCheckoutDialog(): void;
  getEntitlements(): EntitlementsData | null;
  /** The caller's feature flags, each 'on' or 'off'; null until the app has loaded. */
  getFeatureFlags(): Record<string, 'on' | 'off'> | null;
  /** Calls `listener` whenever the caller's flags or loaded entitlements change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  isEntitledTo(query: EntitlementQuery, customAttributes?: CustomAttributes): EntitlementResult;
}

/** The global `Gatehouse` object the loader script defines. */
export interface LoaderGlobal {
  initialize(options: GatehouseLoaderOptions, name?: string): LoaderApp;
  version: string;
}
