import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiPaths, ErrorCodes, OAuthPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { call, describeDialects, signUpAndActivate } from '../../test/harness';
import { authorizeParams, clientsFile, codeFor, exchange, getAuthorize, jwtClaims, pkce, PUBLIC_CLIENT, redirectQuery, tokenCall } from '../../test/oauth-helpers';
import { oauthBrowserCookieName } from './provider';

/** A CDN folder with a manifest naming a loader, as `npm run build` writes it. */
function cdnDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cdn-'));
  writeFileSync(path.join(dir, 'cdn-manifest.json'), JSON.stringify({ version: '7.78.0', bundles: { loader: { version: '7.78.0', entry: 'loader/7.78.0/gatehouse.js', integrity: 'sha384-test' } } }));
  return dir;
}

function logout(server: GatehouseServer, params: Record<string, string>, cookies: { browser?: string; refresh?: string } = {}) {
  const cookie = [
    cookies.browser ? `${oauthBrowserCookieName(server.config.clientId)}=${cookies.browser}` : '',
    cookies.refresh ? `gatehouse-refresh-${server.config.clientId.replace(/-/g, '')}=${cookies.refresh}` : '',
  ].filter(Boolean).join('; ');
  return call(server, 'GET', `${OAuthPaths.logout}?${new URLSearchParams(params)}`, { headers: cookie ? { cookie } : {} });
}

/** A signed-in browser that went through hosted login once, and the relying party's tokens. */
async function signedInApp(server: GatehouseServer) {
  const user = await signUpAndActivate(server);
  const { code, verifier, browserCookie } = await codeFor(server, user.accessToken);
  const tokens = (await exchange(server, code, verifier)).body;
  return { user, tokens, browserCookie: browserCookie! };
}

