/**
 * Hosted login in Chromium against the real built server (issue 4, part A):
 * - openid-client v6 as a real relying party: discovery, authorize with PKCE S256, sign-in through
 *   the login box on the Gatehouse hosted page, the redirect to a loopback listener, code exchange,
 *   ID token validation, userinfo, refresh, silent authorization (prompt=none) and RP-initiated logout;
 * - the loader's hosted mode on the demo page (another origin): redirect to authorize, callback and
 *   code exchange, silent refresh on reload, logout through the OAuth logout path;
 * - the hosted admin portal at /oauth/portal, and the error page for an unregistered redirect_uri.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loaderFromManifest, renderDemoPage } from '../server/src/routes/platform/demo';
import { screenshotPath } from './support/browser';
import { PASSWORD, signIn, visible } from './support/journey';
import { linkIn, waitForMail } from './support/mailbox';
import { closeContexts, freePort, repoRoot, startGatehouse, workerBrowser, type RunningServer } from './support/server';

let browser: Browser;
let server: RunningServer;
let hostPort: number;
let host: { url: string; stop(): Promise<void> };

/** A loopback HTTP listener: the relying party's redirect and post-logout URIs (RFC 8252). */
async function startRelyingParty(): Promise<{ url: string; seen: string[]; stop(): Promise<void> }> {
  const seen: string[] = [];
  const port = await freePort();
  const listener: Server = createServer((req, res) => {
    seen.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Test RP</title><h1>Back at the relying party</h1>');
  });
  await new Promise<void>((r) => listener.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${port}`, seen, stop: () => new Promise((r) => listener.close(() => r())) };
}

/** The demo host page in hosted mode (client demo-spa), served from another origin. */
async function startHostedDemo(port: number, serverUrl: string): Promise<{ url: string; stop(): Promise<void> }> {
  const listener: Server = createServer(async (req, res) => {
    if (req.method !== 'GET' || req.url === '/favicon.ico') return void res.writeHead(404).end();
    const template = readFileSync(join(repoRoot, 'demo/index.html'), 'utf8');
    const { html, csp } = renderDemoPage(template, { publicUrl: serverUrl, clientId: 'demo-client' }, await loaderFromManifest(join(repoRoot, 'dist/cdn')), { clientId: 'demo-spa' });
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp }).end(html);
  });
  await new Promise<void>((r) => listener.listen(port, '127.0.0.1', r));
  return { url: `http://localhost:${port}`, stop: () => new Promise((r) => listener.close(() => r())) };
}

/** Signs a user up and activates the account over HTTP (the mailbox link's userId and token). */
async function activatedUser(prefix: string): Promise<string> {
  const email = `${prefix}-${Date.now()}@example.com`;
  const signUp = await fetch(`${server.url}/identity/resources/users/v1/signUp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, name: 'Grace Hopper', companyName: 'Compilers Inc' }),
  });
  expect(signUp.status).toBe(200);
  const link = new URL(linkIn(await waitForMail(server.url, email, /activate/i), '/account/activate'));
  const activate = await fetch(`${server.url}/identity/resources/users/v1/activate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), password: PASSWORD }),
  });
  expect(activate.status).toBe(200);
  return email;
}

beforeAll(async () => {
  browser = await workerBrowser();
  hostPort = await freePort();
  server = await startGatehouse({ GATEHOUSE_ALLOWED_ORIGINS: `http://localhost:${hostPort}` });
  host = await startHostedDemo(hostPort, server.url);
});
afterAll(async () => {
  await host?.stop();
  await closeContexts(browser);
  await server?.stop();
});

