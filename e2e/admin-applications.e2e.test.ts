/**
 * Applications (issue 15) in Chromium against the real built server: an operator (promoted with the
 * CLI) adds a MANAGED_ACCESS application linked to the dev mode's hosted-login client `demo-spa`;
 * as the tenant's admin they assign it to Grace in the Users section (the applications column and
 * dialog); then openid-client, as the application, sends each user through hosted login: Grace gets
 * a code and tokens, Alan (not assigned) comes back with access_denied and no code. Multi-app mode
 * (seed 000 section 2.1): `showMultiAppsAdminPortal()` opens the normal portal while the flag
 * multi-apps-admin-portal is off; once the operator turns it on, the portal opens on Applications,
 * lists Payroll and assigns a user there. In Hebrew, axe checks the portal's copy buttons (their
 * names hold their visible word, label-content-name-mismatch) and the Applications view.
 */
import { createServer, type Server } from 'node:http';
import * as oidc from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { PASSWORD, signIn, signUpAndActivate, visible } from './support/journey';
import { linkIn, waitForMail } from './support/mailbox';
import { expectAccessible } from './support/axe';
import { screenshotPath } from './support/browser';
import { accessToken, rowAction, screenshotsAtBothWidths } from './support/portal';
import { freePort, promoteSuperUser, useBrowserAndServer, type RunningServer } from './support/server';

const ctx = useBrowserAndServer();

/** A loopback listener: the application's redirect URI (RFC 8252). */
async function startRelyingParty(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const listener: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Payroll</title><h1>Back at Payroll</h1>'));
  await new Promise<void>((r) => listener.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => listener.close(() => r())) };
}

