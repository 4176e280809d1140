import { describe, expect, it } from 'vitest';
import { createNativeBridge, NATIVE_BRIDGE_METHODS, NATIVE_BRIDGE_NOT_AVAILABLE, offerPasswordToApp, PASSWORD_KEPT_STEPS, type NativeBridgeHost } from './native-bridge';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const allSupported = Object.fromEntries(NATIVE_BRIDGE_METHODS.map((m) => [m, true]));

function iosHost(functions: Record<string, boolean> = allSupported) {
  const messages: unknown[] = [];
  const host: NativeBridgeHost = { navigator: { userAgent: IPHONE }, GatehouseNativeBridgeFunctions: functions, webkit: { messageHandlers: { GatehouseNativeBridge: { postMessage: (m: string) => messages.push(JSON.parse(m)) } } } };
  return { host, messages };
}

function androidHost(functions: Record<string, boolean> = allSupported) {
  const calls: Array<[string, string]> = [];
  const bridge = Object.fromEntries(NATIVE_BRIDGE_METHODS.map((m) => [m, (data: string) => calls.push([m, data])]));
  const host: NativeBridgeHost = { navigator: { userAgent: ANDROID }, GatehouseNativeBridgeFunctions: functions, GatehouseNativeBridge: bridge };
  return { host, calls };
}

describe('native mobile bridge (seed 000 section 1)', () => {
  it('on iOS posts each call to the message handler as { action, data }', () => {
    const { host, messages } = iosHost();
    const bridge = createNativeBridge(host);
    bridge.loginWithSSO('https://idp.example.com/sso?x=1');
    bridge.loginWithSocialLogin('https://accounts.google.com/o/oauth2/auth?state=s');
    bridge.loginWithSocialLoginProvider('google');
    bridge.loginWithCustomSocialLoginProvider('custom-1');
    bridge.suggestSavePassword('ada@example.com', 'pw');
    expect(messages).toEqual([
      { action: 'loginWithSSO', data: 'https://idp.example.com/sso?x=1' },
      { action: 'loginWithSocialLogin', data: 'https://accounts.google.com/o/oauth2/auth?state=s' },
      { action: 'loginWithSocialLoginProvider', data: 'google' },
      { action: 'loginWithCustomSocialLoginProvider', data: 'custom-1' },
      { action: 'suggestSavePassword', data: JSON.stringify({ email: 'ada@example.com', password: 'pw' }) },
    ]);
  });

  it("on Android calls the bridge's function of that name", () => {
    const { host, calls } = androidHost();
    const bridge = createNativeBridge(host);
    bridge.loginWithSSO('https://idp.example.com/sso');
    bridge.suggestSavePassword('ada@example.com', 'pw');
    expect(calls).toEqual([['loginWithSSO', 'https://idp.example.com/sso'], ['suggestSavePassword', '{"email":"ada@example.com","password":"pw"}']]);
  });

  it("with no bridge every call raises 'GatehouseNativeBridge is not available'", () => {
    const bridge = createNativeBridge({ navigator: { userAgent: IPHONE } });
    expect(NATIVE_BRIDGE_NOT_AVAILABLE).toBe('GatehouseNativeBridge is not available');
    for (const method of NATIVE_BRIDGE_METHODS) expect(bridge.isAvailable(method)).toBe(false);
    expect(() => bridge.loginWithSSO('https://idp.example.com')).toThrow(NATIVE_BRIDGE_NOT_AVAILABLE);
    expect(() => bridge.loginWithSocialLogin('https://x.example')).toThrow(NATIVE_BRIDGE_NOT_AVAILABLE);
    expect(() => bridge.loginWithSocialLoginProvider('google')).toThrow(NATIVE_BRIDGE_NOT_AVAILABLE);
    expect(() => bridge.loginWithCustomSocialLoginProvider('c')).toThrow(NATIVE_BRIDGE_NOT_AVAILABLE);
    expect(() => bridge.suggestSavePassword('a@b.co', 'pw')).toThrow(NATIVE_BRIDGE_NOT_AVAILABLE);
  });

  it('is used only for the methods the bridge reports support for', () => {
    const { host, messages } = iosHost({ loginWithSSO: true, suggestSavePassword: false });
    const bridge = createNativeBridge(host);
    expect(bridge.isAvailable('loginWithSSO')).toBe(true);
    expect(bridge.isAvailable('suggestSavePassword')).toBe(false);
    expect(bridge.isAvailable('loginWithSocialLoginProvider')).toBe(false);
    expect(() => bridge.suggestSavePassword('a@b.co', 'pw')).toThrow(NATIVE_BRIDGE_NOT_AVAILABLE);
    expect(messages).toEqual([]);
  });

  it('is never used off iOS and Android, even when a page defines the bridge objects', () => {
    for (const build of [iosHost, androidHost]) {
      const { host } = build();
      host.navigator = { userAgent: DESKTOP };
      const bridge = createNativeBridge(host);
      for (const method of NATIVE_BRIDGE_METHODS) expect(bridge.isAvailable(method)).toBe(false);
      expect(() => bridge.loginWithSSO('https://idp.example.com')).toThrow(NATIVE_BRIDGE_NOT_AVAILABLE);
    }
  });

  it('a truthy support report that is not true does not count', () => {
    const { host } = androidHost({ loginWithSSO: 'yes' as unknown as boolean });
    expect(createNativeBridge(host).isAvailable('loginWithSSO')).toBe(false);
  });
});

describe('offering a password to the app after sign-in', () => {
  it('sends suggestSavePassword when the app supports it, and says whether it did; nothing without support or off iOS and Android', () => {
    const ios = iosHost({ suggestSavePassword: true });
    expect(offerPasswordToApp('ada@example.com', 'pw', ios.host)).toBe(true);
    expect(ios.messages).toEqual([{ action: 'suggestSavePassword', data: JSON.stringify({ email: 'ada@example.com', password: 'pw' }) }]);
    const unsupported = iosHost({ loginWithSSO: true });
    expect(offerPasswordToApp('ada@example.com', 'pw', unsupported.host)).toBe(false);
    expect(unsupported.messages).toEqual([]);
    const desktop = { ...iosHost({ suggestSavePassword: true }).host, navigator: { userAgent: DESKTOP } };
    expect(offerPasswordToApp('ada@example.com', 'pw', desktop)).toBe(false);
  });

  it('keeps passwords that signed in or led to a second factor, never an expired or breached one', () => {
    expect(PASSWORD_KEPT_STEPS).toEqual(expect.arrayContaining(['success', 'loginWithTwoFactor', 'promptPasskeys']));
    for (const step of ['passwordRotationExpired', 'breachedPassword', 'loginWithPassword', 'preLogin']) expect(PASSWORD_KEPT_STEPS).not.toContain(step);
  });
});
