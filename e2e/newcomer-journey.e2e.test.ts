/**
 * The newcomer journey of issue 2, in Chromium against the real built server: sign up, activate
 * from the dev mailbox, sign out, sign in through the login box, reload, edit the profile in the
 * admin portal, sign out. Once with the demo on the server's origin, once from a second origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './support/browser';
import { closeContexts, freePort, startGatehouse, startSecondOrigin, workerBrowser, type RunningServer } from './support/server';
import { PASSWORD, signIn, signUpAndActivate, visible } from './support/journey';

/** A valid 1x1 PNG. */
const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let browser: Browser;
beforeAll(async () => {
  browser = await workerBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
});

async function journey(page: Page, hostUrl: string, serverUrl: string, shot: string): Promise<void> {
  const email = `ada+${shot}-${Date.now()}@example.com`;
  const consoleErrors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  await signUpAndActivate(page, hostUrl, serverUrl, email, shot);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/account\/login/);
  await signIn(page, email, PASSWORD);
  await page.waitForURL(`${hostUrl}/`);
  await visible(page, page.getByTestId('signed-in-user'));

  await page.reload();
  await visible(page, page.getByTestId('signed-in-user'));
  expect(await page.getByTestId('signed-in-user').textContent()).toContain(email);
  await page.screenshot({ path: screenshotPath(`${shot}-home`) });

  // Signed in, the login route sends the user on instead of showing the form.
  await page.goto(`${hostUrl}/account/login`);
  await page.waitForURL(`${hostUrl}/`);
  await visible(page, page.getByTestId('signed-in-user'));

  await page.getByRole('button', { name: 'Admin portal' }).click();
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  await visible(page, portal);
  await visible(page, portal.getByLabel('Job title'));
  await portal.getByLabel('Job title').fill('Analyst');
  await portal.getByLabel('Address').fill('12 St James Square, London');
  await portal.getByLabel('Profile picture').setInputFiles({ name: 'ada.png', mimeType: 'image/png', buffer: PNG_1X1 });
  await portal.getByRole('button', { name: 'Save' }).click();
  await visible(page, portal.getByText('Profile saved'));
  // The picture went to the server and is served from there, as a real PNG.
  const pictureUrl = await page.evaluate(() => (globalThis as unknown as { Gatehouse: { getApp(): { getState(): { user: { profilePictureUrl: string | null } } } } }).Gatehouse.getApp().getState().user.profilePictureUrl);
  expect(pictureUrl).toMatch(new RegExp(`^${serverUrl}/identity/resources/users/v1/profile-pictures/`));
  const picture = await fetch(pictureUrl!);
  expect(picture.headers.get('content-type')).toBe('image/png');
  expect(Buffer.from(await picture.arrayBuffer()).equals(PNG_1X1)).toBe(true);
  await page.screenshot({ path: screenshotPath(`${shot}-admin-profile`) });
  await portal.getByRole('button', { name: 'Close' }).click();
  await portal.waitFor({ state: 'detached' });

  // The saved profile comes back from the server after a reload.
  await page.goto(`${hostUrl}/?view=notes`);
  await visible(page, page.getByTestId('signed-in-user'));
  await page.getByRole('button', { name: 'Admin portal' }).click();
  await visible(page, page.getByRole('dialog', { name: 'Admin portal' }).getByLabel('Job title'));
  expect(await page.getByRole('dialog', { name: 'Admin portal' }).getByLabel('Job title').inputValue()).toBe('Analyst');
  // Hiding the portal restores the search parameters the page had when it opened (seed 2.1).
  await page.evaluate(() => history.replaceState(null, '', '/?portal=profile'));
  await page.keyboard.press('Escape');
  await page.getByRole('dialog', { name: 'Admin portal' }).waitFor({ state: 'detached' });
  expect(new URL(page.url()).search).toBe('?view=notes');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/account\/login/);
  await page.reload();
  await visible(page, page.getByRole('heading', { name: 'Sign in' }));
  expect(consoleErrors.filter((e) => !/401|Failed to load resource/.test(e))).toEqual([]);
}

describe('newcomer journey on the server origin', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startGatehouse();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('signs up, activates from the mailbox, signs in, survives a reload, edits the profile and signs out', async () => {
    const context = await browser.newContext();
    await journey(await context.newPage(), server.url, server.url, 'same-origin');
    await context.close();
  });
});

describe('newcomer journey with the host page on a second origin', () => {
  let server: RunningServer;
  let host: { url: string; stop(): Promise<void> };
  beforeAll(async () => {
    const hostPort = await freePort();
    server = await startGatehouse({ GATEHOUSE_ALLOWED_ORIGINS: `http://localhost:${hostPort}` });
    host = await startSecondOrigin(server.url, 'demo-client', hostPort);
  });
  afterAll(async () => {
    await host?.stop();
    await server?.stop();
  });

  it('works across origins: CORS with credentials and the refresh cookie', async () => {
    const context = await browser.newContext();
    await journey(await context.newPage(), host.url, server.url, 'second-origin');
    await context.close();
  });

  it('refuses API calls from an origin that is not allowed', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const other = await startSecondOrigin(server.url);
    await page.goto(`${other.url}/account/login`);
    const result = await page.evaluate(async (base) => {
      try {
        await fetch(`${base}/identity/resources/auth/v1/user/token/refresh`, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: '{}' });
        return 'reachable';
      } catch {
        return 'blocked';
      }
    }, server.url);
    expect(result).toBe('blocked');
    await other.stop();
    await context.close();
  });
});
