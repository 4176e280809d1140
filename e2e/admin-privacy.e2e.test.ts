/**
 * The admin portal's Privacy section in Chromium against the real server (issue 5): a user signed in
 * from two browsers sees both sessions ("This device" on its own), signs the other one out, and that
 * browser's refresh token stops working. Error path: a session signed out elsewhere in the meantime
 * is refused by the server, and the dialog says so. Then MFA: an authenticator app is listed, a
 * wrong code is refused, and a recovery code removes it.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appCode } from '../server/src/test/rfc6238';
import { screenshotPath } from './support/browser';
import { PASSWORD, signIn, signUpThroughApi, visible } from './support/journey';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();
const REFRESH = '/identity/resources/auth/v1/user/token/refresh';

async function openPrivacy(page: Page) {
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  if (!(await portal.isVisible())) {
    await page.getByRole('button', { name: 'Admin portal' }).click();
    await visible(page, portal);
  }
  await portal.getByRole('button', { name: 'Privacy' }).click();
  await visible(page, portal.getByRole('heading', { name: 'Privacy' }));
  return portal;
}

/** The signed-in user's access token, from the running app. */
function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => (globalThis as unknown as { Gatehouse: { getApp(): { getState(): { user: { accessToken: string } } } } }).Gatehouse.getApp().getState().user.accessToken);
}

/** What the page's own refresh call answers (the httpOnly cookie goes with it). */
function refreshStatus(page: Page): Promise<number> {
  return page.evaluate(async (path) => (await fetch(path, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: '{}' })).status, REFRESH);
}

