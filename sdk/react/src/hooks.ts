/**
 * The hooks: each one a `useSyncExternalStore` over the provider's client, selecting a slice.
 * Actions wait for the loader to be ready, so a click during loading is not lost.
 */
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { GatehouseClient, GatehouseState } from './client.js';
import { useGatehouseClient } from './context.js';
import { isSteppedUp, stepUpExpiresAt, tokenClaims } from './step-up.js';
import type { CustomAttributes, EntitlementQuery, EntitlementResult, EntitlementsData, GatehousePermission, GatehouseRole, GatehouseTenant, GatehouseUser } from './types.js';

function useGatehouseState(hook: string): { client: GatehouseClient; state: GatehouseState } {
  const client = useGatehouseClient(hook);
  const state = useSyncExternalStore(client.subscribe, client.getSnapshot, client.getServerSnapshot);
  return { client, state };
}

/** The default step-up route (seed 000 section 2.1). */
const DEFAULT_STEP_UP_URL = '/account/step-up';

export interface AuthState {
  user: GatehouseUser | null;
  isAuthenticated: boolean;
  /** True until the loader has loaded and restored any session. */
  isLoading: boolean;
  /** The loader failed to load (script, integrity or runtime); the page stays signed out. */
  error: Error | null;
}

/** Who is signed in. */
export function useAuth(): AuthState {
  const { state } = useGatehouseState('useAuth');
  const { auth, error } = state;
  return useMemo(() => ({ user: auth.user, isAuthenticated: auth.isAuthenticated, isLoading: auth.isLoading, error }), [auth, error]);
}

/** The signed-in user, or null. */
export function useUser(): GatehouseUser | null {
  return useGatehouseState('useUser').state.auth.user;
}

export interface TenantsState {
  tenants: GatehouseTenant[];
  /** The tenant the session is in. */
  activeTenantId: string | null;
  /** Moves the session to another of the user's tenants (a new access token follows). */
  switchTenant(tenantId: string): Promise<void>;
}

/** The user's tenants and the switch between them. */
export function useTenants(): TenantsState {
  const { client, state } = useGatehouseState('useTenants');
  const user = state.auth.user;
  const switchTenant = useCallback(async (tenantId: string) => {
    const app = await client.whenReady();
    await app.store!.switchTenant(tenantId);
  }, [client]);
  return useMemo(() => ({ tenants: user?.tenants ?? [], activeTenantId: user?.tenantId ?? null, switchTenant }), [user, switchTenant]);
}

export interface AuthActions {
  /** Shows the login route (the embedded login box, or hosted login). */
  login(): Promise<void>;
  /** Same as `login`: to the login route, coming back to this page afterwards. */
  loginWithRedirect(): Promise<void>;
  logout(): Promise<void>;
  /** Asks for a second factor unless the user stepped up within `maxAge` seconds (seed 000 section 4.9); comes back here after. */
  stepUp(options?: { maxAge?: number }): Promise<void>;
}

/** Sign-in, sign-out and step-up. */
export function useAuthActions(): AuthActions {
  const client = useGatehouseClient('useAuthActions');
  return useMemo(() => {
    const loginWithRedirect = async () => (await client.whenReady()).loginWithRedirect();
    return {
      login: loginWithRedirect,
      loginWithRedirect,
      logout: async () => (await client.whenReady()).logout(),
      stepUp: async (options = {}) => {
        const app = await client.whenReady();
        const route = app.options.authOptions?.routes?.stepUpUrl ?? DEFAULT_STEP_UP_URL;
        const url = new URL(route, window.location.href);
        if (options.maxAge !== undefined) {
          if (!Number.isInteger(options.maxAge) || options.maxAge < 0) throw new TypeError('stepUp: maxAge must be a whole number of seconds');
          url.searchParams.set('maxAge', String(options.maxAge));
        }
        url.searchParams.set('redirectUrl', window.location.pathname + window.location.search + window.location.hash);
        // The loader's router follows pushState + popstate: the login box opens its step-up screen.
        window.history.pushState(null, '', url.pathname + url.search);
        window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
      },
    };
  }, [client]);
}

/**
 * Has the signed-in user stepped up (seed 000 section 4.9: `acr` the multi-factor identifier, `amr`
 * with `mfa` and one of otp, sms or hwk), within `maxAge` seconds when given? Read from the access
 * token, so it follows sign-in, step-up and refreshes; with `maxAge` it turns false by itself once
 * that many seconds have passed since `auth_time`. For display: check on the server too.
 */
