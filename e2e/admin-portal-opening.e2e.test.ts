/**
 * "Admin portal" opens at once: while the portal's code is still on its way (held back here), a
 * named, busy frame shows where the portal will be, passes axe, and gives way to the portal's
 * own shell once the code runs.
 */
import { expect, it } from 'vitest';
import { useBrowserAndServer } from './support/server';
import { expectAccessible } from './support/axe';
import { screenshotPath } from './support/browser';
import { signUpThroughApi, visible } from './support/journey';

const env = useBrowserAndServer();

it('shows a placeholder the moment "Admin portal" is clicked, and the portal in its place when its code arrives', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  const page = await context.newPage();
  try {
    await signUpThroughApi(page, env.server.url, `opening-${Date.now()}@example.com`);
    // Hold the portal's entry back until the placeholder has been checked.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/cdn\/admin-portal\/[^/]+\/remoteEntry\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Admin portal' }).click();
    const placeholder = page.getByRole('progressbar', { name: 'Admin portal' });
    await visible(page, placeholder);
    expect(await placeholder.getAttribute('aria-busy')).toBe('true');
    await page.screenshot({ path: screenshotPath('admin-portal-opening-placeholder') });
    await expectAccessible(page, 'admin portal placeholder (dark)');

    release();
    await visible(page, page.getByRole('dialog', { name: 'Admin portal' }));
    await placeholder.waitFor({ state: 'detached' });
  } finally {
    await context.close();
  }
});
