/** Admin portal helpers for e2e: a row's action through its "⋯" menu, the signed-in user's token, screenshots at both widths. */
import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { screenshotPath } from './browser';
import { PASSWORD, visible } from './journey';

/** Opens the row menu named `menu` inside `scope` and chooses its item named `item`. */
export async function rowAction(page: Page, scope: Locator, menu: string | RegExp, item: string | RegExp): Promise<void> {
  await scope.getByRole('button', { name: menu }).click();
  await page.getByRole('menu').getByRole('menuitem', { name: item }).click();
}

/** The signed-in user's access token, from the running app's store. */
export function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => (globalThis as unknown as { Gatehouse: { getApp(): { getState(): { user: { accessToken: string } } } } }).Gatehouse.getApp().getState().user.accessToken);
}

/**
 * Screenshots `name` at 1280 and 390 px, light and dark (`<name>-<width>-<scheme>.png`), then puts
 * the page back at 1280 px, light. `atWidth` runs once per width before its screenshots (e.g. an
 * overflow check).
 */
export async function screenshotsAtBothWidths(
  page: Page,
  name: string,
  options: { fullPage?: boolean; atWidth?: (width: number) => Promise<void> } = {},
): Promise<void> {
  for (const [width, height] of [[1280, 900], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    await options.atWidth?.(width);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: screenshotPath(`${name}-${width}-${colorScheme}`), fullPage: options.fullPage });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * The same user signed in again in a new browser context of `locale` (1280 x 900): the first page's
 * storage (its session hint), and a session of its own, since refresh tokens rotate and sessions are
 * not shared between contexts. Answers the new page on the host page, signed in.
 */
export async function signedInCopy(browser: Browser, page: Page, serverUrl: string, email: string, locale: string): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 }, storageState: await page.context().storageState() });
  const copy = await context.newPage();
  expect((await context.request.post(`${serverUrl}/identity/resources/auth/v1/user`, { data: { email, password: PASSWORD } })).status()).toBe(200);
  await copy.goto(`${serverUrl}/`);
  await visible(copy, copy.getByTestId('signed-in-user'));
  return copy;
}
