/**
 * Hosted login in the browser, its own chunk: loaded only in hosted mode (`hostedLoginBox`), so it
 * adds nothing before an embedded login form.
 *
 * Hosted mode (seed 000 sections 2.1, 4.10): users sign in on the Gatehouse server. Signed-out pages
 * first try a silent refresh, else redirect to `/oauth/authorize` with a PKCE verifier (64 characters
 * from the CSPRNG) kept in sessionStorage under the hosted-login verifier key; the callback route
 * (`hostedLoginRedirectUrl`) exchanges the code; tokens stay in memory and refresh by rotation; logout
 * goes through the OAuth logout path.
 */
import { HOSTED_LOGIN_VERIFIER_KEY, REDIRECT_URL_PARAM, getValidRedirectUrl, matchRoute } from '@gatehouse/shared';
import type { AuthRoutes, GatehouseApi, GatehouseStore, LoginResponse, MeResponse } from '@gatehouse/shared';
import type { GatehouseOptions } from '../types';
import { HOSTED_LOGIN_SCOPE, OAuthPaths } from '../../../shared/src/wire/oauth/paths';
import { BootPaths } from '../../../shared/src/wire/paths';
import { isNoSessionAnswer, type SessionHint } from '../../../shared/src/auth/session-hint';

/** What `/oauth/token` and silent authorization answer (RFC 6749 section 5.1). */
interface TokenResponse {
  access_token: string;
  expires_in: number;
  id_token?: string;
  refresh_token?: string;
}

/** What the verifier key holds between the redirect to authorize and the callback. */
interface PendingLogin {
  verifier: string;
  state: string;
  nonce: string;
  returnTo: string;
}

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const random = (bytes: number) => base64url(crypto.getRandomValues(new Uint8Array(bytes)));

/** A PKCE code verifier: 48 bytes from the CSPRNG, 64 base64url characters (RFC 7636 allows 43 to 128). */
export const pkceVerifier = () => random(48);

/** BASE64URL(SHA-256(verifier)), the S256 code challenge. */
export async function pkceChallenge(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

/** The claims of a JWT, unverified: the ID token came straight from the token endpoint over the page's own connection. */
export function jwtPayload(token: string | undefined): Record<string, unknown> {
  const part = (token ?? '').split('.')[1] ?? '';
  try {
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(part.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)))) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** Shows why hosted login stopped (a page with no login box to show it), with a way to start again. */
export function showError(message: string, retryHref?: string): void {
  const alert = document.createElement('p');
  alert.setAttribute('role', 'alert');
  alert.className = 'gatehouse-error';
  alert.textContent = message;
  if (retryHref) {
    const retry = document.createElement('a');
    retry.href = retryHref;
    retry.textContent = 'Try again';
    alert.append(' ', retry);
  }
  (document.querySelector('main') ?? document.body).prepend(alert);
}

async function json<T>(response: Response): Promise<T & { error?: string; error_description?: string; errors?: string[] }> {
  return (await response.json().catch(() => ({}))) as T & { error?: string; error_description?: string; errors?: string[] };
}

export interface HostedLoginOptions {
  /** `contextOptions.clientId` is the OAuth client; `hostedLoginOptions` the tenant to sign in to (seed 000 section 7.2). */
  options: Pick<GatehouseOptions, 'contextOptions' | 'authOptions' | 'hostedLoginOptions'>;
  /** The base URL without a trailing slash: the issuer. */
  baseUrl: string;
  routes: AuthRoutes;
  store: GatehouseStore;
  api: GatehouseApi;
  navigate: (url: string, options?: { replace?: boolean }) => void;
  /** Whether this browser may hold a session here: without one, start() does not ask (no 401 logged). */
  sessionHint?: SessionHint;
}

export interface HostedLogin {
  /** Saves a new verifier, state and nonce and goes to the authorize endpoint. */
  login(returnTo?: string): Promise<void>;
  /** At start: the callback route exchanges its code, other routes try a silent refresh. Never throws. */
  start(): Promise<void>;
  /** Handles the auth routes in hosted mode (no login box here); false for other routes. */
  sync(): boolean;
}