describeDialects('hosted login: logout, silent authorization and the hosted pages', (h) => {
  const limits = { RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_ACTIVATION_PER_IP: '1000/600', RATE_LIMIT_REFRESH_PER_IP: '1000/60' };
  const start: typeof h.start = (env = {}, overrides) => h.start({ ...limits, OAUTH_CLIENTS_FILE: clientsFile(), GATEHOUSE_CDN_DIR: cdnDir(), ...env }, overrides);

  it('RP-initiated logout with id_token_hint ends the grant and the browser session, then returns to the registered URI with state', async () => {
    const server = await start();
    const { user, tokens, browserCookie } = await signedInApp(server);
    const res = await logout(server, { id_token_hint: tokens.id_token, post_logout_redirect_uri: PUBLIC_CLIENT.postLogoutUri, state: 'bye' }, { browser: browserCookie });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${PUBLIC_CLIENT.postLogoutUri}?state=bye`);
    const cleared = res.headers.getSetCookie();
    expect(cleared.some((c) => c.startsWith(`${oauthBrowserCookieName(server.config.clientId)}=;`))).toBe(true);
    expect(cleared.some((c) => /^gatehouse-refresh-democlient=;.*Path=\/identity\/resources\/auth/.test(c))).toBe(true);

    expect((await call(server, 'GET', OAuthPaths.userinfo, { token: tokens.access_token })).status).toBe(401);
    expect((await tokenCall(server, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: PUBLIC_CLIENT.clientId })).body.error).toBe('invalid_grant');
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: user.cookie, body: {} })).status).toBe(401);
    expect(redirectQuery((await getAuthorize(server, authorizeParams(pkce().challenge, { prompt: 'none' }), browserCookie)).headers.get('location')).error).toBe('login_required');
  });

  it('refuses a post_logout_redirect_uri that is not registered (open-redirect attempts) with an error page and signs nobody out', async () => {
    const server = await start();
    const { tokens, browserCookie } = await signedInApp(server);
    for (const target of ['https://evil.example/', 'https://notes.example.com/signed-out/../evil', 'https://notes.example.com/signed-out?next=x', 'https://notes.example.com.evil.example/signed-out', 'javascript:alert(1)']) {
      const res = await logout(server, { id_token_hint: tokens.id_token, post_logout_redirect_uri: target }, { browser: browserCookie });
      expect(res.status, target).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.body).toContain('role="alert"');
      expect(res.body).toContain('post_logout_redirect_uri is not registered');
    }
    // Without a client (no id_token_hint, no client_id) no target can be trusted.
    const anonymous = await logout(server, { post_logout_redirect_uri: PUBLIC_CLIENT.postLogoutUri });
    expect(anonymous.status).toBe(400);
    expect(anonymous.body).toContain('needs client_id or id_token_hint');
    // A forged or foreign hint is no hint.
    const forged = await logout(server, { id_token_hint: `${tokens.id_token.slice(0, -4)}AAAA`, post_logout_redirect_uri: PUBLIC_CLIENT.postLogoutUri });
    expect(forged.status).toBe(400);
    const accessAsHint = await logout(server, { id_token_hint: tokens.access_token });
    expect(accessAsHint.status).toBe(400);
    expect((await call(server, 'GET', OAuthPaths.userinfo, { token: tokens.access_token })).status).toBe(200);
  });

  it('without id_token_hint asks the user first; only a post from the Gatehouse page signs out', async () => {
    const server = await start();
    const { tokens, browserCookie } = await signedInApp(server);
    const asked = await logout(server, { client_id: PUBLIC_CLIENT.clientId, post_logout_redirect_uri: PUBLIC_CLIENT.postLogoutUri, state: 's1' }, { browser: browserCookie });
    expect(asked.status).toBe(200);
    expect(asked.body).toContain('Sign out?');
    expect(asked.body).toContain('<form method="post" action="/oauth/logout">');
    expect(asked.body).toContain(`value="${PUBLIC_CLIENT.postLogoutUri}"`);
    expect(asked.headers.get('content-security-policy')).toContain("form-action 'self' https://notes.example.com");
    // Regression: under the default no-referrer policy Chromium posts the form with `Origin: null`, and the sign-out was refused.
    expect(asked.headers.get('referrer-policy')).toBe('same-origin');
    expect((await call(server, 'GET', OAuthPaths.userinfo, { token: tokens.access_token })).status).toBe(200);

    const form = new URLSearchParams({ client_id: PUBLIC_CLIENT.clientId, post_logout_redirect_uri: PUBLIC_CLIENT.postLogoutUri, state: 's1' }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded', cookie: `${oauthBrowserCookieName(server.config.clientId)}=${browserCookie}` };
    const crossSite = await call(server, 'POST', OAuthPaths.logout, { rawBody: form, headers: { ...headers, origin: 'https://evil.example' } });
    expect(crossSite.status).toBe(403);
    expect((await call(server, 'GET', OAuthPaths.userinfo, { token: tokens.access_token })).status).toBe(200);

    const confirmed = await call(server, 'POST', OAuthPaths.logout, { rawBody: form, headers: { ...headers, origin: 'http://localhost:8787' } });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get('location')).toBe(`${PUBLIC_CLIENT.postLogoutUri}?state=s1`);
    expect((await call(server, 'GET', OAuthPaths.userinfo, { token: tokens.access_token })).status).toBe(401);
  });

  it('the logout path under the auth API also finds the session by its refresh cookie', async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const res = await call(server, 'GET', `${OAuthPaths.logoutUnderAuth}?client_id=${PUBLIC_CLIENT.clientId}`, { cookie: user.cookie });
    expect(res.status).toBe(200);
    expect(res.body).toContain('Sign out?');
    expect(res.body).toContain(`action="${OAuthPaths.logoutUnderAuth}"`);
    const confirmed = await call(server, 'POST', OAuthPaths.logoutUnderAuth, {
      rawBody: `client_id=${PUBLIC_CLIENT.clientId}`,
      cookie: user.cookie,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:8787' },
    });
    expect(confirmed.status).toBe(200);
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).status).toBe(401);
    const done = await logout(server, {});
    expect(done.status).toBe(200);
    expect(done.body).toContain('You have signed out of Gatehouse.');
  });

  it('silent authorization: tokens for the public client from the refresh cookie, on the client\'s origin only', async () => {
    const server = await start({ GATEHOUSE_ALLOWED_ORIGINS: 'http://localhost:8787,https://notes.example.com' });
    const user = await signUpAndActivate(server);
    const silent = (origin: string, cookie?: string, clientId = PUBLIC_CLIENT.clientId) => call(server, 'POST', OAuthPaths.authorizeSilent, { body: { clientId }, cookie, headers: { origin } });

    const res = await silent('https://notes.example.com', user.cookie);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', scope: 'openid email profile' });
    expect(jwtClaims(res.body.id_token)).toMatchObject({ sub: user.userId, aud: PUBLIC_CLIENT.clientId });
    expect((await call(server, 'GET', OAuthPaths.userinfo, { token: res.body.access_token })).body.sub).toBe(user.userId);
    // The refresh cookie is read, not spent: the embedded session still refreshes with it.
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: user.cookie, body: {} })).status).toBe(200);
    // No refresh token: each renewal comes back here, where the refresh cookie must still vouch (review M2).
    expect(res.body.refresh_token).toBeUndefined();

    const again = await silent('https://notes.example.com', (await signUpAndActivate(server)).cookie);
    expect(again.status).toBe(200);
    const noCookie = await silent('https://notes.example.com');
    expect(noCookie.status).toBe(401);
    expect(noCookie.body.errorCode).toBe(ErrorCodes.oauthLoginRequired);
    const other = await signUpAndActivate(server);
    expect((await silent('http://localhost:8787', other.cookie, 'notes-backend')).status).toBe(400);
    const wrongOrigin = await call(server, 'POST', OAuthPaths.authorizeSilent, { body: { clientId: PUBLIC_CLIENT.clientId }, cookie: other.cookie, headers: { origin: 'https://evil.example' } });
    expect(wrongOrigin.status).toBe(403);
  });

  it('serves the hosted login page and the hosted admin portal with the loader, SRI and a strict CSP', async () => {
    const server = await start();
    for (const [pathname, title] of [['/oauth/account/login', 'Sign in · Gatehouse'], [OAuthPaths.portal, 'Your account · Gatehouse']] as const) {
      const res = await call(server, 'GET', pathname);
      expect(res.status, pathname).toBe(200);
      expect(res.body).toContain(`<title>${title}</title>`);
      expect(res.body).toContain('<gatehouse-login-box></gatehouse-login-box>');
      expect(res.body).toContain('src="http://localhost:8787/cdn/loader/7.78.0/gatehouse.js" integrity="sha384-test"');
      const nonce = /script-src 'nonce-([^']+)' 'strict-dynamic'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
      expect(nonce).toBeTruthy();
      expect((res.body as string).match(/<script nonce="([^"]+)"/g)?.every((tag) => tag.includes(nonce!))).toBe(true);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      // The inline script (it carries the authorization request on once signed in) is valid JavaScript.
      const inline = /<script nonce="[^"]+">([\s\S]*?)<\/script>/.exec(res.body as string)?.[1];
      expect(inline).toContain('/identity/resources/auth/v1/oauth/authorize');
      expect(() => new Function(inline!)).not.toThrow();
      // The hosted routes: the seed's defaults under /oauth, with the portal as the signed-in page.
      expect(res.body).toContain('"loginUrl":"/oauth/account/login"');
      expect(res.body).toContain('"authenticatedUrl":"/oauth/portal"');
    }
  });

  it('the hosted pages exist without dev mode too (hosted login is a production feature)', async () => {
    const server = await start({ GATEHOUSE_DEV: '0' });
    expect((await call(server, 'GET', '/oauth/account/login')).status).toBe(200);
    expect((await call(server, 'GET', '/account/login')).status).toBe(404);
    // And demo-spa is a dev-mode client only.
    expect((await getAuthorize(server, authorizeParams(pkce().challenge, { client_id: 'demo-spa', redirect_uri: 'http://localhost:3000/oauth/callback' }))).status).toBe(400);
  });
});
