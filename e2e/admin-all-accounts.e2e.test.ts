/**
 * The admin portal's All accounts section in Chromium against the real server (issue 5): an admin
 * who signed up creates a sub-account with a chosen tenant id, adds a user of their account to it
 * with a role and sees the users count; creating another with the same tenant id shows the server's
 * message in the dialog.
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

it('creates a sub-account, adds a user with a role and shows the users count; a taken tenant id shows the server message', async () => {
  const { browser, server } = ctx;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const stamp = Date.now();
  await signUpThroughApi(page, server.url, `reseller+${stamp}@example.com`);
  const token = await accessToken(page);
  const res = await fetch(`${server.url}/identity/resources/users/v1`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: `grace+${stamp}@example.com`, name: 'Grace Hopper' }) });
  expect(res.status).toBe(201);

  await page.getByRole('button', { name: 'Admin portal' }).click();
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  await visible(page, portal);
  await portal.getByRole('button', { name: 'All accounts' }).click();
  await visible(page, portal.getByRole('heading', { name: 'All accounts' }));
  await visible(page, portal.getByTestId('users-count'));

  // Main path: a sub-account with a chosen tenant id, under the admin's own account.
  const tenantId = `acme-eu-${stamp}`;
  await portal.getByRole('button', { name: 'Create sub-account' }).click();
  let dialog = page.getByRole('dialog', { name: 'Create sub-account' });
  await dialog.getByLabel('Name').fill('Acme EU');
  await dialog.getByLabel(/Tenant id/).fill(tenantId);
  await page.screenshot({ path: screenshotPath('admin-all-accounts-create') });
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await visible(page, portal.getByRole('status').getByText('Sub-account Acme EU created'));

  // Grace, a user of the admin's account, joins it with the Admin role there.
  await portal.getByRole('button', { name: 'Acme EU', exact: true }).click();
  await visible(page, portal.getByRole('heading', { name: 'Acme EU' }));
  await visible(page, portal.getByText('No users in this account yet'));
  await portal.getByRole('button', { name: 'Add users' }).click();
  dialog = page.getByRole('dialog', { name: 'Add users to Acme EU' });
  await dialog.getByLabel('Search your account\'s users').fill('gra');
  await dialog.getByLabel(/Grace Hopper/).check();
  await dialog.getByLabel(/^Admin/).check();
  await page.screenshot({ path: screenshotPath('admin-all-accounts-add-users') });
  await dialog.getByRole('button', { name: 'Add users' }).click();
  await visible(page, portal.getByRole('status').getByText('1 user added to Acme EU'));
  const row = portal.getByRole('row', { name: /Grace Hopper/ });
  await visible(page, row);
  expect(await row.textContent()).toContain('Admin');
  expect(await portal.getByTestId('users-count').textContent()).toBe('1');
  await visible(page, portal.getByRole('listitem').filter({ hasText: 'Acme EU' }).getByText('1 user', { exact: true }));
  await page.screenshot({ path: screenshotPath('admin-all-accounts') });
  await page.setViewportSize({ width: 600, height: 900 });
  await page.screenshot({ path: '/tmp/gh-all-accounts-narrow.png' });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Error path: the same tenant id again; the dialog stays open with the server's message.
  await portal.getByRole('button', { name: 'Create sub-account' }).click();
  dialog = page.getByRole('dialog', { name: 'Create sub-account' });
  await dialog.getByLabel('Name').fill('Acme EU again');
  await dialog.getByLabel(/Tenant id/).fill(tenantId);
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  const alert = dialog.getByRole('alert');
  await visible(page, alert);
  expect(await alert.textContent()).toBe(`An account with tenant id ${tenantId} already exists`);
  await page.screenshot({ path: screenshotPath('admin-all-accounts-error') });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  expect(errors.filter((e) => !/401|409|Failed to load resource/.test(e))).toEqual([]);
  await page.close();
});
