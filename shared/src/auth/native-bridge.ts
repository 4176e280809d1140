/**
 * The native mobile bridge (seed 000 section 1): when the page runs inside a native app's web view
 * on iOS or Android, the app may take over SSO, social login and password saving. It is used only
 * on those platforms and only for a method the bridge reports support for
 * (`window.GatehouseNativeBridgeFunctions[method] === true`). The app provides it as
 * `window.webkit.messageHandlers.GatehouseNativeBridge` (iOS: one `postMessage` of
 * `{ action, data }` as JSON) or `window.GatehouseNativeBridge` (Android: one function per method).
 */

/** The seed's error, with the product's name: thrown by a call the bridge cannot take. */
export const NATIVE_BRIDGE_NOT_AVAILABLE = 'GatehouseNativeBridge is not available';

export const NATIVE_BRIDGE_METHODS = ['loginWithSSO', 'loginWithSocialLogin', 'loginWithSocialLoginProvider', 'loginWithCustomSocialLoginProvider', 'suggestSavePassword'] as const;
export type NativeBridgeMethod = (typeof NATIVE_BRIDGE_METHODS)[number];

/** What the bridge reads of `window`; tests pass their own. */
export interface NativeBridgeHost {
  navigator?: { userAgent?: string };
  GatehouseNativeBridgeFunctions?: unknown;
  GatehouseNativeBridge?: unknown;
  webkit?: { messageHandlers?: { GatehouseNativeBridge?: { postMessage?: unknown } } };
}

export interface NativeBridge {
  /** Does this page run on iOS or Android with a bridge that reports support for `method`? */
  isAvailable(method: NativeBridgeMethod): boolean;
  /** Hands the SSO address (from preLogin) to the app. */
  loginWithSSO(address: string): void;
  /** Hands a social provider's sign-in URL to the app. */
  loginWithSocialLogin(url: string): void;
  /** Lets the app sign in with a built-in social provider (`google`, `apple`, ...) itself. */
  loginWithSocialLoginProvider(provider: string): void;
  /** Lets the app sign in with a custom social provider, by its id. */
  loginWithCustomSocialLoginProvider(providerId: string): void;
  /** Offers the app the credentials just used, for its password store. */
  suggestSavePassword(email: string, password: string): void;
}

type Platform = 'ios' | 'android' | null;

function platformOf(host: NativeBridgeHost): Platform {
  const agent = host.navigator?.userAgent ?? '';
  if (/iPhone|iPad|iPod/.test(agent)) return 'ios';
  if (/Android/.test(agent)) return 'android';
  return null;
}

/** The bridge over `host` (default: the page's window). Reads `host` at every call: the app may install it late. */
export function createNativeBridge(host: NativeBridgeHost = globalThis as NativeBridgeHost): NativeBridge {
  const ios = () => {
    const handler = host.webkit?.messageHandlers?.GatehouseNativeBridge;
    return typeof handler?.postMessage === 'function' ? (handler as { postMessage(message: string): void }) : null;
  };
  const android = (method: NativeBridgeMethod) => {
    const bridge = host.GatehouseNativeBridge as Record<string, unknown> | undefined;
    const fn = bridge?.[method];
    return typeof fn === 'function' ? (data: string) => (fn as (data: string) => void).call(bridge, data) : null;
  };
  const supported = (method: NativeBridgeMethod) => {
    const functions = host.GatehouseNativeBridgeFunctions as Record<string, unknown> | undefined;
    return functions?.[method] === true;
  };
  const isAvailable = (method: NativeBridgeMethod) => {
    switch (platformOf(host)) {
      case 'ios':
        return ios() !== null && supported(method);
      case 'android':
        return android(method) !== null && supported(method);
      default:
        return false;
    }
  };
  const send = (method: NativeBridgeMethod, data: string) => {
    if (!isAvailable(method)) throw new Error(NATIVE_BRIDGE_NOT_AVAILABLE);
    if (platformOf(host) === 'ios') ios()!.postMessage(JSON.stringify({ action: method, data }));
    else android(method)!(data);
  };
  return {
    isAvailable,
    loginWithSSO: (address) => send('loginWithSSO', address),
    loginWithSocialLogin: (url) => send('loginWithSocialLogin', url),
    loginWithSocialLoginProvider: (provider) => send('loginWithSocialLoginProvider', provider),
    loginWithCustomSocialLoginProvider: (providerId) => send('loginWithCustomSocialLoginProvider', providerId),
    suggestSavePassword: (email, password) => send('suggestSavePassword', JSON.stringify({ email, password })),
  };
}

/**
 * Login steps a password sign-in reaches once the server accepted the password: the ones where the
 * app may keep it (suggestSavePassword). An expired or breached password is accepted too, but is
 * not one to keep, so passwordRotationExpired and breachedPassword are not here.
 */
export const PASSWORD_KEPT_STEPS: readonly string[] = ['success', 'promptPasskeys', 'loginWithTwoFactor', 'forceTwoFactor', 'passwordRotationNotification'];

/** Offers the app the credentials (suggestSavePassword) when it runs on iOS or Android and reports support; nothing otherwise. */
export function offerPasswordToApp(email: string, password: string, host?: NativeBridgeHost): boolean {
  const bridge = createNativeBridge(host);
  if (!bridge.isAvailable('suggestSavePassword')) return false;
  bridge.suggestSavePassword(email, password);
  return true;
}