it('lists the sessions of two browsers, signs the other one out for real, shows a refused sign-out, removes a second factor and saves a username', async () => {
  const { browser, server } = ctx;
  const first = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const second = await browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1' });
  const page = await first.newPage();
  const other = await second.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const email = `privacy+${Date.now()}@example.com`;

  await signUpThroughApi(page, server.url, email);
  await other.goto(`${server.url}/`);
  await other.waitForURL(/\/account\/login/);
  await signIn(other, email, PASSWORD);
  await visible(other, other.getByTestId('signed-in-user'));
  expect(await refreshStatus(other)).toBe(200);

  // The first browser lists both sessions; its own carries "This device".
  let portal = await openPrivacy(page);
  const sessions = portal.getByRole('table', { name: 'Your login sessions' });
  await visible(page, sessions.getByRole('row', { name: /Safari 17 on iOS/ }));
  expect(await sessions.getByRole('row').count()).toBe(3);
  const own = sessions.getByRole('row', { name: /This device/ });
  expect(await own.textContent()).toMatch(/Headless Chrome \d+ on Linux|Chrome \d+ on Linux/);
  expect(await own.getByRole('button').count()).toBe(0);
  await visible(page, portal.getByText('No second factor is set up'));
  await page.screenshot({ path: screenshotPath('admin-privacy-sessions') });
  await page.screenshot({ path: '/tmp/w5-privacy.png', fullPage: true });

  // Sign the phone out: it is gone from the list, and its refresh token no longer works.
  await sessions.getByRole('button', { name: /^Sign out Safari 17 on iOS/ }).click();
  let dialog = page.getByRole('dialog', { name: 'Sign out this session' });
  await page.screenshot({ path: '/tmp/w5-privacy-confirm.png' });
  await dialog.getByRole('button', { name: 'Sign out' }).click();
  await visible(page, portal.getByRole('status').getByText('Session signed out'));
  await sessions.getByRole('row', { name: /Safari 17 on iOS/ }).waitFor({ state: 'detached' });
  expect(await sessions.getByRole('row').count()).toBe(2);
  expect(await refreshStatus(other)).toBe(401);
  await other.reload();
  await other.waitForURL(/\/account\/login/);

  // Error path: a third sign-in, listed, then signed out from that device itself before the click.
  const login = await fetch(`${server.url}/identity/resources/auth/v1/user`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0' }, body: JSON.stringify({ email, password: PASSWORD }) });
  expect(login.status).toBe(200);
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  await page.reload();
  await visible(page, page.getByTestId('signed-in-user'));
  portal = await openPrivacy(page);
  await visible(page, portal.getByRole('row', { name: /Firefox 128 on Linux/ }));
  const logout = await fetch(`${server.url}/identity/resources/auth/v1/logout`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: '{}' });
  expect(logout.ok).toBe(true);
  await portal.getByRole('button', { name: /^Sign out Firefox 128 on Linux/ }).click();
  dialog = page.getByRole('dialog', { name: 'Sign out this session' });
  await dialog.getByRole('button', { name: 'Sign out' }).click();
  const alert = dialog.getByRole('alert');
  await visible(page, alert);
  expect(await alert.textContent()).toBe('Session not found');
  await page.screenshot({ path: '/tmp/w5-privacy-error.png' });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await visible(page, portal);
  // Closing re-reads the list: the session that ended elsewhere is gone.
  await portal.getByRole('row', { name: /Firefox 128 on Linux/ }).waitFor({ state: 'detached' });


  // MFA: an authenticator app enrolled through the API (the sign-in is recent), then removed here.
  const token = await accessToken(page);
  const api = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const enrolled = (await (await api('/identity/resources/users/v1/mfa/authenticator/enroll', {})).json()) as { secret: string };
  const verified = await api('/identity/resources/users/v1/mfa/authenticator/enroll/verify', { token: appCode(enrolled.secret, Date.now()) });
  expect(verified.status).toBe(200);
  const { recoveryCodes } = (await verified.json()) as { recoveryCodes: string[] };
  await page.reload();
  await visible(page, page.getByTestId('signed-in-user'));
  portal = await openPrivacy(page);
  const factors = portal.getByRole('table', { name: 'Your second factors' });
  await visible(page, factors.getByRole('row', { name: /Authenticator app/ }));
  await visible(page, portal.getByText(`${recoveryCodes.length} recovery codes left`, { exact: false }));
  await factors.getByRole('button', { name: 'Remove Authenticator app' }).click();
  dialog = page.getByRole('dialog', { name: 'Remove Authenticator app' });
  const code = dialog.getByLabel('Authenticator or recovery code');
  await code.fill('not-a-recovery-code');
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await visible(page, dialog.getByRole('alert'));
  await page.screenshot({ path: '/tmp/w5-privacy-mfa-error.png' });
  await page.screenshot({ path: screenshotPath('admin-privacy-mfa-remove') });
  await code.fill(recoveryCodes[0]!);
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await visible(page, portal.getByRole('status').getByText('Authenticator app removed'));
  await visible(page, portal.getByText('No second factor is set up'));
  // Profile username (seed 001 section 5): a first one is created, a changed one replaces it.
  const profile = page.getByRole('dialog', { name: 'Admin portal' });
  await profile.getByRole('button', { name: 'Profile' }).click();
  await visible(page, profile.getByRole('heading', { name: 'Profile' }));
  const username = `ada.${Date.now()}`;
  await profile.getByLabel('Username').fill(username);
  await profile.getByRole('button', { name: 'Save' }).click();
  await visible(page, profile.getByRole('status').getByText('Profile saved'));
  await profile.getByLabel('Username').fill(`${username}.b`);
  await profile.getByRole('button', { name: 'Save' }).click();
  await visible(page, profile.getByRole('status').getByText('Profile saved'));
  await page.screenshot({ path: '/tmp/w5-profile-username.png' });
  const me = await fetch(`${server.url}/identity/resources/users/v2/me`, { headers: { authorization: `Bearer ${await accessToken(page)}` } });
  expect(((await me.json()) as { username: string }).username).toBe(`${username}.b`);
  await profile.getByRole('button', { name: 'Privacy' }).click();

  // Narrow screens: the tables scroll sideways inside their frame, the page does not.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: '/tmp/w5-privacy-narrow.png' });

  expect(errors.filter((e) => !/400|401|404|Failed to load resource/.test(e))).toEqual([]);
  await first.close();
  await second.close();
});
