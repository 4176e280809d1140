/** Admin portal helpers for e2e: a row's action through its "⋯" menu, as a user reaches it. */
import type { Locator, Page } from 'playwright-core';

/** Opens the row menu named `menu` inside `scope` and chooses its item named `item`. */
export async function rowAction(page: Page, scope: Locator, menu: string | RegExp, item: string | RegExp): Promise<void> {
  await scope.getByRole('button', { name: menu }).click();
  await page.getByRole('menu').getByRole('menuitem', { name: item }).click();
}
