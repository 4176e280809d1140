import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from '../create-gatehouse';
import { createFetchStub, json, type Handler } from '../../testing/fetch-stub';
import { createManualTimers, flush } from '../../testing/manual-timers';
import type { GatehouseStore } from '../../core/types';

const P = {
  vendor: 'GET /vendors/public',
  me: 'GET /identity/resources/users/v2/me',
  lookup: 'POST /identity/resources/auth/v2/user/sso/prelogin',
  samlStart: 'POST /identity/resources/auth/v1/user/saml/prelogin',
  oidcStart: 'POST /identity/resources/auth/v1/user/oidc/prelogin',
  samlPost: 'POST /identity/resources/auth/v1/user/saml/postlogin',
  oidcPost: 'POST /identity/resources/auth/v1/user/oidc/postlogin',
  linkPre: 'POST /identity/resources/auth/v1/passwordless/magiclink/prelogin',
};
const NOW = 1_700_000_000_000;
const me = { id: 'u1', email: 'jane@acme.test', name: 'Jane', username: null, verified: true, tenantId: 't1', tenantIds: ['t1'], tenants: [], roles: [], permissions: [] };
const vendor = (loginStrategy: string): Handler => () =>
  json({ name: 'Acme', allowSignUps: true, loginStrategy, signUpStrategies: { email: { enabled: true, required: true }, phoneNumber: { enabled: false, required: false } }, passwordConfig: { allowPassphrases: false, maxLength: 128, minLength: 8, minPhraseLength: 20, minOptionalTestsToPass: 0 } });
const session = () => json({ accessToken: 'a.b.c', expiresIn: 300, expires: '', mfaRequired: false });
const IDP = 'https://idp.acme.test/sso?SAMLRequest=abc&RelayState=_1';

let current: GatehouseStore | null = null;
afterEach(() => {
  current?.dispose();
  current = null;
  vi.unstubAllGlobals();
});

async function setup(routes: Record<string, Handler | Handler[]> = {}, strategy = 'EmailAndPassword') {
  const stub = createFetchStub({ [P.me]: () => json(me), [P.vendor]: vendor(strategy), ...routes });
  const clock = createManualTimers(NOW);
  const navigate = vi.fn();
  const { store } = createGatehouse({
    baseUrl: 'http://api.test', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1, delayMs: 1 },
    navigate, storage: null, now: clock.now, timers: clock.timers, getCurrentUrl: () => 'https://app.example.com/account/login',
  });
  current = store;
  await store.loadVendor();
  return { store, stub, clock, navigate, snap: () => store.getSnapshot() };
}

