import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOSTED_LOGIN_VERIFIER_KEY, createGatehouse } from '@gatehouse/shared';
import { createHostedLogin, jwtPayload, pkceChallenge, pkceVerifier } from './hosted';
import { createSessionHint } from '../../../shared/src/auth/session-hint';

const BASE = 'https://id.example.com';
const base64url = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fakeJwt = (claims: Record<string, unknown>) => `e30.${base64url(JSON.stringify(claims))}.sig`;

function setup() {
  const navigate = vi.fn();
  const sessionHint = createSessionHint(BASE);
  const { api, store, routes } = createGatehouse({ baseUrl: BASE, clientId: 'notes-spa', source: 'test', navigate, storage: null, sessionHint });
  const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
  const hosted = createHostedLogin({ options: { contextOptions: { baseUrl: BASE, clientId: 'notes-spa' } }, baseUrl: BASE, routes, store, api, navigate, sessionHint });
  return { hosted, api, store, navigate, assign };
}
const HINT = `gatehouse-session:${BASE}`;

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
  localStorage.clear();
  document.body.replaceChildren();
  window.history.replaceState(null, '', '/');
});

describe('hosted login in the browser', () => {
  it('makes PKCE verifiers of 64 unreserved characters from the CSPRNG, never the same twice, with the S256 challenge', async () => {
    const verifiers = new Set(Array.from({ length: 50 }, () => pkceVerifier()));
    expect(verifiers.size).toBe(50);
    for (const verifier of verifiers) {
      expect(verifier).toMatch(/^[A-Za-z0-9_-]{64}$/);
      expect(verifier.length).toBeGreaterThanOrEqual(43);
      expect(verifier.length).toBeLessThanOrEqual(128);
    }
    // BASE64URL(SHA-256(verifier)), computed apart with Node's crypto for this fixed verifier.
    expect(await pkceChallenge('gatehouse-pkce-test-vector-0123456789-abcdefghij')).toBe('PenJN2xCe5mmZUk95Z2obLw4K_deGwP50Fx1r52g5PQ');
  });

  it('redirects to authorize with S256, state and nonce, keeping the verifier under the hosted-login verifier key', async () => {
    const { hosted, assign } = setup();
    await hosted.login(`${window.location.origin}/reports`);
    const url = new URL(assign.mock.calls[0]![0] as string);
    expect(url.origin + url.pathname).toBe(`${BASE}/oauth/authorize`);
    const pending = JSON.parse(sessionStorage.getItem(HOSTED_LOGIN_VERIFIER_KEY)!);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'notes-spa',
      redirect_uri: `${window.location.origin}/oauth/callback`,
      scope: 'openid email profile',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await pkceChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    expect(pending.verifier).toMatch(/^[A-Za-z0-9_-]{64}$/);
  });

  it('refuses a callback whose state is not the one this tab sent, without calling the token endpoint', async () => {
    const { hosted } = setup();
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    sessionStorage.setItem(HOSTED_LOGIN_VERIFIER_KEY, JSON.stringify({ verifier: pkceVerifier(), state: 'mine', nonce: 'n', returnTo: '/' }));
    window.history.replaceState(null, '', '/oauth/callback?code=abc&state=theirs');
    await hosted.start();
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(document.querySelector('[role="alert"]')?.textContent).toContain('state mismatch');
    expect(sessionStorage.getItem(HOSTED_LOGIN_VERIFIER_KEY)).toBeNull();
    // The error stays on screen instead of starting another redirect.
    expect(hosted.sync()).toBe(true);
  });

  it('exchanges the code with the verifier, checks the ID token nonce and refreshes by rotation at /oauth/token', async () => {
    const { hosted, store, api, navigate } = setup();
    sessionStorage.setItem(HOSTED_LOGIN_VERIFIER_KEY, JSON.stringify({ verifier: 'v'.repeat(64), state: 's', nonce: 'n1', returnTo: `${window.location.origin}/reports?x=1` }));
    window.history.replaceState(null, '', `/oauth/callback?code=the-code&state=s&iss=${encodeURIComponent(BASE)}`);
    const bodies: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = String(input);
      if (url.endsWith('/oauth/token')) {
        bodies.push(String(init?.body));
        return Response.json({ access_token: `at${bodies.length}`, expires_in: 300, id_token: fakeJwt({ aud: 'notes-spa', nonce: 'n1', sub: 'u1' }), refresh_token: `rt${bodies.length}` });
      }
      return Response.json({ id: 'u1', email: 'ada@example.com', name: 'Ada' });
    });
    await hosted.start();
    expect(new URLSearchParams(bodies[0])).toEqual(new URLSearchParams({ grant_type: 'authorization_code', code: 'the-code', redirect_uri: `${window.location.origin}/oauth/callback`, code_verifier: 'v'.repeat(64), client_id: 'notes-spa' }));
    expect(store.getSnapshot().user?.email).toBe('ada@example.com');
    expect(navigate).toHaveBeenCalledWith('/reports?x=1', { replace: true });

    const refreshed = await api.refresh();
    expect(refreshed.accessToken).toBe('at2');
    expect(new URLSearchParams(bodies[1]).get('refresh_token')).toBe('rt1');
    expect(new URLSearchParams(bodies[1]).get('grant_type')).toBe('refresh_token');
  });

  it('a browser without the session hint makes no silent call at start (no 401 logged); one with it does', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(Response.json({ errors: ['login required'] }, { status: 401 }));
    await setup().hosted.start();
    expect(fetchSpy).not.toHaveBeenCalled();
    localStorage.setItem(HINT, '1');
    await setup().hosted.start();
    expect(fetchSpy.mock.calls.map(([url]) => String(url))).toEqual([`${BASE}/identity/resources/auth/v1/oauth/authorize/silent`]);
    // The server said there is no session: the next load does not ask either.
    expect(localStorage.getItem(HINT)).toBeNull();
  });

  it('a completed hosted sign-in sets the hint, and logout clears it before leaving the page', async () => {
    const { hosted, store } = setup();
    sessionStorage.setItem(HOSTED_LOGIN_VERIFIER_KEY, JSON.stringify({ verifier: 'v'.repeat(64), state: 's', nonce: 'n1', returnTo: '/' }));
    window.history.replaceState(null, '', '/oauth/callback?code=c&state=s');
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) =>
      String(input).endsWith('/oauth/token')
        ? Response.json({ access_token: 'at', expires_in: 300, id_token: fakeJwt({ aud: 'notes-spa', nonce: 'n1', sub: 'u1' }), refresh_token: 'rt' })
        : Response.json({ id: 'u1', email: 'ada@example.com', name: 'Ada' }),
    );
    await hosted.start();
    expect(store.getSnapshot().isAuthenticated).toBe(true);
    expect(localStorage.getItem(HINT)).toBe('1');
    void store.logout();
    expect(localStorage.getItem(HINT)).toBeNull();
  });

  it('refuses tokens whose ID token names another client or another nonce', async () => {
    const { hosted, store } = setup();
    sessionStorage.setItem(HOSTED_LOGIN_VERIFIER_KEY, JSON.stringify({ verifier: 'v'.repeat(64), state: 's', nonce: 'n1', returnTo: '/' }));
    window.history.replaceState(null, '', '/oauth/callback?code=c&state=s');
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(Response.json({ access_token: 'at', expires_in: 300, id_token: fakeJwt({ aud: 'notes-spa', nonce: 'replayed' }) }));
    await hosted.start();
    expect(store.getSnapshot().user).toBeNull();
    expect(document.querySelector('[role="alert"]')?.textContent).toContain('not for this sign-in');
  });

  it('logs out through the OAuth logout path with the ID token and a post-logout URI', async () => {
    const { api, assign } = setup();
    void api.logout();
    const url = new URL(assign.mock.calls[0]![0] as string);
    expect(url.origin + url.pathname).toBe(`${BASE}/oauth/logout`);
    expect(url.searchParams.get('client_id')).toBe('notes-spa');
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${window.location.origin}/account/login`);
  });

  it('reads JWT claims and survives garbage', () => {
    expect(jwtPayload(fakeJwt({ sub: 'ü-1' }))).toEqual({ sub: 'ü-1' });
    expect(jwtPayload('not a jwt')).toEqual({});
    expect(jwtPayload(undefined)).toEqual({});
  });
});