export function createHostedLogin({ options, baseUrl, routes, store, api, navigate, sessionHint }: HostedLoginOptions): HostedLogin {
  const clientId = options.contextOptions.clientId ?? '';
  let refreshToken: string | undefined;
  let idToken: string | undefined;
  let failed = false;
  const redirectUri = () => window.location.origin + routes.hostedLoginRedirectUrl;
  const local = (raw: string | null) => (raw ? getValidRedirectUrl(raw, { currentUrl: window.location.href, allowedOrigins: options.authOptions?.allowedRedirectOrigins ?? [] }) : null);

  async function call(path: string, init: RequestInit): Promise<TokenResponse> {
    const response = await fetch(baseUrl + path, init);
    const body = await json<TokenResponse>(response);
    if (!response.ok) throw Object.assign(new Error(body.error_description ?? body.errors?.join(', ') ?? `Error ${response.status}`), { statusCode: response.status });
    return body;
  }

  const token = (form: Record<string, string>) =>
    call(OAuthPaths.token, { method: 'POST', credentials: 'omit', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ ...form, client_id: clientId }) });
  // The seed's silent refresh: the Gatehouse session (its refresh cookie) vouches for this browser.
  const silent = () => call(OAuthPaths.authorizeSilent, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId }) });

  /** Checks the ID token is for this client (and this sign-in's nonce) and keeps the tokens in memory. */
  function accept(tokens: TokenResponse, nonce?: string): LoginResponse {
    const claims = jwtPayload(tokens.id_token);
    if (claims.aud !== clientId || (nonce !== undefined && claims.nonce !== nonce)) throw new Error('The ID token is not for this sign-in');
    refreshToken = tokens.refresh_token;
    idToken = tokens.id_token;
    return { accessToken: tokens.access_token, expiresIn: tokens.expires_in, expires: new Date(Date.now() + tokens.expires_in * 1000).toISOString(), mfaRequired: false, userId: claims.sub as string };
  }

  async function signIn(login: LoginResponse): Promise<void> {
    const response = await fetch(baseUrl + BootPaths.me, { headers: { accept: 'application/json', authorization: `Bearer ${login.accessToken}` } });
    if (!response.ok) throw new Error(`Error ${response.status} loading the user`);
    store.hydrate({ login, me: (await response.json()) as MeResponse });
  }

  async function callback(): Promise<void> {
    const query = new URLSearchParams(window.location.search);
    let pending: PendingLogin | null = null;
    try {
      pending = JSON.parse(sessionStorage.getItem(HOSTED_LOGIN_VERIFIER_KEY) ?? 'null') as PendingLogin | null;
      sessionStorage.removeItem(HOSTED_LOGIN_VERIFIER_KEY);
    } catch {
      pending = null;
    }
    if (!pending || query.get('state') !== pending.state) throw new Error('This sign-in did not start in this browser tab (state mismatch)');
    if (query.get('iss') !== null && query.get('iss') !== baseUrl) throw new Error('The answer came from another issuer');
    if (query.get('error')) throw new Error(query.get('error_description') ?? query.get('error')!);
    const tokens = await token({ grant_type: 'authorization_code', code: query.get('code') ?? '', redirect_uri: redirectUri(), code_verifier: pending.verifier });
    await signIn(accept(tokens, pending.nonce));
    navigate(local(pending.returnTo) ?? routes.authenticatedUrl, { replace: true });
  }

  async function login(returnTo = window.location.href): Promise<void> {
    const pending: PendingLogin = { verifier: pkceVerifier(), state: random(16), nonce: random(16), returnTo };
    sessionStorage.setItem(HOSTED_LOGIN_VERIFIER_KEY, JSON.stringify(pending));
    const url = new URL(baseUrl + OAuthPaths.authorize);
    const params: Record<string, string | undefined> = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri(),
      scope: HOSTED_LOGIN_SCOPE,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await pkceChallenge(pending.verifier),
      code_challenge_method: 'S256',
      tenantId: options.hostedLoginOptions?.tenantId,
      organization: options.hostedLoginOptions?.organization,
    };
    for (const [name, value] of Object.entries(params)) if (value) url.searchParams.set(name, value);
    window.location.assign(url.href);
  }

  // The store's session calls, the hosted way: rotation at /oauth/token, and logout at the OAuth logout path.
  api.refresh = async () => accept(refreshToken ? await token({ grant_type: 'refresh_token', refresh_token: refreshToken }) : await silent());
  api.logout = () => {
    const url = new URL(baseUrl + OAuthPaths.logout);
    url.searchParams.set('client_id', clientId);
    if (idToken) url.searchParams.set('id_token_hint', idToken);
    url.searchParams.set('post_logout_redirect_uri', window.location.origin + routes.loginUrl);
    window.location.assign(url.href);
    // The page is being replaced: the store must not go on to its own navigation meanwhile.
    return new Promise<void>(() => undefined);
  };

  return {
    login,
    async start() {
      if (matchRoute(window.location.pathname, routes) === 'hostedLoginRedirectUrl') {
        try {
          await callback();
        } catch (error) {
          failed = true;
          showError(`Sign-in failed: ${(error as Error).message}`, routes.loginUrl);
        }
        return;
      }
      // Known signed out: no silent call. Pages that need a user go to authorize, which signs in at
      // once when the server still has a session (so a lost hint costs one redirect, never the session).
      if (sessionHint && !sessionHint.mayHaveSession()) return;
      try {
        await signIn(accept(await silent()));
      } catch (error) {
        // No Gatehouse session: pages that need a user redirect to authorize.
        if (isNoSessionAnswer((error as { statusCode?: number }).statusCode)) sessionHint?.clear();
      }
    },
    sync() {
      const route = matchRoute(window.location.pathname, routes);
      if (!route || route === 'authenticatedUrl' || route === 'signUpSuccessUrl') return false;
      if (failed && route === 'hostedLoginRedirectUrl') return true;
      if (route === 'logoutUrl') void store.logout();
      else if (store.getSnapshot().isAuthenticated) navigate(routes.authenticatedUrl, { replace: true });
      else void login(local(new URLSearchParams(window.location.search).get(REDIRECT_URL_PARAM)) ?? routes.authenticatedUrl);
      return true;
    },
  };
}