async function api(server: RunningServer, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

/** Invites a member and accepts the invitation over HTTP with a password. */
async function member(server: RunningServer, adminToken: string, name: string, email: string): Promise<void> {
  expect((await api(server, 'POST', '/identity/resources/users/v1', adminToken, { email, name })).status).toBe(201);
  const link = new URL(linkIn(await waitForMail(server.url, email, /invited/i), '/account/invitation/accept'));
  const accepted = await fetch(`${server.url}/identity/resources/users/v1/invitation/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), password: PASSWORD }),
  });
  expect(accepted.status).toBe(200);
}

type AppHandle = { showMultiAppsAdminPortal(): Promise<void>; getFeatureFlags(): Record<string, string> | null };

/** The host page's call (seed 000 section 2.1): the admin portal in multi-app mode. */
function showMultiApps(page: Page): Promise<void> {
  return page.evaluate(() => (globalThis as unknown as { Gatehouse: { getApp(): AppHandle } }).Gatehouse.getApp().showMultiAppsAdminPortal());
}

/** Waits until the signed-in caller's flags (not the anonymous ones) say `value` for the multi-app flag. */
async function multiAppsFlag(page: Page, value: 'on' | 'off'): Promise<void> {
  await page.waitForFunction(
    (want) => (globalThis as unknown as { Gatehouse: { getApp(): AppHandle } }).Gatehouse.getApp().getFeatureFlags()?.['multi-apps-admin-portal'] === want,
    value,
    { timeout: 15_000 },
  );
}

/** Hosted login for `demo-spa` in a fresh browser: signs `email` in and answers the callback URL. */
async function hostedLogin(browser: Browser, config: oidc.Configuration, redirectUri: string, email: string) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid email profile', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url.href);
    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    await signIn(page, email, PASSWORD);
    await page.waitForURL(`${redirectUri}?*`, { timeout: 15_000 });
    return { callback: new URL(page.url()), verifier, state };
  } finally {
    await context.close();
  }
}

it('an admin assigns an application in the Users section; hosted login lets the assigned user in and refuses an unassigned one', { timeout: 300_000 }, async () => {
  const { browser, server } = ctx;
  const stamp = Date.now();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const adminEmail = `apps-admin+${stamp}@example.com`;
  await signUpAndActivate(page, server.url, server.url, adminEmail);
  expect(await promoteSuperUser(server, adminEmail)).toContain(adminEmail);
  const token = await accessToken(page);

  const created = await api(server, 'POST', '/applications/resources/applications/v1', token, { name: 'Payroll', url: 'https://payroll.example.com', accessType: 'MANAGED_ACCESS', clientId: 'demo-spa' });
  expect(created.status).toBe(201);
  const graceEmail = `grace+${stamp}@example.com`;
  const alanEmail = `alan+${stamp}@example.com`;
  await member(server, token, 'Grace Hopper', graceEmail);
  await member(server, token, 'Alan Turing', alanEmail);

  // The Users section: the applications column, and the dialog that assigns Payroll to Grace.
  await page.getByRole('button', { name: 'Admin portal' }).click();
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  await portal.getByRole('button', { name: 'Users' }).click();
  await visible(page, portal.getByRole('columnheader', { name: 'Applications' }));
  const grace = portal.getByRole('row', { name: /Grace Hopper/ });
  await rowAction(page, grace, 'Actions for Grace Hopper', 'Applications');
  const dialog = page.getByRole('dialog', { name: 'Applications of Grace Hopper' });
  await dialog.getByRole('checkbox', { name: /Payroll/ }).check();
  await screenshotsAtBothWidths(page, 'admin-users-applications-dialog');
  await dialog.getByRole('button', { name: 'Save applications' }).click();
  await visible(page, portal.getByRole('status').getByText('Applications of Grace Hopper saved'));
  expect(await grace.getByRole('cell').first().textContent()).toBe('Payroll');
  expect(await portal.getByRole('row', { name: /Alan Turing/ }).getByRole('cell').first().textContent()).toBe('—');
  await screenshotsAtBothWidths(page, 'admin-users-applications');
  expect(errors).toEqual([]);

  // Multi-app mode while the flag is off: the normal portal, and a warning naming the flag.
  await page.keyboard.press('Escape');
  await portal.waitFor({ state: 'detached' });
  const warnings: string[] = [];
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  await showMultiApps(page);
  await visible(page, portal.getByRole('heading', { level: 2, name: 'Profile' }));
  expect(await portal.getByRole('navigation').getByRole('button', { name: 'Applications' }).count()).toBe(0);
  expect(warnings.some((w) => w.includes('multi-apps-admin-portal is off'))).toBe(true);
  await page.keyboard.press('Escape');
  await portal.waitFor({ state: 'detached' });

  // The operator turns the flag on; the caller's flags follow after a reload.
  const flag = await api(server, 'POST', '/operator/resources/feature-flags/v1', token, { key: 'multi-apps-admin-portal', name: 'Multi-app admin portal', on: true, defaultTreatment: 'true', offTreatment: 'false' });
  expect(flag.status).toBe(201);
  await page.reload();
  await multiAppsFlag(page, 'on');
  await showMultiApps(page);
  await visible(page, portal.getByRole('heading', { level: 2, name: 'Applications' }));
  const payroll = portal.getByRole('row', { name: /Payroll/ });
  await visible(page, payroll.getByText('1 assigned'));
  expect(await payroll.getByRole('cell').first().textContent()).toBe('https://payroll.example.com');
  await expectAccessible(page, 'multi-app mode: applications');
  await screenshotsAtBothWidths(page, 'admin-multi-app-applications');

  // Alan assigned to Payroll there (then unassigned again: he is the refused user below).
  await payroll.getByRole('button', { name: 'Manage users: Payroll' }).click();
  const appUsers = page.getByRole('dialog', { name: 'Users of Payroll' });
  await appUsers.getByRole('button', { name: 'Assign: Alan Turing' }).click();
  await visible(page, appUsers.getByRole('button', { name: 'Unassign: Alan Turing' }));
  const usersOf = await api(server, 'GET', '/identity/resources/applications/v1/apps-users', token);
  expect(usersOf.status).toBe(200);
  expect(((usersOf.body as unknown as Array<{ userIds: string[] }>)[0]!.userIds).length).toBe(2);
  await expectAccessible(page, 'multi-app mode: users of an application');
  await screenshotsAtBothWidths(page, 'admin-multi-app-users');
  await appUsers.getByRole('button', { name: 'Unassign: Alan Turing' }).click();
  await visible(page, appUsers.getByRole('button', { name: 'Assign: Alan Turing' }));
  await appUsers.getByRole('button', { name: 'Done' }).click();
  await visible(page, payroll.getByText('1 assigned'));
  expect(errors).toEqual([]);

  // In Hebrew: the Applications view, and the Operator area's copy button (its name holds its visible word).
  const context = await browser.newContext({ locale: 'he-IL', viewport: { width: 1280, height: 900 }, storageState: await page.context().storageState() });
  try {
    const hebrew = await context.newPage();
    await hebrew.goto(`${server.url}/`);
    await multiAppsFlag(hebrew, 'on');
    await showMultiApps(hebrew);
    const heb = hebrew.getByRole('dialog', { name: 'פורטל הניהול' });
    await visible(hebrew, heb.getByRole('heading', { level: 2, name: 'אפליקציות' }));
    await visible(hebrew, heb.getByRole('row', { name: /Payroll/ }).getByText('1 משויכים'));
    await expectAccessible(hebrew, 'multi-app mode: applications, Hebrew');
    await hebrew.screenshot({ path: screenshotPath('admin-multi-app-applications-hebrew') });
    await heb.getByRole('navigation').getByRole('button', { name: 'מפעיל' }).click();
    await heb.getByRole('tab', { name: 'חיוב' }).click();
    const copy = heb.getByRole('button', { name: 'העתקה של כתובת נקודת הקצה של ה-webhook' });
    await visible(hebrew, copy);
    await expectAccessible(hebrew, 'operator billing copy button, Hebrew');
  } finally {
    await context.close();
  }

  // The application, through openid-client: Grace signs in; Alan is refused with no code.
  const rp = await startRelyingParty();
  try {
    const config = await oidc.discovery(new URL(server.url), 'demo-spa', undefined, undefined, { execute: [oidc.allowInsecureRequests] });
    const redirectUri = `${rp.url}/callback`;
    const assigned = await hostedLogin(browser, config, redirectUri, graceEmail);
    const tokens = await oidc.authorizationCodeGrant(config, assigned.callback, { pkceCodeVerifier: assigned.verifier, expectedState: assigned.state });
    expect(tokens.claims()).toMatchObject({ email: graceEmail, aud: 'demo-spa' });

    const refused = await hostedLogin(browser, config, redirectUri, alanEmail);
    expect(refused.callback.searchParams.get('error')).toBe('access_denied');
    expect(refused.callback.searchParams.get('error_description')).toBe('You are not assigned to this application. Ask an administrator of your account for access.');
    expect(refused.callback.searchParams.get('code')).toBeNull();
    await expect(oidc.authorizationCodeGrant(config, refused.callback, { pkceCodeVerifier: refused.verifier, expectedState: refused.state })).rejects.toMatchObject({ error: 'access_denied' });
  } finally {
    await rp.stop();
  }
});