describe('hosted login with openid-client as the relying party', () => {
  it('discovery, authorize + PKCE in Chromium, code exchange, ID token, userinfo, refresh, prompt=none and logout', async () => {
    const email = await activatedUser('rp');
    const rp = await startRelyingParty();
    try {
      const config = await oidc.discovery(new URL(server.url), 'demo-spa', undefined, undefined, { execute: [oidc.allowInsecureRequests] });
      expect(config.serverMetadata().code_challenge_methods_supported).toEqual(['S256']);
      const redirectUri = `${rp.url}/callback`;
      const verifier = oidc.randomPKCECodeVerifier();
      const nonce = oidc.randomNonce();
      const state = oidc.randomState();
      const authorizeUrl = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        nonce,
        state,
      });

      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(authorizeUrl.href);
      // Not signed in: the hosted page shows the login box, full page, on the Gatehouse origin.
      await page.waitForURL(new RegExp(`^${server.url}/oauth/account/login\\?redirectUrl=`));
      await visible(page, page.getByRole('heading', { name: 'Sign in' }));
      await page.screenshot({ path: '/tmp/h5-hosted-login.png' });
      await page.screenshot({ path: screenshotPath('hosted-login-page') });
      await signIn(page, email, PASSWORD);
      await page.waitForURL(`${redirectUri}?*`, { timeout: 15_000 });
      await visible(page, page.getByRole('heading', { name: 'Back at the relying party' }));

      const callback = new URL(page.url());
      expect(callback.searchParams.get('state')).toBe(state);
      expect(callback.searchParams.get('iss')).toBe(server.url);
      const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state, idTokenExpected: true });
      const claims = tokens.claims()!;
      expect(claims).toMatchObject({ iss: server.url, aud: 'demo-spa', nonce, email, email_verified: true, amr: ['pwd'], acr: 'urn:gatehouse:acr:pwd' });
      expect(typeof claims.name).toBe('string');
      expect(Math.abs(Number(claims.auth_time) - Date.now() / 1000)).toBeLessThan(120);

      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      expect(info).toMatchObject({ sub: claims.sub, email, email_verified: true, name: claims.name });

      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      expect(refreshed.claims()).toMatchObject({ sub: claims.sub, aud: 'demo-spa', auth_time: claims.auth_time });
      // The rotated token is spent: presenting it again is refused (and revokes that grant).
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

      // Silent authorization in the same browser: a code straight away, no login page.
      const silentVerifier = oidc.randomPKCECodeVerifier();
      const silentUrl = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid email', code_challenge: await oidc.calculatePKCECodeChallenge(silentVerifier), code_challenge_method: 'S256', state: 'silent', prompt: 'none' });
      await page.goto(silentUrl.href);
      await page.waitForURL(`${redirectUri}?*`);
      const second = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: silentVerifier, expectedState: 'silent' });
      expect(second.claims()?.sub).toBe(claims.sub);

      // prompt=login (security review L2): the signed-in browser is asked, not signed out by the GET;
      // confirming opens the login form, and the code comes from the new sign-in.
      const againVerifier = oidc.randomPKCECodeVerifier();
      await page.goto(oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(againVerifier), code_challenge_method: 'S256', state: 'again', prompt: 'login' }).href);
      await visible(page, page.getByRole('heading', { name: 'Sign in again?' }));
      await page.screenshot({ path: screenshotPath('hosted-login-sign-in-again') });
      await page.getByRole('button', { name: 'Sign in again' }).click();
      await page.waitForURL(new RegExp(`^${server.url}/oauth/account/login\\?redirectUrl=`));
      await signIn(page, email, PASSWORD);
      await page.waitForURL(`${redirectUri}?*`, { timeout: 15_000 });
      const again = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: againVerifier, expectedState: 'again' });
      expect(Number(again.claims()?.auth_time)).toBeGreaterThanOrEqual(Number(claims.auth_time));
      expect(again.claims()?.sid).not.toBe(second.claims()?.sid);

      // RP-initiated logout: back at the registered post-logout URI with state; the grants are gone.
      const endSession = oidc.buildEndSessionUrl(config, { id_token_hint: second.id_token!, post_logout_redirect_uri: `${rp.url}/signed-out`, state: 'bye' });
      await page.goto(endSession.href);
      await page.waitForURL(`${rp.url}/signed-out?state=bye`);
      await expect(oidc.fetchUserInfo(config, second.access_token, claims.sub)).rejects.toBeTruthy();
      await expect(oidc.refreshTokenGrant(config, second.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

      // The browser is signed out of Gatehouse: prompt=none now answers login_required.
      await page.goto(oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()), code_challenge_method: 'S256', state: 'after', prompt: 'none' }).href);
      await page.waitForURL(`${redirectUri}?*`);
      expect(new URL(page.url()).searchParams.get('error')).toBe('login_required');
      await context.close();
    } finally {
      await rp.stop();
    }
  });

  it('refuses an unregistered redirect_uri with an error page instead of redirecting', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const query = new URLSearchParams({ response_type: 'code', client_id: 'demo-spa', redirect_uri: 'https://evil.example/callback', scope: 'openid', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' });
    const response = await page.goto(`${server.url}/oauth/authorize?${query}`);
    expect(response?.status()).toBe(400);
    expect(new URL(page.url()).origin).toBe(server.url);
    await visible(page, page.getByRole('heading', { name: 'Sign-in request refused' }));
    expect(await page.getByRole('alert').textContent()).toContain('redirect_uri is not registered');
    await page.screenshot({ path: '/tmp/h5-error-page.png' });
    await context.close();
  });
});

