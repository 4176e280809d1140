/**
 * Stage-2 runtime: builds the API client and auth store from what stage 1 fetched, then mounts
 * the bundles as single-spa parcels into custom elements as routes and calls require.
 */
import { REDIRECT_URL_PARAM, createGatehouse, getValidRedirectUrl, isAuthRoute, matchRoute, resolveLocale } from '@gatehouse/shared';
import { createSessionHint } from '../../../shared/src/auth/session-hint';
import type { AuthRoutes, MountProps } from '@gatehouse/shared';
import type { BootContext, GatehouseOptions, RuntimeHandle } from '../types';
import { createFederation } from './federation';
import { ensureLazyImportGate } from './lazy-lists';
import { createHistory } from './history';
import { BundleMount } from './mount-point';
import { watchSignOut } from './sign-out-watch';
import type { CallerData } from './caller-data';
import type { HostExtras } from './host-extras';
import { separateTabsEnabled } from '../../../shared/src/auth/separate-tabs-keys';

/** The login URL (or the custom one) with `redirectUrl` set to the page the user wanted. */
export function loginRedirectUrl(options: Pick<GatehouseOptions, 'customLoginUrl'>, routes: AuthRoutes, currentHref: string): string {
  const url = new URL(options.customLoginUrl ?? routes.customLoginUrl ?? routes.loginUrl, currentHref);
  url.searchParams.set(REDIRECT_URL_PARAM, currentHref);
  return url.href;
}

/**
 * The API client options of the runtime's clients: the store's and the one external authentication
 * builds around a host's token. contextOptions carries loginAlias and applicationId (client headers,
 * seed 7.3). In preview mode both get the preview's fetch, so no call of either reaches the network.
 */
export function runtimeClient(options: GatehouseOptions, baseUrl: string, fetch?: typeof globalThis.fetch) {
  return { ...options.contextOptions, baseUrl, clientId: options.contextOptions.clientId ?? '', source: 'gatehouse-runtime', locale: options.locale, framework: options.framework, fetch };
}

/** The flags as the app's getFeatureFlags() gives them: each 'on' or 'off' (a value other than 'on' is off, as isFlagOn reads it). */
export function onOrOff(flags: Record<string, string>): Record<string, 'on' | 'off'> {
  return Object.fromEntries(Object.entries(flags).map(([key, value]) => [key, value === 'on' ? 'on' : 'off']));
}

/** The portal's name while its code arrives, in the languages it speaks (its shell catalogs' title). */
const PORTAL_NAME = { en: 'Admin portal', de: 'Verwaltungsportal', es: 'Portal de administración', he: 'פורטל הניהול' } as const;
/** The checkout dialog's name while its code arrives (its catalogs' title). */
const CHECKOUT_NAME = { en: 'Checkout', de: 'Bezahlung', es: 'Pago', he: 'תשלום' } as const;

