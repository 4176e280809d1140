/**
 * Email links asked for from the hosted pages (`/oauth/account/*`, `/oauth/portal`) open the hosted
 * pages, which serve the login box on every login-box route, in production too; links asked for
 * from an application keep pointing at that application, and no other page can choose the base.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { defaultRoutes } from '../../../../shared/src/routes';
import type { GatehouseServer } from '../../app';
import { listOutbox } from '../../db/queries/outbox';
import { call, describeDialects, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';

/** A CDN folder with a manifest naming a loader, as `npm run build` writes it. */
function cdnDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cdn-'));
  writeFileSync(path.join(dir, 'cdn-manifest.json'), JSON.stringify({ version: '7.78.0', bundles: { loader: { version: '7.78.0', entry: 'loader/7.78.0/gatehouse.js', integrity: 'sha384-test' } } }));
  return dir;
}

const SERVER = 'http://localhost:8787';
/** What Chromium sends from the hosted login page: its Origin and (same-origin) its full URL. */
const fromHosted = (page = '/oauth/account/login') => ({ origin: SERVER, referer: `${SERVER}${page}?redirectUrl=%2Foauth%2Fauthorize` });
const pre = (type: string) => ApiPaths.passwordlessPreLogin.replace('{type}', type);
const post = (type: string) => ApiPaths.passwordlessPostLogin.replace('{type}', type);

/**
 * The link to `route` in the newest email to `to`, read from the outbox table (there is no dev
 * mailbox route without dev mode), after background deliveries finished.
 */
async function emailedLink(server: GatehouseServer, to: string, route: string): Promise<URL> {
  await Promise.all([server.recovery.idle(), server.passwordless.idle(), server.invitations.idle()]);
  const escaped = route.replace(/[/]/g, '\\/');
  for (const row of await listOutbox(server.db)) {
    if (row.to_address !== to) continue;
    const link = new RegExp(`https?:\\/\\/\\S+${escaped}\\?\\S+`).exec(row.text_body)?.[0];
    if (link) return new URL(link);
  }
  throw new Error(`no email to ${to} with a link to ${route}`);
}

function signUp(server: GatehouseServer, email: string, headers: Record<string, string>) {
  return call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD, name: 'Ada Lovelace' }, headers });
}

/** The hosted login page, as the oauth.logout tests check it: login box, loader with SRI, nonce CSP. */
function expectHostedLoginPage(res: Awaited<ReturnType<typeof call>>, where: string): void {
  expect(res.status, where).toBe(200);
  expect(res.body, where).toContain('<title>Sign in · Gatehouse</title>');
  expect(res.body, where).toContain('<gatehouse-login-box></gatehouse-login-box>');
  expect(res.body, where).toContain('src="http://localhost:8787/cdn/loader/7.78.0/gatehouse.js" integrity="sha384-test"');
  expect(res.body, where).toContain('"loginUrl":"/oauth/account/login"');
  expect(res.headers.get('content-security-policy'), where).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/);
  expect(res.headers.get('content-security-policy'), where).toContain("frame-ancestors 'none'");
}

