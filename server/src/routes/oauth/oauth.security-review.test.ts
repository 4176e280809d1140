/**
 * Regression tests of the security review's hosted-login findings: M2 (silent authorization handed
 * out refresh tokens that outlived a stolen cookie), L1 (logout with another user's id_token_hint
 * cleared the victim's cookies), L2 (prompt=login signed the browser out on a cross-site GET) and
 * L3 (max_age was ignored).
 */
import { ApiPaths, OAuthPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { REAUTHENTICATE_PATH } from '../../services/oauth/provider';
import { call, describeDialects, movableClock, PASSWORD, signUpAndActivate } from '../../test/harness';
import { authorizeParams, clientsFile, codeFor, completeAuthorize, exchange, getAuthorize, jwtClaims, pkce, PUBLIC_CLIENT, redirectQuery } from '../../test/oauth-helpers';
import { oauthBrowserCookieName } from './provider';

const ORIGIN = 'http://localhost:8787';

/** A signed-in browser that went through hosted login once, and the relying party's tokens. */
async function signedInApp(server: GatehouseServer) {
  const user = await signUpAndActivate(server);
  const { code, verifier, browserCookie } = await codeFor(server, user.accessToken);
  const tokens = (await exchange(server, code, verifier)).body;
  return { user, tokens, browserCookie: browserCookie! };
}

/** A new password sign-in of the same user (what the login page does): a fresh access token. */
async function signInAgain(server: GatehouseServer, email: string): Promise<string> {
  const res = await call(server, 'POST', ApiPaths.login, { body: { email, password: PASSWORD } });
  expect(res.status).toBe(200);
  return res.body.accessToken as string;
}

/** The authorization request the login page carries back (its `redirectUrl`), as the hosted page posts it. */
function requestBack(loginUrl: string): Record<string, string> {
  const back = new URL(loginUrl).searchParams.get('redirectUrl')!;
  return Object.fromEntries(new URL(back, ORIGIN).searchParams);
}

const postReauthenticate = (server: GatehouseServer, params: Record<string, string>, origin: string, browserCookie?: string) =>
  call(server, 'POST', REAUTHENTICATE_PATH, {
    rawBody: new URLSearchParams(params).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin, ...(browserCookie ? { cookie: `${oauthBrowserCookieName(server.config.clientId)}=${browserCookie}` } : {}) },
  });

