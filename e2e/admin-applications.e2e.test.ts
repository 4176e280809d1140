/**
 * Applications (issue 15) in Chromium against the real built server: an operator (promoted with the
 * CLI) adds a MANAGED_ACCESS application linked to the dev mode's hosted-login client `demo-spa`;
 * as the tenant's admin they assign it to Grace in the Users section (the applications column and
 * dialog); then openid-client, as the application, sends each user through hosted login: Grace gets
 * a code and tokens, Alan (not assigned) comes back with access_denied and no code.
 */
import { createServer, type Server } from 'node:http';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import { PASSWORD, signIn, signUpAndActivate, visible } from './support/journey';
import { linkIn, waitForMail } from './support/mailbox';
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