describeDialects('hosted login: email links from the hosted pages', (h) => {
  const limits = {
    RATE_LIMIT_SIGNUP_PER_IP: '1000/3600',
    RATE_LIMIT_LOGIN_PER_IP: '1000/600',
    RATE_LIMIT_ACTIVATION_PER_IP: '1000/600',
    RATE_LIMIT_PASSWORDLESS_PER_IP: '1000/600',
    RATE_LIMIT_PASSWORD_RESET_PER_IP: '1000/600',
    RATE_LIMIT_PASSWORD_RESET_PER_IDENTIFIER: '1000/600',
  };
  const start: typeof h.start = (env = {}, overrides) => h.start({ ...limits, GATEHOUSE_CDN_DIR: cdnDir(), ...env }, overrides);

  it('in production, activation, magic-link and reset emails asked for on the hosted page link to /oauth/account/..., which serves the login box, and the flows complete', async () => {
    const server = await start({ GATEHOUSE_DEV: '0', LOGIN_STRATEGY: 'MagicLink' });
    const email = uniqueEmail('hosted');

    expect((await signUp(server, email, fromHosted('/oauth/account/sign-up'))).status).toBe(200);
    const activation = await emailedLink(server, email, '/account/activate');
    expect(`${activation.origin}${activation.pathname}`).toBe(`${SERVER}/oauth/account/activate`);
    expectHostedLoginPage(await call(server, 'GET', `${activation.pathname}${activation.search}`), 'activation link');
    const activated = await call(server, 'POST', ApiPaths.activate, {
      body: { userId: activation.searchParams.get('userId'), token: activation.searchParams.get('token'), password: PASSWORD },
      headers: fromHosted('/oauth/account/activate'),
    });
    expect(activated.status).toBe(200);

    expect((await call(server, 'POST', pre('magiclink'), { body: { email }, headers: fromHosted() })).status).toBe(200);
    const magic = await emailedLink(server, email, '/account/login/magic-link');
    expect(`${magic.origin}${magic.pathname}`).toBe(`${SERVER}/oauth/account/login/magic-link`);
    expectHostedLoginPage(await call(server, 'GET', `${magic.pathname}${magic.search}`), 'magic link');
    const signedIn = await call(server, 'POST', post('magiclink'), { body: { token: magic.searchParams.get('token') }, headers: fromHosted('/oauth/account/login/magic-link') });
    expect(signedIn.status).toBe(200);
    expect(signedIn.refreshCookie).toBeTruthy();

    expect((await call(server, 'POST', ApiPaths.passwordsReset, { body: { email }, headers: fromHosted('/oauth/account/forget-password') })).status).toBe(200);
    const reset = await emailedLink(server, email, '/account/reset-password');
    expect(`${reset.origin}${reset.pathname}`).toBe(`${SERVER}/oauth/account/reset-password`);
    expectHostedLoginPage(await call(server, 'GET', `${reset.pathname}${reset.search}`), 'reset link');
    const verified = await call(server, 'POST', ApiPaths.passwordsResetVerify, {
      body: { userId: reset.searchParams.get('userId'), token: reset.searchParams.get('token'), password: 'a brand new passphrase' },
      headers: fromHosted('/oauth/account/reset-password'),
    });
    expect(verified.status).toBe(200);
  });

  it('unlock emails (wrong passwords on the hosted page) and invitations sent from the hosted admin portal link to /oauth/account/...', async () => {
    const server = await start({ LOCKOUT_MAX_ATTEMPTS: '2' });
    const admin = await signUpAndActivate(server);
    for (let i = 0; i < 2; i++) {
      const res = await call(server, 'POST', ApiPaths.login, { body: { email: admin.email, password: 'not the password' }, headers: fromHosted() });
      expect(res.status).not.toBe(200);
    }
    const unlock = await emailedLink(server, admin.email, '/account/unlock');
    expect(`${unlock.origin}${unlock.pathname}`).toBe(`${SERVER}/oauth/account/unlock`);

    const other = await signUpAndActivate(server);
    const invited = uniqueEmail('invited');
    const res = await call(server, 'POST', ApiPaths.inviteUser, { token: other.accessToken, body: { email: invited, name: 'Grace Hopper' }, headers: fromHosted('/oauth/portal') });
    expect(res.status).toBe(201);
    const accept = await emailedLink(server, invited, '/account/invitation/accept');
    expect(`${accept.origin}${accept.pathname}`).toBe(`${SERVER}/oauth/account/invitation/accept`);
  });

  it('links asked for by an allowed application (or a page of the same origin outside /oauth) keep pointing at its /account/ routes', async () => {
    const server = await start();
    const app = uniqueEmail('app');
    // A Referer naming the hosted page does not count when the Origin is the application's.
    expect((await signUp(server, app, { origin: 'http://app.test:3000', referer: `${SERVER}/oauth/account/login` })).status).toBe(200);
    const fromApp = await emailedLink(server, app, '/account/activate');
    expect(`${fromApp.origin}${fromApp.pathname}`).toBe('http://app.test:3000/account/activate');

    // The demo page (dev mode) or a host app behind the server's own origin: same Origin, path outside /oauth.
    const demo = uniqueEmail('demo');
    expect((await signUp(server, demo, { origin: SERVER, referer: `${SERVER}/account/sign-up` })).status).toBe(200);
    const fromDemo = await emailedLink(server, demo, '/account/activate');
    expect(`${fromDemo.origin}${fromDemo.pathname}`).toBe(`${SERVER}/account/activate`);

    // No Referer at all (a referrer policy of no-referrer): the origin, as before.
    const bare = uniqueEmail('bare');
    expect((await signUp(server, bare, { origin: SERVER })).status).toBe(200);
    const fromBare = await emailedLink(server, bare, '/account/activate');
    expect(`${fromBare.origin}${fromBare.pathname}`).toBe(`${SERVER}/account/activate`);
  });

  it('a foreign Origin or Referer cannot steer the link base: the app URL is used, never the caller\'s host or the hosted pages', async () => {
    const server = await start({ GATEHOUSE_APP_URL: 'https://notes.example.com' });
    const user = await signUpAndActivate(server);

    // A foreign page claiming a hosted Referer: the configured app URL, not evil.example nor /oauth.
    await call(server, 'POST', ApiPaths.passwordsReset, { body: { email: user.email }, headers: { origin: 'https://evil.example', referer: `${SERVER}/oauth/account/forget-password` } });
    const foreign = await emailedLink(server, user.email, '/account/reset-password');
    expect(`${foreign.origin}${foreign.pathname}`).toBe('https://notes.example.com/account/reset-password');

    // Our Origin with a Referer from another host (only a non-browser client can send that): not the hosted pages.
    await call(server, 'POST', ApiPaths.passwordsReset, { body: { email: user.email }, headers: { origin: SERVER, referer: 'https://evil.example/oauth/account/login' } });
    const spoofed = await emailedLink(server, user.email, '/account/reset-password');
    expect(`${spoofed.origin}${spoofed.pathname}`).toBe(`${SERVER}/account/reset-password`);

    // A sign-up from a foreign page: its activation link goes to the app URL too.
    const evil = uniqueEmail('evil');
    await signUp(server, evil, { origin: 'https://evil.example', referer: `${SERVER}/oauth/account/sign-up` });
    const activation = await emailedLink(server, evil, '/account/activate');
    expect(`${activation.origin}${activation.pathname}`).toBe('https://notes.example.com/account/activate');
  });

  it('in production the hosted login page answers on every login-box route under /oauth/account, with the same CSP and SRI', async () => {
    const server = await start({ GATEHOUSE_DEV: '0' });
    const routes = Object.values(defaultRoutes).filter((route) => route.startsWith('/account/'));
    expect(routes).toEqual(expect.arrayContaining(['/account/activate', '/account/login/magic-link', '/account/reset-password', '/account/unlock', '/account/invitation/accept', '/account/invitation/code', '/account/impersonate', '/account/reset-phone-number', '/account/social/success', '/account/oidc/callback', '/account/saml/callback']));
    for (const route of routes) expectHostedLoginPage(await call(server, 'GET', `/oauth${route}?token=abc`), route);
    // Outside the hosted prefix nothing is served in production (the demo page is dev mode only).
    expect((await call(server, 'GET', '/account/activate')).status).toBe(404);
  });
});