describeDialects('hosted login: security review regressions (M2, M5, L1, L2, L3)', (h) => {
  const limits = { RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_ACTIVATION_PER_IP: '1000/600', RATE_LIMIT_REFRESH_PER_IP: '1000/60' };
  const start: typeof h.start = (env = {}, overrides) => h.start({ ...limits, OAUTH_CLIENTS_FILE: clientsFile(), GATEHOUSE_ALLOWED_ORIGINS: `${ORIGIN},https://notes.example.com`, ...env }, overrides);

  it('M2: silent authorization returns no refresh token, so a stolen refresh cookie dies at the victim\'s next rotation', async () => {
    const server = await start();
    const victim = await signUpAndActivate(server);
    const silent = (cookie: string) => call(server, 'POST', OAuthPaths.authorizeSilent, { body: { clientId: PUBLIC_CLIENT.clientId }, cookie, headers: { origin: 'https://notes.example.com' } });
    const stolen = victim.cookie;
    const thief = await silent(stolen);
    expect(thief.status).toBe(200);
    expect(thief.body.access_token).toBeTruthy();
    expect(thief.body.refresh_token).toBeUndefined();
    // The victim refreshes as usual: the stolen value is spent, and silent authorization stops answering it.
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: victim.cookie, body: {} })).status).toBe(200);
    expect((await silent(stolen)).status).toBe(401);
  });

  it('L1: logout with an id_token_hint of another user asks this browser\'s user and clears none of their cookies', async () => {
    const server = await start();
    const victim = await signedInApp(server);
    const attacker = await signedInApp(server);
    const browserCookie = oauthBrowserCookieName(server.config.clientId);
    const lure = await call(server, 'GET', `${OAuthPaths.logout}?${new URLSearchParams({ id_token_hint: attacker.tokens.id_token })}`, { headers: { cookie: `${browserCookie}=${victim.browserCookie}` } });
    expect(lure.status).toBe(200);
    expect(lure.body).toContain('Sign out?');
    expect(lure.headers.getSetCookie()).toEqual([]);
    expect((await call(server, 'GET', OAuthPaths.userinfo, { token: victim.tokens.access_token })).status).toBe(200);
    expect((await call(server, 'GET', ApiPaths.me, { token: victim.user.accessToken })).status).toBe(200);

    // The victim confirming on the Gatehouse page does sign them out.
    const confirmed = await call(server, 'POST', OAuthPaths.logout, {
      rawBody: new URLSearchParams({ id_token_hint: attacker.tokens.id_token }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, cookie: `${browserCookie}=${victim.browserCookie}` },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.headers.getSetCookie().some((c) => c.startsWith(`${browserCookie}=;`))).toBe(true);
    expect((await call(server, 'GET', OAuthPaths.userinfo, { token: victim.tokens.access_token })).status).toBe(401);
  });

  it('L2: prompt=login never signs out on a GET; the code needs a sign-in made after the request', async () => {
    const clock = movableClock();
    const server = await start({}, { clock });
    const user = await signUpAndActivate(server);
    const { browserCookie } = await codeFor(server, user.accessToken);
    clock.advance(5_000);
    const params = authorizeParams(pkce().challenge, { prompt: 'login' });

    // The cross-site GET only leads to a question; the session and its cookies stay.
    const res = await getAuthorize(server, params, browserCookie);
    expect(res.status).toBe(302);
    const question = res.headers.get('location')!;
    expect(question.startsWith(`${ORIGIN}${REAUTHENTICATE_PATH}?`)).toBe(true);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).status).toBe(200);
    const page = await call(server, 'GET', question.slice(ORIGIN.length));
    expect(page.status).toBe(200);
    expect(page.body).toContain('Sign in again?');
    expect(page.body).toContain(`<form method="post" action="${REAUTHENTICATE_PATH}">`);
    expect(page.body).toContain('error=login_required');
    expect(page.headers.getSetCookie()).toEqual([]);

    // The hosted page of a browser still signed in from before gets the question, not a code.
    const stale = await completeAuthorize(server, user.accessToken, params);
    expect(stale.status).toBe(200);
    expect(stale.body.redirectUrl.startsWith(`${ORIGIN}${REAUTHENTICATE_PATH}?`)).toBe(true);
    expect(stale.browserCookie).toBeUndefined();

    // Only the page's own POST clears the cookies and shows the login page.
    const crossSite = await postReauthenticate(server, params, 'https://evil.example', browserCookie);
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.getSetCookie()).toEqual([]);
    const confirmed = await postReauthenticate(server, params, ORIGIN, browserCookie);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get('location')).toMatch(/\/oauth\/account\/login\?redirectUrl=/);
    expect(confirmed.headers.getSetCookie().some((c) => c.startsWith(`${oauthBrowserCookieName(server.config.clientId)}=;`))).toBe(true);
    const back = requestBack(confirmed.headers.get('location')!);
    expect(jwtClaims(back.login_after!).la).toBe(Math.floor(clock.now() / 1000));

    // The old sign-in is over (revoked on the server, M5), even with the request as the login page carries it back ...
    expect((await completeAuthorize(server, user.accessToken, back)).status).toBe(401);
    // ... a sign-in made after it does.
    clock.advance(2_000);
    const fresh = await completeAuthorize(server, await signInAgain(server, user.email), back);
    expect(redirectQuery(fresh.body.redirectUrl).code).toBeTruthy();
  });

  it('L3: max_age: an older sign-in must sign in again, prompt=none answers login_required, and max_age must be a whole number', async () => {
    const clock = movableClock();
    const server = await start({}, { clock });
    const user = await signUpAndActivate(server);
    const { browserCookie } = await codeFor(server, user.accessToken);
    clock.advance(600_000);
    const authorize = (extra: Record<string, string>) => getAuthorize(server, authorizeParams(pkce().challenge, extra), browserCookie);

    expect(redirectQuery((await authorize({ max_age: '3600' })).headers.get('location')).code).toBeTruthy();
    const old = await authorize({ max_age: '300' });
    expect(old.headers.get('location')!.startsWith(`${ORIGIN}${REAUTHENTICATE_PATH}?`)).toBe(true);
    expect(redirectQuery((await authorize({ max_age: '300', prompt: 'none' })).headers.get('location')).error).toBe('login_required');
    for (const bad of ['-1', 'abc', '1.5', '']) {
      expect(redirectQuery((await authorize({ max_age: bad })).headers.get('location')).error, bad).toBe('invalid_request');
    }

    // max_age=0 is met by a sign-in made for this very request (the login page's login_after).
    const params = authorizeParams(pkce().challenge, { max_age: '0' });
    const confirmed = await postReauthenticate(server, params, ORIGIN, browserCookie);
    const back = requestBack(confirmed.headers.get('location')!);
    clock.advance(1_000);
    const token = await signInAgain(server, user.email);
    clock.advance(30_000);
    const done = await completeAuthorize(server, token, back);
    const { code } = redirectQuery(done.body.redirectUrl);
    expect(code).toBeTruthy();
    expect(jwtClaims(token).auth_time).toBeGreaterThanOrEqual(jwtClaims(back.login_after!).la as number);
  });

  it('M5: login_after cannot be forged, moved to another request or kept past its life; "Sign in again" revokes the old browser session', async () => {
    const clock = movableClock();
    const server = await start({}, { clock });
    const { user, tokens } = await signedInApp(server);
    clock.advance(5_000);
    const request = (extra: Record<string, string> = {}) => authorizeParams(pkce().challenge, { prompt: 'login', ...extra });
    const asksAgain = async (token: string, params: Record<string, string>) => {
      const res = await completeAuthorize(server, token, params);
      expect(res.status).toBe(200);
      expect(redirectQuery(res.body.redirectUrl).code).toBeUndefined();
      expect(res.body.redirectUrl.startsWith(`${ORIGIN}${REAUTHENTICATE_PATH}?`)).toBe(true);
    };

    // Forged markers: a bare timestamp, or a token not signed by this server's keys.
    const params = request();
    await asksAgain(user.accessToken, { ...params, login_after: '0' });
    await asksAgain(user.accessToken, { ...params, login_after: String(Math.floor(clock.now() / 1000)) });
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ la: 0, iss: server.config.publicUrl })).toString('base64url');
    await asksAgain(user.accessToken, { ...params, login_after: `${header}.${body}.` });
    // A token signed by the same keys for another audience (the ID token) is not a marker either. (An
    // admin's access token, with every permission key, is longer than any OAuth parameter may be.)
    expect(typeof tokens.id_token).toBe('string');
    await asksAgain(user.accessToken, { ...params, login_after: tokens.id_token as string });

    // A genuine marker of another request (the login page shown with no browser cookie) does not move.
    const other = request();
    const shown = await getAuthorize(server, other);
    const marker = requestBack(shown.headers.get('location')!).login_after!;
    expect(marker).toBeTruthy();
    clock.advance(1_000);
    const fresh = await signInAgain(server, user.email);
    clock.advance(1_000);
    await asksAgain(fresh, { ...request(), login_after: marker });
    // On its own request it works; and it expires.
    expect(redirectQuery((await completeAuthorize(server, fresh, requestBack(shown.headers.get('location')!))).body.redirectUrl).code).toBeTruthy();
    clock.advance(16 * 60_000);
    const later = await signInAgain(server, user.email);
    await asksAgain(later, requestBack(shown.headers.get('location')!));

    // Confirming "Sign in again" ends the old browser session on the server, and the grant made from it.
    const before = await signedInApp(server);
    expect((await call(server, 'GET', ApiPaths.me, { token: before.user.accessToken })).status).toBe(200);
    const confirmed = await postReauthenticate(server, params, ORIGIN, before.browserCookie);
    expect(confirmed.status).toBe(302);
    expect((await call(server, 'GET', ApiPaths.me, { token: before.user.accessToken })).status).toBe(401);
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: before.user.cookie, body: {} })).status).toBe(401);
    expect((await call(server, 'GET', OAuthPaths.userinfo, { token: before.tokens.access_token })).status).toBe(401);
    // Another sign-in of the user is left alone.
    expect((await call(server, 'GET', ApiPaths.me, { token: later })).status).toBe(200);
  });
});