export async function boot(ctx: BootContext): Promise<RuntimeHandle> {
  const { options } = ctx;
  // Before any import(): lazily imported files must never load unchecked.
  ensureLazyImportGate(ctx);
  const baseUrl = options.contextOptions.baseUrl.replace(/\/+$/, '');
  const history = createHistory();
  const sessionHint = createSessionHint(baseUrl);
  // Preview mode (docs/preview-mode.md): the sample data's API in place of the network; its own chunk, only in that mode.
  const preview = options.previewMode ? await import('./preview').then((m) => m.createPreview(ctx, baseUrl)) : null;
  const client = runtimeClient(options, baseUrl, preview?.fetch);
  const { api, store, routes } = createGatehouse({
    ...client,
    // allowedRedirectOrigins, chooseTenantAfterLogin (the login box's account choice after sign-in).
    ...options.authOptions,
    routes: options.authOptions?.routes ?? {},
    navigate: history.navigate,
    flags: ctx.flags,
    sessionHint,
    ...preview,
  });
  store.hydrate(ctx.session);
  // External authentication, separate tabs, metadata overrides and Tag Manager: one chunk, loaded only when used.
  const extras: HostExtras = { ctx, store, api, client };
  const hostExtras = () => import('./host-extras');
  const setAuthentication = async (token: string | null) => (await hostExtras()).setAuthentication(extras, token);
  // Hosted login: users sign in on the Gatehouse server (OAuth code + PKCE); its own chunk, only in that mode.
  const hosted = options.hostedLoginBox && !preview
    ? await import('./hosted').then((m) => m.createHostedLogin({ options, baseUrl, routes, store, api, navigate: history.navigate, sessionHint }))
    : null;
  await hosted?.start();

  const { metadataOverrides, integrations } = ctx.metadata;
  // A failed chunk leaves the metadata as it came and the tab following the session's tenant.
  const stopTabs = metadataOverrides || integrations || separateTabsEnabled(globalThis.localStorage) ? await hostExtras().then((m) => m.startHostExtras(extras), () => undefined) : undefined;

  const federation = createFederation(ctx);
  const propsFor = (extra: Partial<MountProps> = {}): Omit<MountProps, 'domElement' | 'setThemeSetter'> => ({
    store,
    api,
    routes,
    navigate: history.navigate,
    options: { flags: caller?.flags() ?? ctx.flags, metadata: ctx.metadata, adminPortal: options.adminPortal, ...options.authOptions, nonce: options.nonce, locale: options.locale, theme: options.theme },
    ...extra,
  });
  const loginBox = new BundleMount('login-box', 'gatehouse-login-box', federation, ctx, options.shadowDom !== false);
  const adminPortal = new BundleMount('admin-portal', 'gatehouse-admin-portal', federation, ctx, options.shadowDom !== false, PORTAL_NAME[resolveLocale(options.locale, navigator.languages ?? [])]);
  const checkout = new BundleMount('checkout', 'gatehouse-checkout', federation, ctx, options.shadowDom !== false, CHECKOUT_NAME[resolveLocale(options.locale, navigator.languages ?? [])]);
  let checkoutPlan: string | null = null;
  let savedSearch: string | null = null;
  // Per signed-in caller, again with every new access token: their flags (a mounted bundle gets them at once) and, when
  // enabled, their entitlements. Its chunk loads at the first signed-in user: nothing of it weighs on the login form.
  let caller: CallerData | undefined;
  let callerLoading = false;
  // The app's subscribe() listeners (stage 1 holds them; a loader older than them passes none).
  const changed = () => ctx.notifyChange?.();
  const startCaller = () => {
    if (callerLoading || !store.getSnapshot().user) return;
    callerLoading = true;
    import('./caller-data').then(
      (m) => {
        stopCallerStart();
        caller = m.watchCaller({
          store,
          api,
          anonymousFlags: ctx.flags,
          entitlementsEnabled: options.entitlementsOptions?.enabled === true,
          onFlags: () => {
            for (const mount of [loginBox, adminPortal]) mount.update({ options: propsFor().options });
            changed();
          },
          onEntitlements: changed,
        });
      },
      () => (callerLoading = false),
    );
  };
  const stopCallerStart = store.subscribe(startCaller);
  startCaller();

  const loginWithRedirect = () => (hosted ? void hosted.login() : window.location.assign(loginRedirectUrl(options, routes, window.location.href)));

  /** On every route change: show the login box on auth routes; elsewhere require a user. */
  const sync = async () => {
    const { pathname } = window.location;
    if (hosted?.sync()) return;
    // The login UI is hidden on the authenticated route and on the sign-up-success route (seed 2.1).
    const loginUiHidden = pathname === routes.authenticatedUrl || pathname === routes.signUpSuccessUrl;
    if (!loginUiHidden && isAuthRoute(pathname, routes)) {
      const route = matchRoute(pathname, routes);
      if (store.getSnapshot().isAuthenticated && (route === 'loginUrl' || route === 'signUpUrl')) {
        // Already signed in: go where the login would have led (a valid redirectUrl), else home.
        const raw = new URLSearchParams(window.location.search).get(REDIRECT_URL_PARAM);
        const target = raw && getValidRedirectUrl(raw, { currentUrl: window.location.href, allowedOrigins: options.authOptions?.allowedRedirectOrigins ?? [] });
        history.navigate(target || routes.authenticatedUrl, { replace: true });
        return;
      }
      await loginBox.mount(propsFor());
      return;
    }
    loginBox.unmount();
    if (!store.getSnapshot().isAuthenticated && options.redirectToLogin !== false) loginWithRedirect();
  };
  const resync = () => void sync().catch((e) => ctx.reportError('login-box', e));
  const stopHistory = history.listen(resync);
  // A failed refresh or a session revoked elsewhere clears the user: send them to the login route.
  const stopSignOutWatch = watchSignOut(store, resync);

  const hideAdminPortal = () => {
    adminPortal.unmount();
    if (savedSearch !== null) {
      // Hiding restores the URL search parameters the page had when the portal opened (seed 2.1).
      const { pathname, hash } = window.location;
      window.history.replaceState(window.history.state, '', pathname + savedSearch + hash);
      savedSearch = null;
    }
  };

  const hideCheckoutDialog = () => {
    checkoutPlan = null;
    checkout.unmount();
  };
  const showCheckoutDialog = async (request: { planId: string }) => {
    const planId = request?.planId;
    if (typeof planId !== 'string' || !planId) throw new TypeError('showCheckoutDialog: planId must be a non-empty string');
    if (!store.getSnapshot().isAuthenticated) return loginWithRedirect();
    // Where focus goes back when it closes: taken now, as the opener (a plan card) may be disabled while the checkout loads.
    let opener = document.activeElement;
    while (opener?.shadowRoot?.activeElement) opener = opener.shadowRoot.activeElement;
    // Another plan while one is shown: a fresh dialog for it.
    if (checkoutPlan !== planId) hideCheckoutDialog();
    checkoutPlan = planId;
    await checkout.mount(propsFor({ planId, opener, onClose: hideCheckoutDialog } as Partial<MountProps>));
  };

  await sync();

  return {
    store,
    getState: () => store.getSnapshot(),
    showLoginBox: () => loginBox.mount(propsFor()),
    async showAdminPortal(request?: { multiApps?: boolean }) {
      if (!store.getSnapshot().isAuthenticated) return loginWithRedirect();
      const multiApps = request?.multiApps === true;
      // Shown already: the same portal switches mode (normal <-> multi-app) in place.
      if (adminPortal.mounted) return adminPortal.update({ multiApps });
      if (savedSearch === null) savedSearch = window.location.search;
      await adminPortal.mount(propsFor({ onClose: hideAdminPortal, checkout: { show: showCheckoutDialog, hide: hideCheckoutDialog }, multiApps } as Partial<MountProps>));
    },
    hideAdminPortal,
    showCheckoutDialog,
    hideCheckoutDialog,
    logout: () => store.logout(),
    setAuthentication,
    loginWithRedirect,
    entitlements: () => caller?.entitlements() ?? null,
    featureFlags: () => onOrOff(caller?.flags() ?? ctx.flags),
    destroy() {
      stopCallerStart();
      stopTabs?.();
      caller?.stop();
      stopHistory();
      stopSignOutWatch();
      loginBox.unmount();
      adminPortal.unmount();
      checkout.unmount();
      store.dispose();
    },
  };
}
