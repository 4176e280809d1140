/**
 * The admin portal's Users section in Chromium against the real server (issue 5): an admin who
 * signed up opens Users, invites a user through the dialog, searches, edits roles, disables and
 * removes a user; every change is read back from the server after a reload. A failed save keeps the
 * keyboard in its dialog: Escape closes the dialog, not the portal.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from './support/browser';
import { rowAction } from './support/portal';
import { signUpThroughApi, visible } from './support/journey';
import { waitForMail } from './support/mailbox';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();

/** The signed-in user's access token, from the running app. */
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

it('lets an admin invite, search, edit roles of, disable and remove users from the Users section', async () => {
  const { browser, server } = ctx;
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const stamp = Date.now();
  const adminEmail = `admin+${stamp}@example.com`;
  await signUpThroughApi(page, server.url, adminEmail);

  // Two more users through the API, so the table has rows to search among.
  const token = await accessToken(page);
  for (const [name, email] of [['Grace Hopper', `grace+${stamp}@example.com`], ['Alan Turing', `alan+${stamp}@example.com`]]) {
    const res = await fetch(`${server.url}/identity/resources/users/v1`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ email, name }) });
    expect(res.status).toBe(201);
  }

  let portal = await openUsers(page);
  await visible(page, portal.getByRole('row', { name: /Grace Hopper/ }));
  expect(await portal.getByText('3 users').count()).toBe(1);

  // Invite through the dialog; Escape first closes only the dialog, not the portal.
  await portal.getByRole('button', { name: 'Invite user' }).click();
  let dialog = page.getByRole('dialog', { name: 'Invite user' });
  await visible(page, dialog);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await visible(page, portal);
  await portal.getByRole('button', { name: 'Invite user' }).click();
  dialog = page.getByRole('dialog', { name: 'Invite user' });
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await visible(page, dialog.getByText('Enter a valid email address'));
  const carol = `carol+${stamp}@example.com`;
  await dialog.getByLabel('Email').fill(carol);
  await dialog.getByLabel('Name').fill('Carol Shaw');
  await dialog.getByLabel(/Phone number/).fill('+44 20 7946 0958');
  await page.screenshot({ path: '/tmp/h8-invite-dialog.png' });
  await page.screenshot({ path: screenshotPath('admin-users-invite') });
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await visible(page, portal.getByRole('status').getByText(`Invitation sent to ${carol}`));
  await visible(page, portal.getByRole('row', { name: /Carol Shaw/ }));
  expect(await portal.getByRole('row', { name: /Carol Shaw/ }).textContent()).toContain('Invited');
  await waitForMail(server.url, carol, /invited/i);
  await page.screenshot({ path: '/tmp/h8-users.png' });
  await page.screenshot({ path: screenshotPath('admin-users-list') });

  // Search by name prefix.
  await portal.getByLabel('Search users').fill('gra');
  await portal.getByRole('row', { name: /Alan Turing/ }).waitFor({ state: 'detached' });
  expect(await portal.getByRole('row').count()).toBe(2); // header and Grace
  await portal.getByLabel('Search users').fill('');
  await visible(page, portal.getByRole('row', { name: /Alan Turing/ }));

  // Edit roles: Grace gets Support on top of Read only.
  await rowAction(page, portal, 'Actions for Grace Hopper', 'Edit roles');
  dialog = page.getByRole('dialog', { name: 'Edit roles of Grace Hopper' });
  await dialog.getByLabel('Support').check();
  await page.screenshot({ path: '/tmp/h8-roles-dialog.png' });
  await dialog.getByRole('button', { name: 'Save roles' }).click();
  await visible(page, portal.getByRole('status').getByText('Roles of Grace Hopper saved'));
  await visible(page, portal.getByRole('row', { name: /Grace Hopper/ }).filter({ hasText: 'Read only, Support' }));

  // Error path (issue 5 follow-up): a save that fails keeps the keyboard in the dialog. Chromium moves
  // focus off the save button when it becomes disabled; Escape then closed the whole portal.
  await page.route('**/lock', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ errors: ['Lock failed for the test'] }) }));
  await rowAction(page, portal, 'Actions for Alan Turing', 'Lock');
  dialog = page.getByRole('dialog', { name: 'Lock user' });
  await dialog.getByRole('button', { name: 'Lock' }).click();
  await visible(page, dialog.getByRole('alert').getByText('Lock failed for the test'));
  await page.screenshot({ path: '/tmp/gh-users-lock-failed.png' });
  expect(await dialog.evaluate((el) => el.contains((el.getRootNode() as ShadowRoot | Document).activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await visible(page, portal);
  await page.unroute('**/lock');

  // Disable Alan, remove Carol.
  await rowAction(page, portal, 'Actions for Alan Turing', 'Disable');
  dialog = page.getByRole('dialog', { name: 'Disable user' });
  await page.screenshot({ path: '/tmp/h8-disable-dialog.png' });
  await dialog.getByRole('button', { name: 'Disable' }).click();
  await visible(page, portal.getByRole('status').getByText('Alan Turing was disabled'));
  await rowAction(page, portal, 'Actions for Carol Shaw', 'Remove');
  await page.getByRole('dialog', { name: 'Remove user' }).getByRole('button', { name: 'Remove user' }).click();
  await visible(page, portal.getByRole('status').getByText('Carol Shaw was removed'));
  await portal.getByRole('row', { name: /Carol Shaw/ }).waitFor({ state: 'detached' });

  // What the server now holds, after a reload.
  await page.reload();
  await visible(page, page.getByTestId('signed-in-user'));
  portal = await openUsers(page);
  await visible(page, portal.getByRole('row', { name: /Alan Turing/ }));
  expect(await portal.getByRole('row', { name: /Alan Turing/ }).textContent()).toContain('Disabled');
  expect(await portal.getByRole('row', { name: /Grace Hopper/ }).textContent()).toContain('Read only, Support');
  expect(await portal.getByRole('row', { name: /Carol Shaw/ }).count()).toBe(0);
  // The admin's own row has no actions: nobody disables or removes themselves here.
  expect(await portal.getByRole('button', { name: /Ada Lovelace/ }).count()).toBe(0);
  await page.screenshot({ path: '/tmp/h8-users-after.png' });
  expect(errors.filter((e) => !/401|500|Failed to load resource/.test(e))).toEqual([]);
  await page.close();
});

// Issue 17: Next and Previous follow the cursors of the page shown (keyset), and land on the same
// rows as the offset pages of the same order.
it('pages through the Users list by the cursors of the pages shown, to the rows the offsets name', async () => {
  const { browser, server } = ctx;
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const stamp = Date.now();
  await signUpThroughApi(page, server.url, `pager+${stamp}@example.com`);
  const headers = { authorization: `Bearer ${await accessToken(page)}`, 'content-type': 'application/json' };
  // 44 more users, four at a time: 45 in all, three pages of 20.
  for (let start = 0; start < 44; start += 4) {
    const made = await Promise.all(
      [0, 1, 2, 3].map((k) => fetch(`${server.url}/identity/resources/users/v1`, { method: 'POST', headers, body: JSON.stringify({ email: `p${start + k}+${stamp}@example.com`, name: `Pager ${String(start + k).padStart(2, '0')}` }) })),
    );
    expect(made.map((res) => res.status)).toEqual([201, 201, 201, 201]);
  }
  const byOffset = async (n: number) => {
    const res = await fetch(`${server.url}/team/resources/members/v1?pageOffset=${n}&pageSize=20&sortBy=name&sortDirection=asc`, { headers });
    return ((await res.json()) as { items: { name: string }[] }).items.map((u) => u.name);
  };
  const pages = [await byOffset(0), await byOffset(1), await byOffset(2)];
  expect(pages.map((p) => p.length)).toEqual([20, 20, 5]);

  const asked: URL[] = [];
  page.on('request', (r) => void (r.url().includes('/team/resources/members/v1') && asked.push(new URL(r.url()))));
  const portal = await openUsers(page);
  const shows = async (names: string[], label: string) => {
    for (const name of [names[0]!, names.at(-1)!]) await visible(page, portal.getByRole('row', { name: new RegExp(`\\b${name}\\b`) }));
    await visible(page, portal.getByText(label));
  };
  await shows(pages[0]!, 'Page 1 of 3');
  await portal.getByRole('button', { name: 'Next' }).click();
  await shows(pages[1]!, 'Page 2 of 3');
  await portal.getByRole('button', { name: 'Next' }).click();
  await shows(pages[2]!, 'Page 3 of 3');
  expect(await portal.getByRole('row', { name: new RegExp(`\\b${pages[1]![0]}\\b`) }).count()).toBe(0);
  await portal.getByRole('button', { name: 'Previous' }).click();
  await shows(pages[1]!, 'Page 2 of 3');
  // The first list by offset; the three moves by cursor, none with an offset.
  const moves = asked.slice(-3);
  expect(asked[0]!.searchParams.get('pageOffset')).toBe('0');
  expect(moves.map((u) => [u.searchParams.has('cursor'), u.searchParams.has('pageOffset')])).toEqual([[true, false], [true, false], [true, false]]);
  await page.close();
});