export function useIsSteppedUp(options: { maxAge?: number } = {}): boolean {
  const token = useGatehouseState('useIsSteppedUp').state.auth.user?.accessToken ?? null;
  const { maxAge } = options;
  if (maxAge !== undefined && (!Number.isInteger(maxAge) || maxAge < 0)) throw new TypeError('useIsSteppedUp: maxAge must be a whole number of seconds');
  const claims = useMemo(() => tokenClaims(token), [token]);
  // A clock tick at the moment the step-up gets too old, so the answer changes without another render cause.
  const [, setTick] = useState(0);
  const steppedUp = isSteppedUp(claims, { maxAge });
  const expiresAt = steppedUp ? stepUpExpiresAt(claims, maxAge) : null;
  useEffect(() => {
    if (expiresAt === null) return;
    const timer = setTimeout(() => setTick((n) => n + 1), Math.max(0, expiresAt - Date.now()));
    return () => clearTimeout(timer);
  }, [expiresAt]);
  return steppedUp;
}

export interface PermissionsState {
  permissions: GatehousePermission[];
  roles: GatehouseRole[];
  isSuperUser: boolean;
  /** Seed 000 section 6: super users pass; else every key must be held. */
  hasPermissions(keys: readonly string[]): boolean;
  hasRoles(keys: readonly string[]): boolean;
}

/** The signed-in user's permissions and roles, with the gate's checks. */
export function usePermissions(): PermissionsState {
  const user = useGatehouseState('usePermissions').state.auth.user;
  return useMemo(() => {
    const isSuperUser = user?.superUser === true;
    const permissions = user?.permissions ?? [];
    const roles = user?.roles ?? [];
    return {
      permissions,
      roles,
      isSuperUser,
      hasPermissions: (keys) => !!user && (isSuperUser || keys.every((k) => permissions.some((p) => p.key === k))),
      hasRoles: (keys) => !!user && (isSuperUser || keys.every((k) => roles.some((r) => r.key === k))),
    };
  }, [user]);
}

export interface EntitlementsState {
  /** The loaded entitlements, or null (signed out, still loading, or `entitlementsOptions.enabled` off). */
  entitlements: EntitlementsData | null;
  /** `app.isEntitledTo`: not entitled while nothing is loaded. */
  isEntitledTo(query: EntitlementQuery, customAttributes?: CustomAttributes): EntitlementResult;
}

/** The signed-in user's entitlements and the loader's check over them. */
export function useEntitlements(): EntitlementsState {
  const { client, state } = useGatehouseState('useEntitlements');
  const { entitlements } = state;
  return useMemo(
    () => ({
      entitlements,
      isEntitledTo: (query, customAttributes) => {
        const app = client.app();
        if (!app || !entitlements) return { isEntitled: false, justification: 'featureKey' in query ? 'MISSING_FEATURE' : 'MISSING_PERMISSION' };
        return app.isEntitledTo(query, customAttributes);
      },
    }),
    [client, entitlements],
  );
}

/** Is feature flag `key` on for the caller? (the loader's `getFeatureFlags()`, followed as it changes; off while unknown). */
export function useFeatureFlag(key: string): boolean {
  return useGatehouseState('useFeatureFlag').state.flags[key] === 'on';
}

/**
 * Opens and closes the admin portal. `showMultiApps` opens it in multi-app mode (the loader's
 * `showMultiAppsAdminPortal()`): only while the flag multi-apps-admin-portal is on, else the normal portal.
 */
export function useAdminPortal(): { show(): Promise<void>; showMultiApps(): Promise<void>; hide(): void } {
  const client = useGatehouseClient('useAdminPortal');
  return useMemo(
    () => ({
      show: async () => (await client.whenReady()).showAdminPortal(),
      showMultiApps: async () => (await client.whenReady()).showMultiAppsAdminPortal(),
      hide: () => client.app()?.hideAdminPortal(),
    }),
    [client],
  );
}

/** Opens the checkout dialog for a plan, and closes it. */
export function useCheckout(): { show(options: { planId: string }): Promise<void>; hide(): void } {
  const client = useGatehouseClient('useCheckout');
  return useMemo(() => ({ show: async (options: { planId: string }) => (await client.whenReady()).showCheckoutDialog(options), hide: () => client.app()?.hideCheckoutDialog() }), [client]);
}
