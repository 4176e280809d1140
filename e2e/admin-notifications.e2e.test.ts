/**
 * The admin portal's notification bell in Chromium against the real server (issue 16
 * "Notifications"): an admin's API token changes raise `api_token.created`, the server's worker turns
 * them into notifications, and the bell, listening to the server-sent event stream, names the unread
 * count; the panel marks one read and pins one, another change arrives while it is open, and
 * mark-all-read empties the count. Accessible (axe) and screenshot at 1280 and 390 px, light and dark.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ApiTokenPaths } from '@gatehouse/shared/admin-paths';
import { expectAccessible } from './support/axe';
import { signUpThroughApi, visible } from './support/journey';
import { accessToken, screenshotsAtBothWidths } from './support/portal';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();

async function createToken(page: Page, serverUrl: string, description: string): Promise<void> {
  const token = await accessToken(page);
  const res = await fetch(`${serverUrl}${ApiTokenPaths.tenantApiTokens}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ description, roleIds: [] }) });
  expect(res.status).toBe(201);
}

it('names the unread count in the header, live from the stream; the panel reads, pins and marks all read; accessible at both widths in both schemes', async () => {
  const { browser, server } = ctx;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await signUpThroughApi(page, server.url, `bell+${Date.now()}@example.com`);
  await createToken(page, server.url, 'Reporting export');
  await createToken(page, server.url, 'CI deploys');

  await page.getByRole('button', { name: 'Admin portal' }).click();
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  await visible(page, portal);
  const bell = portal.getByRole('button', { name: 'Notifications, 2 unread' });
  await visible(page, bell);
  await bell.click();
  const panel = portal.getByRole('dialog', { name: 'Notifications' });
  await visible(page, panel.getByText('A tenant API token ("CI deploys") was created', { exact: false }));
  await expectAccessible(page, 'notification panel');
  await screenshotsAtBothWidths(page, 'admin-notifications-panel');

  await panel.getByRole('button', { name: 'Mark as read: API token created' }).first().click();
  await visible(page, portal.getByRole('button', { name: 'Notifications, 1 unread' }));
  await panel.getByRole('button', { name: 'Pin: API token created' }).last().click();
  await visible(page, panel.getByText('Pinned'));

  // A change while the panel is open: the stream brings the new count without a reload.
  await createToken(page, server.url, 'Nightly backup');
  await visible(page, portal.getByRole('button', { name: 'Notifications, 2 unread' }));

  await panel.getByRole('button', { name: 'Mark all as read' }).click();
  await visible(page, portal.getByRole('button', { name: 'Notifications', exact: true }));

  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  // Escape closed the panel only; the portal is still open and the bell has the focus.
  await visible(page, portal);
  expect(await page.evaluate(() => {
    const host = document.querySelector('gatehouse-admin-portal');
    const active = (host?.shadowRoot ?? document).activeElement as HTMLElement | null;
    return active?.getAttribute('aria-label') ?? null;
  })).toBe('Notifications');
  await screenshotsAtBothWidths(page, 'admin-notifications-bell');

  // In Hebrew the bell and the panel read right to left, in the portal's language.
  const context = await browser.newContext({ locale: 'he-IL', viewport: { width: 1280, height: 900 }, storageState: await page.context().storageState() });
  const hebrew = await context.newPage();
  hebrew.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await hebrew.goto(`${server.url}/`);
  await visible(hebrew, hebrew.getByTestId('signed-in-user'));
  await createToken(page, server.url, 'Hebrew check');
  await hebrew.getByRole('button', { name: 'Admin portal' }).click();
  const hebrewPortal = hebrew.getByRole('dialog', { name: 'פורטל הניהול' });
  await visible(hebrew, hebrewPortal);
  await hebrewPortal.getByRole('button', { name: 'התראות, 1 שלא נקראו' }).click();
  const hebrewPanel = hebrewPortal.getByRole('dialog', { name: 'התראות' });
  await visible(hebrew, hebrewPanel.getByRole('button', { name: 'סימון הכול כנקרא' }));
  expect(await hebrewPortal.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
  await expectAccessible(hebrew, 'notification panel, Hebrew');
  await screenshotsAtBothWidths(hebrew, 'admin-notifications-panel-hebrew');
  await context.close();
  expect(errors).toEqual([]);
});