describe('the loader in hosted mode', () => {
  it('redirects to authorize with PKCE, signs in on the hosted page, exchanges the code, refreshes silently, logs out through /oauth/logout', async () => {
    const email = await activatedUser('hosted');
    const context = await browser.newContext();
    const page = await context.newPage();
    const authorizeRequests: URL[] = [];
    page.on('request', (r) => r.url().startsWith(`${server.url}/oauth/authorize?`) && authorizeRequests.push(new URL(r.url())));

    await page.goto(`${host.url}/`);
    await page.waitForURL(new RegExp(`^${server.url}/oauth/account/login\\?redirectUrl=`));
    const authorize = authorizeRequests[0]!;
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'demo-spa',
      redirect_uri: `${host.url}/oauth/callback`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    await signIn(page, email, PASSWORD);
    // Back on the host: the callback route exchanges the code, then the page it started from.
    await page.waitForURL(`${host.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    expect(await page.getByTestId('signed-in-user').textContent()).toContain(email);
    // The verifier was used once and is gone.
    expect(await page.evaluate(() => sessionStorage.getItem('GATEHOUSE_HOSTED_LOGIN_VERIFIER'))).toBeNull();
    await page.screenshot({ path: '/tmp/h5-hosted-mode-home.png' });

    // A reload restores the session by silent refresh: no new trip to authorize.
    const before = authorizeRequests.length;
    await page.reload();
    await visible(page, page.getByTestId('signed-in-user'));
    expect(authorizeRequests.length).toBe(before);

    // The hosted admin portal, opened from the host page in the same window (seed 000 section 2.1).
    await page.evaluate(() => (globalThis as unknown as { Gatehouse: { getApp(): { openHostedAdminPortal(newTab?: boolean): void } } }).Gatehouse.getApp().openHostedAdminPortal());
    await page.waitForURL(`${server.url}/oauth/portal`);
    await visible(page, page.getByRole('dialog', { name: 'Admin portal' }));
    await page.goto(`${host.url}/`);
    await visible(page, page.getByTestId('signed-in-user'));

    // Sign out goes through the OAuth logout path and lands on the hosted login page again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(new RegExp(`^${server.url}/oauth/account/login\\?redirectUrl=`), { timeout: 15_000 });
    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    await page.goto(`${host.url}/`);
    await page.waitForURL(new RegExp(`^${server.url}/oauth/account/login`));
    await context.close();
  });

  it('opens the hosted admin portal at /oauth/portal for the signed-in user', async () => {
    const email = await activatedUser('portal');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/oauth/portal`);
    await page.waitForURL(new RegExp(`^${server.url}/oauth/account/login\\?redirectUrl=`));
    await signIn(page, email, PASSWORD);
    await page.waitForURL(`${server.url}/oauth/portal`, { timeout: 15_000 });
    const portal = page.getByRole('dialog', { name: 'Admin portal' });
    await visible(page, portal);
    await visible(page, portal.getByLabel('Job title'));
    await page.screenshot({ path: '/tmp/h5-hosted-portal.png' });
    await context.close();
  });
});

describe('RP-initiated logout without an id_token_hint', () => {
  it('asks the user before signing out', async () => {
    const email = await activatedUser('ask');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/oauth/portal`);
    await page.waitForURL(/\/oauth\/account\/login/);
    await signIn(page, email, PASSWORD);
    await page.waitForURL(`${server.url}/oauth/portal`, { timeout: 15_000 });
    await page.goto(`${server.url}/identity/resources/auth/v1/oauth/logout?client_id=demo-spa&post_logout_redirect_uri=${encodeURIComponent(`${host.url}/account/login`)}`);
    await visible(page, page.getByRole('heading', { name: 'Sign out?' }));
    await page.screenshot({ path: '/tmp/h5-logout-confirm.png' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    // Back to the host, whose hosted mode sends the signed-out user to the hosted login page.
    await page.waitForURL(new RegExp(`^${server.url}/oauth/account/login`), { timeout: 15_000 });
    await context.close();
  });
});