describe('SSO flow', () => {
  it('inside an Android app whose bridge supports loginWithSSO, the IdP address goes to the app after 2000 ms instead of the page', async () => {
    const handed: string[] = [];
    // The app's web view: an Android user agent and the bridge the app installed on the page's window.
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36' });
    vi.stubGlobal('GatehouseNativeBridgeFunctions', { loginWithSSO: true });
    vi.stubGlobal('GatehouseNativeBridge', { loginWithSSO: (address: string) => handed.push(address) });
    const { store, stub, clock, navigate } = await setup({
      [P.lookup]: () => json({ address: 'https://idp.acme.test/sso', type: 'saml' }),
      [P.samlStart]: () => json({ address: IDP }),
    });
    const done = store.preLogin('jane@acme.test');
    await vi.waitFor(() => expect(stub.callsTo(P.samlStart)).toHaveLength(1));
    await flush();
    await clock.advance(1999);
    expect(handed).toEqual([]);
    await clock.advance(1);
    await done;
    expect(handed).toEqual([IDP]);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('preLogin with SSO for the email: redirectToSSO, the SAML sign-in starts, and after 2000 ms the browser goes to the IdP', async () => {
    const { store, stub, snap, clock, navigate } = await setup({
      [P.lookup]: () => json({ address: 'https://idp.acme.test/sso', type: 'saml' }),
      [P.samlStart]: () => json({ address: IDP }),
    });
    const done = store.preLogin(' jane@acme.test ');
    // The first use loads the flow's chunk.
    await vi.waitFor(() => expect(stub.callsTo(P.samlStart)).toHaveLength(1));
    await flush();
    expect(stub.callsTo(P.lookup)[0]!.body).toEqual({ email: 'jane@acme.test' });
    expect(stub.callsTo(P.samlStart)[0]!.body).toEqual({ email: 'jane@acme.test', redirectUri: 'http://localhost/account/saml/callback' });
    expect(snap().login).toMatchObject({ step: 'redirectToSSO', email: 'jane@acme.test' });
    await clock.advance(1999);
    expect(navigate).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(navigate).toHaveBeenCalledWith(IDP);
    await done;
  });

  it('choosing "Use a different email" during redirectToSSO cancels the redirect', async () => {
    const { store, stub, snap, clock, navigate } = await setup({
      [P.lookup]: () => json({ address: 'https://idp.acme.test/sso', type: 'saml' }),
      [P.samlStart]: () => json({ address: IDP }),
    });
    const done = store.preLogin('jane@acme.test');
    await vi.waitFor(() => expect(stub.callsTo(P.samlStart)).toHaveLength(1));
    await flush();
    store.resetLogin();
    await clock.advance(2000);
    await done;
    expect(navigate).not.toHaveBeenCalled();
    expect(snap().login).toMatchObject({ step: 'preLogin', email: 'jane@acme.test' });
  });

  it('OIDC: the sign-in starts at oidc/prelogin with the oidcRedirectUrl', async () => {
    const { store, stub, clock, navigate } = await setup({
      [P.lookup]: () => json({ address: 'https://idp.acme.test', type: 'oidc' }),
      [P.oidcStart]: () => json({ address: 'https://idp.acme.test/auth?state=s' }),
    });
    const done = store.preLogin('jane@acme.test');
    await clock.advance(2000);
    await done;
    expect(stub.callsTo(P.oidcStart)[0]!.body).toEqual({ email: 'jane@acme.test', redirectUri: 'http://localhost/account/oidc/callback' });
    expect(navigate).toHaveBeenCalledWith('https://idp.acme.test/auth?state=s');
  });

  it('a failed SSO lookup is swallowed: the password step follows and the SSO chunk is never used', async () => {
    const { store, stub, snap } = await setup({ [P.lookup]: () => json({ errors: ['boom'] }, { status: 500 }) });
    await store.preLogin('ada@example.com');
    expect(snap().login).toMatchObject({ step: 'loginWithPassword', loading: false, error: null });
    expect(stub.callsTo(P.samlStart)).toHaveLength(0);
  });

  it("the server's 'no SSO' answer (200, address and type null) goes on to the password step without the SSO chunk", async () => {
    const { store, stub, snap } = await setup({ [P.lookup]: () => json({ address: null, type: null }) });
    await store.preLogin('ada@example.com');
    expect(stub.callsTo(P.lookup)).toHaveLength(1);
    expect(snap().login).toMatchObject({ step: 'loginWithPassword', email: 'ada@example.com', loading: false, error: null });
    expect(stub.callsTo(P.samlStart)).toHaveLength(0);
    expect(stub.callsTo(P.oidcStart)).toHaveLength(0);
  });

  it('no SSO (404) under a passwordless strategy goes on to that strategy', async () => {
    const { store, snap } = await setup({ [P.linkPre]: () => json({}) }, 'MagicLink');
    await store.preLogin('ada@example.com');
    expect(snap().login.step).toBe('magicLinkPreLoginSuccess');
  });

  it('an IdP that cannot be reached brings the identifier step back with the reason', async () => {
    const { store, snap, navigate } = await setup({
      [P.lookup]: () => json({ address: 'https://idp.acme.test', type: 'oidc' }),
      [P.oidcStart]: () => json({ errors: ['The identity provider could not be reached'] }, { status: 502 }),
    });
    await store.preLogin('jane@acme.test');
    expect(snap().login).toMatchObject({ step: 'preLogin', email: 'jane@acme.test', error: 'The identity provider could not be reached' });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('the SAML callback route signs in with the one-time code and navigates (once, even if the route runs twice)', async () => {
    const { store, stub, snap, navigate } = await setup({ [P.samlPost]: session });
    await store.ssoPostLogin('saml', '?code=one-time');
    await store.ssoPostLogin('saml', '?code=one-time');
    expect(stub.callsTo(P.samlPost)).toHaveLength(1);
    expect(stub.callsTo(P.samlPost)[0]!.body).toEqual({ code: 'one-time' });
    expect(snap().isAuthenticated).toBe(true);
    expect(snap().login.step).toBe('success');
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('the OIDC callback route posts code, redirectUri, RelayState (the state) and iss', async () => {
    const { store, stub, snap } = await setup({ [P.oidcPost]: session });
    await store.ssoPostLogin('oidc', '?code=c0de&state=st4te&iss=https%3A%2F%2Fidp.acme.test');
    expect(stub.callsTo(P.oidcPost)[0]!.body).toEqual({ code: 'c0de', redirectUri: 'http://localhost/account/oidc/callback', RelayState: 'st4te', iss: 'https://idp.acme.test' });
    expect(snap().isAuthenticated).toBe(true);
  });

  it("an admin's connection test answered on the OIDC callback route (202 connectionTest) shows ssoTestComplete: no session, no navigation, nothing stored", async () => {
    const { store, stub, snap, clock, navigate } = await setup({ [P.oidcPost]: () => json({ connectionTest: 'complete' }, { status: 202 }) });
    await store.ssoPostLogin('oidc', '?code=c0de&state=t3st');
    expect(stub.callsTo(P.oidcPost)).toHaveLength(1);
    expect(snap().login).toMatchObject({ step: 'ssoTestComplete', loading: false, error: null });
    expect(snap().isAuthenticated).toBe(false);
    await clock.advance(5000);
    expect(navigate).not.toHaveBeenCalled();
  });

  it("a refused sign-in shows loginWithSSOFailed ('Failed to authenticate'), then the authenticated URL after 1000 ms", async () => {
    const { store, snap, clock, navigate } = await setup({ [P.samlPost]: () => json({ errors: ['Failed to authenticate'] }, { status: 401 }) });
    await store.ssoPostLogin('saml', '?code=stolen');
    expect(snap().login).toMatchObject({ step: 'loginWithSSOFailed', error: 'Failed to authenticate' });
    expect(snap().isAuthenticated).toBe(false);
    await clock.advance(999);
    expect(navigate).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('an IdP error on the callback URL (no code) fails without calling the server', async () => {
    const { store, stub, snap } = await setup();
    await store.ssoPostLogin('oidc', '?error=access_denied&state=s');
    await store.ssoPostLogin('saml', '?error=sso_failed');
    expect(stub.calls.filter((c) => c.url.pathname.includes('postlogin'))).toHaveLength(0);
    expect(snap().login.step).toBe('loginWithSSOFailed');
  });

  it('an SSO sign-in that needs MFA goes to the login route for the second factor, without a session', async () => {
    const mfa = () => json({ accessToken: '', expiresIn: 0, expires: '', mfaRequired: true, mfaToken: 'M'.repeat(43), mfaEnrolled: true });
    const { store, snap, navigate } = await setup({ [P.samlPost]: mfa });
    await store.ssoPostLogin('saml', '?code=x');
    expect(snap().isAuthenticated).toBe(false);
    expect(snap().login).toMatchObject({ step: 'loginWithTwoFactor', mfaToken: 'M'.repeat(43) });
    expect(navigate).toHaveBeenCalledWith('/account/login');
  });
});
