/**
 * An Express host protected by @gatehouse/node and its proxy (issue 14), in Chromium against the
 * built server: the host (support/express-host.ts, the worked example of docs/node-sdk.md) embeds
 * the login box, whose API calls all go through the host's proxy; the session is kept in the
 * sealed cookie; the host's routes are guarded by requireAuth, requirePermissions and
 * requireEntitlement.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loaderFromManifest } from '../server/src/routes/platform/demo';
import { screenshotPath } from './support/browser';
import { startExpressHost, type ExpressHost } from './support/express-host';
import { PASSWORD, signIn, visible } from './support/journey';
import { linkIn, waitForMail } from './support/mailbox';
import { repoRoot, useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();
let host: ExpressHost;
beforeAll(async () => {
  host = await startExpressHost(ctx.server.url, await loaderFromManifest(join(repoRoot, 'dist/cdn')));
});
afterAll(async () => host?.stop());

async function api(method: string, url: string, body?: unknown) {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** A fetch from the page (its cookies, no Authorization header): status, body and WWW-Authenticate. */
const fromPage = (page: Page, path: string) =>
  page.evaluate(async (p) => {
    const res = await fetch(p, { headers: { accept: 'application/json' } });
    return { status: res.status, body: await res.json().catch(() => null), challenge: res.headers.get('www-authenticate') };
  }, path);

it('keeps a signed-out browser out, signs in through the proxied login box, answers claims, refuses a missing permission with 403, and 401 again after sign-out', async () => {
  const { browser, server } = ctx;
  const email = `ada+${Date.now()}@example.com`;
  // A user with a tenant of their own (its Admin), made over the API.
  expect((await api('POST', `${server.url}/identity/resources/users/v1/signUp`, { email, password: PASSWORD, name: 'Ada', companyName: 'Difference Engines' })).status).toBe(200);
  const activation = new URL(linkIn(await waitForMail(server.url, email, /activate/i), '/account/activate'));
  expect((await api('POST', `${server.url}/identity/resources/users/v1/activate`, { userId: activation.searchParams.get('userId'), token: activation.searchParams.get('token'), password: PASSWORD })).status).toBe(200);

  // Signed out, from outside a browser: 401 with the API's error body and the Bearer challenge.
  const anonymous = await fetch(`${host.url}/api/me`);
  expect(anonymous.status).toBe(401);
  expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
  expect(await anonymous.json()).toMatchObject({ errorCode: 'ER-01004', errors: [expect.any(String)] });

  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const direct: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.origin === new URL(server.url).origin && !url.pathname.startsWith('/cdn/')) direct.push(`${r.method()} ${url.pathname}`);
  });

  // Signed out, the server-rendered page sends the browser to the login box.
  await page.goto(`${host.url}/dashboard`);
  await page.waitForURL(`${host.url}/account/login?redirectUrl=%2Fdashboard`);
  await signIn(page, email, PASSWORD);
  await page.waitForURL(`${host.url}/dashboard`, { timeout: 15_000 });
  // The login box sent the user back: the server-rendered page has their claims from the session.
  await visible(page, page.getByTestId('dashboard-user'));
  expect(await page.getByTestId('dashboard-user').textContent()).toBe(email);

  // The host's routes read the sealed session cookie (the page sends no token).
  await page.goto(`${host.url}/`);
  await visible(page, page.getByRole('button', { name: 'Sign out' }));
  // The page shows Sign out as soon as it has a token, and 'kept' once the host's POST /session answers.
  await expect.poll(() => page.getByTestId('host-session').textContent(), { timeout: 10_000 }).toBe('kept');
  const me = await fromPage(page, '/api/me');
  expect(me.status).toBe(200);
  expect(me.body).toMatchObject({ email, roles: expect.arrayContaining(['Admin']), sub: expect.any(String), tenantId: expect.any(String) });
  expect((await fromPage(page, '/api/users')).status).toBe(200);
  // A permission no role of the user grants, and a feature their tenant has no plan for: 403 with the error body.
  const purge = await fromPage(page, '/api/notes/purge');
  expect(purge).toMatchObject({ status: 403, body: { errorCode: 'ER-01005', errors: ['You do not have the permission this needs.'] } });
  const exportReports = await fromPage(page, '/api/reports/export');
  expect(exportReports).toMatchObject({ status: 403, body: { errorCode: 'ER-01005', errors: ['Your plan does not include this feature.'] } });
  // The proxy sends the session's token to Gatehouse when the browser sends none.
  const proxiedMe = await fromPage(page, '/api/gatehouse/identity/resources/users/v2/me');
  expect(proxiedMe.status).toBe(200);
  expect(proxiedMe.body).toMatchObject({ email });
  // The session cookie is HttpOnly: the page's script cannot read it.
  expect(await page.evaluate(() => document.cookie)).not.toMatch(/gh_session_/);
  const cookies = await context.cookies(host.url);
  expect(cookies.find((c) => c.name === 'gh_session_democlient')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

  // A reload keeps the user signed in: the loader's refresh goes through the proxy with Gatehouse's refresh cookie.
  await page.reload();
  await visible(page, page.getByRole('button', { name: 'Sign out' }));
  await page.setViewportSize({ width: 390, height: 860 });
  await page.screenshot({ path: screenshotPath('express-host-signed-in-390-light') });
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.screenshot({ path: screenshotPath('express-host-signed-in-1280-light') });

  // Sign-out clears the session: the host's routes answer 401 again, and so does Gatehouse through the proxy.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/account\/login/, { timeout: 15_000 });
  await visible(page, page.getByRole('heading', { name: 'Sign in' }));
  expect(await fromPage(page, '/api/me')).toMatchObject({ status: 401, body: { errorCode: 'ER-01004' }, challenge: expect.stringMatching(/^Bearer/) });
  expect((await fromPage(page, '/api/gatehouse/identity/resources/users/v2/me')).status).toBe(401);
  await page.goto(`${host.url}/dashboard`);
  await page.waitForURL(/\/account\/login\?redirectUrl=%2Fdashboard/);
  // A new page load stays signed out: the logout through the proxy reached Gatehouse with the refresh cookie.
  await visible(page, page.getByRole('heading', { name: 'Sign in' }));
  expect(await page.getByRole('button', { name: 'Sign out' }).isHidden()).toBe(true);
  expect(await page.getByTestId('host-session').textContent()).toBe('none');

  // Every API call of the page went through the host's proxy; none to Gatehouse's origin.
  expect(direct).toEqual([]);
  expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
}, 120_000);
