/**
 * The admin portal's Roles and Groups sections in Chromium against the real server (issue 5): an
 * admin who signed up adds a role with a permission (and sees the server refuse a taken key), adds a
 * group with a color and that role, puts a user in it, and reads it all back after a reload.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from './support/browser';
import { rowAction } from './support/portal';
import { signUpThroughApi, visible } from './support/journey';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();

/** The signed-in user's access token, from the running app. */
function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => (globalThis as unknown as { Gatehouse: { getApp(): { getState(): { user: { accessToken: string } } } } }).Gatehouse.getApp().getState().user.accessToken);
}

async function openSection(page: Page, name: 'Roles' | 'Groups') {
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  if (!(await portal.isVisible())) {
    await page.getByRole('button', { name: 'Admin portal' }).click();
    await visible(page, portal);
  }
  await portal.getByRole('button', { name }).click();
  await visible(page, portal.getByRole('heading', { name }));
  return portal;
}

it('lets an admin add a role with a permission, refuses a taken key, and add a group with that role and a user', async () => {
  const { browser, server } = ctx;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const stamp = Date.now();
  await signUpThroughApi(page, server.url, `admin+${stamp}@example.com`);
  const token = await accessToken(page);
  const res = await fetch(`${server.url}/identity/resources/users/v1`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: `grace+${stamp}@example.com`, name: 'Grace Hopper' }) });
  expect(res.status).toBe(201);

  // Roles: the built-in roles are listed; a new role gets one permission.
  let portal = await openSection(page, 'Roles');
  await visible(page, portal.getByRole('row', { name: /Read only/ }));
  await portal.getByRole('button', { name: 'Add role' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add role' });
  await dialog.getByLabel('Name').fill('Auditors');
  await dialog.getByLabel('Key').fill('Auditors');
  await dialog.getByLabel(/fe\.secure\.read\.audits/).check();
  await page.screenshot({ path: '/tmp/w3-role-dialog.png' });
  await page.screenshot({ path: screenshotPath('admin-roles-dialog') });
  await dialog.getByRole('button', { name: 'Add role' }).click();
  await visible(page, portal.getByRole('status').getByText('Role Auditors added'));
  await visible(page, portal.getByRole('row', { name: /Auditors/ }).filter({ hasText: '1 permission' }));

  // Error path: a key another role has is refused by the server; the dialog stays with its message.
  await portal.getByRole('button', { name: 'Add role' }).click();
  dialog = page.getByRole('dialog', { name: 'Add role' });
  await dialog.getByLabel('Name').fill('Second admin');
  await dialog.getByLabel('Key').fill('Admin');
  await dialog.getByRole('button', { name: 'Add role' }).click();
  const alert = dialog.getByRole('alert');
  await visible(page, alert);
  expect((await alert.textContent())?.length).toBeGreaterThan(0);
  await page.screenshot({ path: '/tmp/w3-role-error.png' });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await visible(page, portal);
  await page.screenshot({ path: '/tmp/w3-roles.png' });
  await page.screenshot({ path: screenshotPath('admin-roles-list') });

  // Groups: a new group with a color and the new role, then Grace as its user.
  portal = await openSection(page, 'Groups');
  await visible(page, portal.getByText('No groups yet'));
  await portal.getByRole('button', { name: 'Add group' }).click();
  dialog = page.getByRole('dialog', { name: 'Add group' });
  await dialog.getByLabel('Name').fill('Audit desk');
  await dialog.getByLabel('Description (optional)').fill('Reads the logs');
  await dialog.getByLabel('Color (optional)').fill('#aa00cc');
  await dialog.getByLabel('Auditors').check();
  await page.screenshot({ path: '/tmp/w3-group-dialog.png' });
  await dialog.getByRole('button', { name: 'Add group' }).click();
  await visible(page, portal.getByRole('status').getByText('Group Audit desk added'));
  await rowAction(page, portal, 'Actions for group Audit desk', 'Users');
  dialog = page.getByRole('dialog', { name: 'Users of Audit desk' });
  await dialog.getByLabel('Find users').fill('gra');
  await dialog.getByLabel(/Grace Hopper/).check();
  await page.screenshot({ path: '/tmp/w3-members-dialog.png' });
  await dialog.getByRole('button', { name: 'Save users' }).click();
  await visible(page, portal.getByRole('status').getByText('Users of Audit desk saved'));

  // What the server now holds, after a reload.
  await page.reload();
  await visible(page, page.getByTestId('signed-in-user'));
  portal = await openSection(page, 'Groups');
  const row = portal.getByRole('row', { name: /Audit desk/ });
  await visible(page, row);
  expect(await row.textContent()).toContain('Auditors');
  expect(await row.textContent()).toContain('Grace Hopper');
  await page.screenshot({ path: '/tmp/w3-groups.png' });
  await page.screenshot({ path: screenshotPath('admin-groups-list') });

  // Deleting the group removes it.
  await rowAction(page, portal, 'Actions for group Audit desk', 'Delete');
  await page.getByRole('dialog', { name: 'Delete group Audit desk' }).getByRole('button', { name: 'Delete' }).click();
  await visible(page, portal.getByRole('status').getByText('Group Audit desk deleted'));
  await row.waitFor({ state: 'detached' });
  expect(errors.filter((e) => !/401|409|Failed to load resource/.test(e))).toEqual([]);
  await page.close();
});
