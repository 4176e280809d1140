/** Admin portal helpers for e2e: a row's action through its "⋯" menu, the signed-in user's token, screenshots at both widths. */
import type { Locator, Page } from 'playwright-core';
import { screenshotPath } from './browser';

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
