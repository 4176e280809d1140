/**
 * The admin portal's API tokens sections in Chromium against the real server (issue 5): an admin who
 * signed up adds an account token with the Read only role, copies its client ID and secret from the
 * success dialog (shown once), exchanges them at the OAuth token endpoint (client_credentials) and
 * calls the admin API with the access token; deleting the token in the portal ends the exchange and
 * the access token at once. A personal access token works as a bearer token as it is. Error path: a
 * role deleted while the dialog is open is refused by the server, whose message the dialog shows.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from './support/browser';
import { signUpThroughApi, visible } from './support/journey';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();

/** The signed-in user's access token, from the running app. */
function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => (globalThis as unknown as { Gatehouse: { getApp(): { getState(): { user: { accessToken: string } } } } }).Gatehouse.getApp().getState().user.accessToken);
}

async function openSection(page: Page, name: 'API tokens' | 'Personal API tokens') {
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  if (!(await portal.isVisible())) {
    await page.getByRole('button', { name: 'Admin portal' }).click();
    await visible(page, portal);
  }
  await portal.getByRole('button', { name, exact: true }).click();
  await visible(page, portal.getByRole('heading', { name, exact: true }));
  return portal;
}

/** POST /oauth/token with grant_type=client_credentials, the client authenticated by HTTP Basic. */
function exchange(serverUrl: string, clientId: string, secret: string): Promise<Response> {
  return fetch(`${serverUrl}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials' }),
  });
}

const usersList = (serverUrl: string, bearer: string) => fetch(`${serverUrl}/identity/resources/users/v3`, { headers: { authorization: `Bearer ${bearer}` } });

it('adds an account token whose client ID and secret, shown once, get an access token for the admin API until it is deleted in the portal', async () => {
  const { browser, server } = ctx;
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const stamp = Date.now();
  await signUpThroughApi(page, server.url, `tokens+${stamp}@example.com`);
  const session = await accessToken(page);
  // A role for the error path, deleted later while the dialog offers it.
  const temp = await fetch(`${server.url}/identity/resources/roles/v1`, { method: 'POST', headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' }, body: JSON.stringify({ key: 'Contractors', name: 'Contractors' }) });
  expect(temp.status).toBe(201);
  const tempRoleId = ((await temp.json()) as { id: string }).id;

  // Add an account token with the Read only role that expires in 30 days.
  let portal = await openSection(page, 'API tokens');
  await visible(page, portal.getByText('No API tokens yet'));
  await portal.getByRole('button', { name: 'Add token' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add token' });
  await dialog.getByLabel('Description').fill('Nightly export');
  await dialog.getByLabel(/Expires after/).fill('30');
  await dialog.getByLabel('Read only').check();
  await page.screenshot({ path: screenshotPath('admin-api-tokens-add-dialog') });
  await dialog.getByRole('button', { name: 'Add token' }).click();

  // The add dialog closes; the success dialog shows the client ID and the secret, once.
  const success = page.getByRole('dialog', { name: 'Token created' });
  await visible(page, success);
  expect(await dialog.count()).toBe(0);
  const clientId = await success.getByRole('textbox', { name: 'Client ID' }).inputValue();
  const secret = await success.getByRole('textbox', { name: 'Secret' }).inputValue();
  expect(clientId).toMatch(/^CLIENT_ID_[0-9a-f]{32}$/);
  expect(secret.length).toBeGreaterThanOrEqual(40);
  await success.getByRole('button', { name: 'Copy secret' }).click();
  await visible(page, success.getByRole('button', { name: 'Copied: Secret' }).filter({ hasText: 'Copied' }));
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.screenshot({ path: screenshotPath('admin-api-tokens-created') });
  await success.getByRole('button', { name: 'Done' }).click();
  await success.waitFor({ state: 'detached' });
  await visible(page, portal.getByRole('status').getByText('Token Nightly export added'));
  const row = portal.getByRole('row', { name: /Nightly export/ });
  await visible(page, row);
  expect(await row.textContent()).toContain(clientId);
  expect(await row.textContent()).toContain('Read only');
  expect(await row.textContent()).toContain('Client credentials');
  // The secret left the page with the dialog (the locator reaches into the portal's shadow root).
  expect(await page.getByText(secret).count()).toBe(0);
  expect(await page.locator(`input[value="${secret}"]`).count()).toBe(0);

  // A backend exchanges the client ID and secret for an access token and reads the users with it.
  const issued = await exchange(server.url, clientId, secret);
  expect(issued.status).toBe(200);
  const { access_token: apiAccess, token_type } = (await issued.json()) as { access_token: string; token_type: string };
  expect(token_type).toBe('Bearer');
  expect((await usersList(server.url, apiAccess)).status).toBe(200);
  // Read only: writing is refused.
  const write = await fetch(`${server.url}/identity/resources/groups/v1`, { method: 'POST', headers: { authorization: `Bearer ${apiAccess}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Not allowed' }) });
  expect(write.status).toBe(403);

  // A personal access token is itself the bearer token.
  portal = await openSection(page, 'Personal API tokens');
  await visible(page, portal.getByText('No API tokens yet'));
  await portal.getByRole('button', { name: 'Add token' }).click();
  dialog = page.getByRole('dialog', { name: 'Add token' });
  await dialog.getByLabel('Description').fill('My laptop');
  await dialog.getByLabel(/^Access token/).check();
  await dialog.getByRole('button', { name: 'Add token' }).click();
  await visible(page, success);
  const bearer = await success.getByRole('textbox', { name: 'Token' }).inputValue();
  expect(bearer.startsWith('gh_at.')).toBe(true);
  await page.screenshot({ path: screenshotPath('admin-api-tokens-created-personal') });
  // On a phone the success dialog still shows the token with its Copy button.
  await page.setViewportSize({ width: 390, height: 844 });
  await visible(page, success.getByRole('button', { name: 'Copy token' }));
  await page.screenshot({ path: '/tmp/gh-api-tokens-created-narrow.png' });
  await page.keyboard.press('Escape');
  await success.waitFor({ state: 'detached' });
  await visible(page, portal.getByRole('row', { name: /My laptop/ }).filter({ hasText: 'Access token' }));
  await page.screenshot({ path: '/tmp/gh-api-tokens-list-narrow.png' });
  await page.setViewportSize({ width: 1280, height: 860 });
  expect((await usersList(server.url, bearer)).status).toBe(200);

  // Error path: the role chosen in the dialog is deleted before the token is added.
  portal = await openSection(page, 'API tokens');
  await visible(page, portal.getByRole('row', { name: /Nightly export/ }));
  await page.screenshot({ path: screenshotPath('admin-api-tokens-list') });
  await portal.getByRole('button', { name: 'Add token' }).click();
  dialog = page.getByRole('dialog', { name: 'Add token' });
  await dialog.getByLabel('Description').fill('Contractor sync');
  await dialog.getByLabel('Contractors').check();
  const gone = await fetch(`${server.url}/identity/resources/roles/v1/${tempRoleId}`, { method: 'DELETE', headers: { authorization: `Bearer ${session}` } });
  expect(gone.status).toBeLessThan(300);
  await dialog.getByRole('button', { name: 'Add token' }).click();
  const alert = dialog.getByRole('alert');
  await visible(page, alert);
  expect(await alert.textContent()).toBe('Role not found in this account');
  expect(await success.count()).toBe(0);
  await page.screenshot({ path: '/tmp/gh-api-tokens-error.png' });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });

  // Deleting the token in the portal ends the exchange and the access token already issued.
  await portal.getByRole('button', { name: 'Delete token Nightly export' }).click();
  await page.getByRole('dialog', { name: 'Delete token Nightly export' }).getByRole('button', { name: 'Delete' }).click();
  await visible(page, portal.getByRole('status').getByText('Token Nightly export deleted'));
  await row.waitFor({ state: 'detached' });
  expect((await exchange(server.url, clientId, secret)).status).toBe(401);
  expect((await usersList(server.url, apiAccess)).status).toBe(401);
  expect(errors.filter((e) => !/401|404|Failed to load resource/.test(e))).toEqual([]);
  await page.close();
});
