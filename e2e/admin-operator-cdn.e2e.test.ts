/**
 * The Operator area's CDN tab in Chromium (issue 18): a super user publishes a built login-box
 * version by picking its folder (`<input type="file" webkitdirectory>`, Playwright's setInputFiles
 * with the directory), sees it listed as unused, makes it a canary, then the default, and rolls
 * back; the server holds each step. Axe-clean; 1280 and 390 px, light and dark; Hebrew right to left.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { OperatorPaths } from '@gatehouse/shared/admin-paths';
import { expectAccessible } from './support/axe';
import { screenshotPath } from './support/browser';
import { loginBoxVersion } from './support/cdn-version';
import { signUpThroughApi, visible } from './support/journey';
import { accessToken, rowAction, screenshotsAtBothWidths, signedInCopy } from './support/portal';
import { promoteSuperUser, repoRoot, useBrowserAndServer } from './support/server';

const cdnDir = mkdtempSync(join(tmpdir(), 'gatehouse-cdn-tab-'));
cpSync(join(repoRoot, 'dist/cdn'), cdnDir, { recursive: true });
const ctx = useBrowserAndServer({ GATEHOUSE_CDN_DIR: cdnDir });
const sources = mkdtempSync(join(tmpdir(), 'gatehouse-cdn-tab-sources-'));
const BASE = (JSON.parse(readFileSync(join(cdnDir, 'cdn-manifest.json'), 'utf8')) as { bundles: Record<string, { version: string }> }).bundles['login-box']!.version;
const NEXT = '7.999.5';
afterAll(() => {
  rmSync(cdnDir, { recursive: true, force: true });
  rmSync(sources, { recursive: true, force: true });
});

async function openCdnTab(page: Page, title: string, operator: string, tab: string): Promise<Locator> {
  const portal = page.getByRole('dialog', { name: title });
  await page.getByRole('button', { name: 'Admin portal' }).click();
  await visible(page, portal);
  await portal.getByRole('navigation').getByRole('button', { name: operator }).click();
  await portal.getByRole('tab', { name: tab }).click();
  await visible(page, portal.getByRole('tab', { name: tab, selected: true }));
  return portal;
}

/** No element wider than the viewport (the 390 px layout). */
async function noOverflow(page: Page, width: number): Promise<void> {
  const wide = await page.evaluate((w) => document.documentElement.scrollWidth > w, width);
  expect(wide, `horizontal overflow at ${width} px`).toBe(false);
}

it('publishes a version folder from the CDN tab, lists it unused, canaries it, makes it the default and rolls back', { timeout: 300_000 }, async () => {
  const { browser, server } = ctx;
  const folder = loginBoxVersion(join(repoRoot, 'dist/cdn'), BASE, sources, NEXT);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const email = `cdn-tab+${Date.now()}@example.com`;
  await signUpThroughApi(page, server.url, email);
  await promoteSuperUser(server, email);
  await page.reload();
  await visible(page, page.getByTestId('signed-in-user'));
  const token = await accessToken(page);
  const versions = async () => {
    const res = await fetch(`${server.url}${OperatorPaths.cdnVersions}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { bundles: Array<{ bundle: string; default: string; previous: string | null; canary: { version: string; percent: number } | null; versions: Array<{ version: string; state: string[] }> }> }).bundles.find((b) => b.bundle === 'login-box')!;
  };

  const portal = await openCdnTab(page, 'Admin portal', 'Operator', 'CDN');
  await visible(page, portal.getByRole('row', { name: new RegExp(`login-box ${BASE.replace(/\./g, '\\.')}`) }));

  // Publish: pick the folder; the dialog says what it holds before anything is sent.
  await portal.getByRole('button', { name: 'Publish a version…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish a version' });
  await dialog.getByLabel('Version folder').setInputFiles(folder);
  await visible(page, dialog.getByRole('status').getByText(new RegExp(`^login-box ${NEXT.replace(/\./g, '\\.')}: \\d+ files`)));
  expect(await versions().then((b) => b.versions.map((v) => v.version))).not.toContain(NEXT);
  await screenshotsAtBothWidths(page, 'admin-operator-cdn-publish', { atWidth: (w) => noOverflow(page, w) });
  await expectAccessible(page, 'operator CDN publish dialog');
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await visible(page, portal.getByRole('status').getByText(`login-box ${NEXT} published`));
  const row = portal.getByRole('row', { name: new RegExp(`login-box ${NEXT.replace(/\./g, '\\.')}`) });
  await visible(page, row.getByText('Unused'));
  expect((await versions()).versions.find((v) => v.version === NEXT)?.state).toEqual(['unused']);
  await screenshotsAtBothWidths(page, 'admin-operator-cdn', { atWidth: (w) => noOverflow(page, w) });
  await expectAccessible(page, 'operator CDN tab');

  // Canary 10%.
  await rowAction(page, portal, `Actions for login-box ${NEXT}`, 'Canary…');
  const canary = page.getByRole('dialog', { name: `Canary login-box ${NEXT}` });
  await canary.getByLabel('Share of people (%)').fill('10');
  await canary.getByRole('button', { name: 'Start canary' }).click();
  await visible(page, row.getByText('Canary 10%'));
  expect((await versions()).canary).toEqual({ version: NEXT, percent: 10 });

  // The default, then rolled back.
  await rowAction(page, portal, `Actions for login-box ${NEXT}`, 'Make default');
  await page.getByRole('dialog', { name: `Make login-box ${NEXT} the default` }).getByRole('button', { name: 'Make default' }).click();
  await visible(page, row.getByText('Default'));
  expect(await versions()).toMatchObject({ default: NEXT, previous: BASE });
  await rowAction(page, portal, `Actions for login-box ${NEXT}`, `Roll back to ${BASE}`);
  const rollback = page.getByRole('dialog', { name: 'Roll back login-box' });
  await screenshotsAtBothWidths(page, 'admin-operator-cdn-rollback');
  await expectAccessible(page, 'operator CDN rollback dialog');
  await rollback.getByRole('button', { name: 'Roll back' }).click();
  await visible(page, portal.getByRole('status').getByText(`login-box rolled back to ${BASE}`));
  expect(await versions()).toMatchObject({ default: BASE, previous: null });
  expect(errors).toEqual([]);

  // Hebrew: the tab right to left, with the publish dialog open.
  const hebrew = await signedInCopy(browser, page, server.url, email, 'he-IL');
  const hePortal = await openCdnTab(hebrew, 'פורטל הניהול', 'מפעיל', 'CDN');
  await visible(hebrew, hePortal.getByRole('row', { name: new RegExp(`login-box ${NEXT.replace(/\./g, '\\.')}`) }));
  expect(await hePortal.locator('xpath=..').getAttribute('dir')).toBe('rtl');
  await hebrew.screenshot({ path: screenshotPath('admin-operator-cdn-hebrew') });
  await expectAccessible(hebrew, 'operator CDN tab, Hebrew');
  await hePortal.getByRole('button', { name: 'פרסום גרסה…' }).click();
  await visible(hebrew, hebrew.getByRole('dialog', { name: 'פרסום גרסה' }));
  await hebrew.screenshot({ path: screenshotPath('admin-operator-cdn-publish-hebrew') });
  await expectAccessible(hebrew, 'operator CDN publish dialog, Hebrew');
  await hebrew.context().close();
  await page.close();
});
