/**
 * The Users section's account-wide actions in Chromium against the real server: an admin who signed
 * up creates the invite link (default 30 days), copies it, changes its expiry and deletes it after the
 * confirmation; adds users in bulk (a refused address is listed with the reason); resends an
 * activation; makes a user temporary and permanent again. Every change is read back from the server.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from './support/browser';
import { rowAction } from './support/portal';
import { signUpThroughApi, visible } from './support/journey';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();

function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => (globalThis as unknown as { Gatehouse: { getApp(): { getState(): { user: { accessToken: string } } } } }).Gatehouse.getApp().getState().user.accessToken);
}

async function openUsers(page: Page) {
  await page.getByRole('button', { name: 'Admin portal' }).click();
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  await visible(page, portal);
  await portal.getByRole('button', { name: 'Users' }).click();
  await visible(page, portal.getByRole('heading', { name: 'Users' }));
  return portal;
}

it('lets an admin manage the invite link, add users in bulk, resend an activation and make a user temporary', async () => {
  const { browser, server } = ctx;
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const stamp = Date.now();
  const adminEmail = `admin+${stamp}@example.com`;
  await signUpThroughApi(page, server.url, adminEmail);
  const token = await accessToken(page);
  const get = async (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

  const portal = await openUsers(page);

  // Invite link: none yet; create with the default 30 days (43200 minutes).
  await portal.getByRole('button', { name: 'Invite link' }).click();
  const linkDialog = page.getByRole('dialog', { name: 'Invite link' });
  await visible(page, linkDialog.getByText(/no invite link/));
  expect(await linkDialog.getByLabel('Expires in (days)').inputValue()).toBe('30');
  await linkDialog.getByRole('button', { name: 'Create link' }).click();
  const url = linkDialog.getByLabel('Link');
  await visible(page, url);
  const created = (await (await get('/identity/resources/tenants/invites/v1/user')).json()) as { url: string; expiresInMinutes: number };
  expect(await url.inputValue()).toBe(created.url);
  expect(created.expiresInMinutes).toBeGreaterThan(43_190);
  await linkDialog.getByRole('button', { name: 'Copy' }).click();
  await visible(page, linkDialog.getByText('Link copied'));
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(created.url);
  await page.screenshot({ path: '/tmp/gh-users-invite-link.png' });
  await page.screenshot({ path: screenshotPath('admin-users-invite-link') });

  // Error path: an expiry out of range is refused before any call; then 2 days is saved.
  await linkDialog.getByLabel('New expiry, in days from now').fill('0');
  await linkDialog.getByRole('button', { name: 'Save expiry' }).click();
  await visible(page, linkDialog.getByRole('alert').getByText(/whole number of days/));
  await linkDialog.getByLabel('New expiry, in days from now').fill('2');
  await linkDialog.getByRole('button', { name: 'Save expiry' }).click();
  await visible(page, portal.getByRole('status').getByText('Invite link expiry saved'));
  const updated = (await (await get('/identity/resources/tenants/invites/v1/user')).json()) as { url: string; expiresInMinutes: number };
  expect(updated.url).toBe(created.url);
  expect(updated.expiresInMinutes).toBeLessThanOrEqual(2880);
  expect(updated.expiresInMinutes).toBeGreaterThan(2870);

  // Delete, after the confirmation.
  await linkDialog.getByRole('button', { name: 'Delete link' }).click();
  await visible(page, linkDialog.getByText(/stops working at once/));
  await linkDialog.getByRole('button', { name: 'Delete link' }).click();
  await visible(page, linkDialog.getByText(/no invite link/));
  expect((await get('/identity/resources/tenants/invites/v1/user')).status).toBe(404);
  await page.keyboard.press('Escape');
  await linkDialog.waitFor({ state: 'detached' });

  // Bulk add: two new addresses, one malformed; the refused one is listed with the reason.
  await portal.getByRole('button', { name: 'Add users in bulk' }).click();
  const bulk = page.getByRole('dialog', { name: 'Add users in bulk' });
  await bulk.getByLabel('Email addresses').fill(`dora+${stamp}@example.com, eve+${stamp}@example.com\nnot-an-address`);
  await bulk.getByRole('button', { name: 'Add users' }).click();
  await visible(page, bulk.getByText('Invited (2)'));
  await visible(page, bulk.getByText('Not invited (1)'));
  await visible(page, bulk.getByText(/not-an-address: Not a valid email address/));
  await page.screenshot({ path: '/tmp/gh-users-bulk-result.png' });
  await page.screenshot({ path: screenshotPath('admin-users-bulk') });
  await bulk.getByRole('button', { name: 'Done' }).click();
  await visible(page, portal.getByRole('row', { name: new RegExp(`dora\\+${stamp}`) }));
  await visible(page, portal.getByRole('row', { name: new RegExp(`eve\\+${stamp}`) }));

  // Resend the invitation to a pending user.
  const dora = portal.getByRole('row', { name: new RegExp(`dora\\+${stamp}`) });
  await rowAction(page, dora, /^Actions for/, 'Resend activation');
  await visible(page, portal.getByRole('status').getByText(`Activation email sent again to dora+${stamp}@example.com`));

  // Temporary for 2 days, then permanent again.
  const eve = portal.getByRole('row', { name: new RegExp(`eve\\+${stamp}`) });
  await rowAction(page, eve, /^Actions for/, 'Make temporary');
  const temp = page.getByRole('dialog', { name: /temporary$/ });
  await temp.getByLabel('Expires in').fill('2');
  await temp.getByRole('button', { name: 'Make temporary' }).click();
  await temp.waitFor({ state: 'detached' });
  await visible(page, eve.getByText(/Temporary until/));
  await page.screenshot({ path: '/tmp/gh-users-temporary-row.png' });
  await rowAction(page, eve, /^Actions for/, 'Make permanent');
  await visible(page, portal.getByRole('status').getByText(/is permanent again$/));
  expect(await eve.getByText(/Temporary until/).count()).toBe(0);

  expect(errors.filter((e) => !/401|404|Failed to load resource/.test(e))).toEqual([]);
  await context.close();
});
