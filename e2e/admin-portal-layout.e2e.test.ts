/**
 * The admin portal in Chromium against the real server (issue 11 sections 3, 5, 6): every section
 * a tenant owner sees fits at 1280×800 and at 390×844 (no horizontal overflow; under 640 px table
 * rows are stacked cards), and has no serious or critical axe violation inside the shadow root in
 * light mode, dark mode (prefers-color-scheme) and Hebrew (the browser's language, right to left).
 * The Users section is photographed in each, as files for people to look at.
 */
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/axe';
import { screenshotPath } from './support/browser';
import { PASSWORD, signUpThroughApi, visible } from './support/journey';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();

interface Variant {
  name: 'light' | 'dark' | 'hebrew';
  context: BrowserContextOptions;
  title: string;
  dir: 'ltr' | 'rtl';
}

const VARIANTS: Variant[] = [
  { name: 'light', context: { colorScheme: 'light', locale: 'en-US' }, title: 'Admin portal', dir: 'ltr' },
  { name: 'dark', context: { colorScheme: 'dark', locale: 'en-US' }, title: 'Admin portal', dir: 'ltr' },
  { name: 'hebrew', context: { colorScheme: 'light', locale: 'he-IL' }, title: 'פורטל הניהול', dir: 'rtl' },
];

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 390, height: 844 };

/**
 * What sticks out sideways in the portal: the page itself wider than the window, a scroll container
 * that scrolls sideways, or a drawn element outside the window. Empty when everything fits.
 */
function overflows(page: Page): Promise<string[]> {
  return page.locator('.gh-ap-dialog').evaluate((dialog) => {
    const doc = dialog.ownerDocument;
    const width = doc.defaultView!.innerWidth;
    const found: string[] = [];
    const name = (el: Element) => `${el.tagName.toLowerCase()}${typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
    if (doc.documentElement.scrollWidth > width) found.push(`page ${doc.documentElement.scrollWidth} > ${width}`);
    for (const el of [dialog, ...dialog.querySelectorAll('*')]) {
      // Form controls scroll their own text; visually hidden text (and a card table's clipped head) is clipped on purpose.
      if (['INPUT', 'TEXTAREA', 'SELECT', 'OPTION'].includes(el.tagName) || el.closest('.gh-ap-visually-hidden')) continue;
      let clipped = false;
      for (let up = el.parentElement; up && up !== dialog && !clipped; up = up.parentElement) clipped = getComputedStyle(up).clipPath !== 'none';
      if (clipped) continue;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 && rect.height === 0) continue;
      if ((style.overflowX === 'auto' || style.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1) found.push(`${name(el)} scrolls sideways: ${el.scrollWidth} > ${el.clientWidth}`);
      else if (rect.right > width + 1 || rect.left < -1) found.push(`${name(el)} outside the window: ${Math.round(rect.left)}..${Math.round(rect.right)} of ${width}`);
    }
    return found.slice(0, 8);
  });
}

/** Waits until nothing in the portal is loading (skeletons gone, no busy table). */
async function settled(page: Page, portal: Locator): Promise<void> {
  await expect.poll(async () => (await portal.locator('[aria-busy="true"], .gh-ap-skeleton, .gh-ap-table-skeleton').count()), { timeout: 15_000 }).toBe(0);
  await page.waitForTimeout(50);
}

async function openPortal(page: Page, title: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Admin portal' }).click();
  const portal = page.getByRole('dialog', { name: title });
  await visible(page, portal);
  return portal;
}

/** A signed-in owner with a few users, a group and a long-named user, shared by the file's tests through storage state. */
async function ownerWithData(browser: Browser, serverUrl: string) {
  const context = await browser.newContext({ viewport: WIDE });
  const page = await context.newPage();
  const email = `layout+${Date.now()}@example.com`;
  await signUpThroughApi(page, serverUrl, email);
  const token = await page.evaluate(() => (globalThis as unknown as { Gatehouse: { getApp(): { getState(): { user: { accessToken: string } } } } }).Gatehouse.getApp().getState().user.accessToken);
  const post = (path: string, body: unknown) => fetch(`${serverUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const stamp = Date.now();
  for (const [name, local] of [['Maximiliana Wolkenstein-Rosenberger', 'maximiliana.wolkenstein-rosenberger'], ['Grace Hopper', 'grace'], ['Alan Turing', 'alan']] as const) {
    expect((await post('/identity/resources/users/v1', { email: `${local}+${stamp}@example.com`, name })).status).toBeLessThan(300);
  }
  expect((await post('/identity/resources/groups/v1', { name: 'Support engineers on call', description: 'Night rota', color: '#aa00cc', roleIds: [] })).status).toBeLessThan(300);
  const state = await context.storageState();
  await context.close();
  return { email, state };
}

describe('admin portal layout and accessibility', () => {
  // One owner with data for every test; each variant is a test of its own (its own time budget).
  let owner: Awaited<ReturnType<typeof ownerWithData>>;
  beforeAll(async () => {
    owner = await ownerWithData(ctx.browser, ctx.server.url);
  }, 60_000);

  it.each(VARIANTS)('fits every section at 1280×800 and 390×844 (cards under 640 px) with 0 serious or critical axe violations: $name', async (variant) => {
    const { browser, server } = ctx;
    const { email, state } = owner;
    const problems: string[] = [];
    {
      const context = await browser.newContext({ ...variant.context, viewport: WIDE, storageState: state });
      // A session of its own: refresh tokens rotate, so the saved cookie serves one context only.
      expect((await context.request.post(`${server.url}/identity/resources/auth/v1/user`, { data: { email, password: PASSWORD } })).status()).toBe(200);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(`${server.url}/`);
      await visible(page, page.getByTestId('signed-in-user'));
      const portal = await openPortal(page, variant.title);
      const root = portal.locator('xpath=..');
      expect(await root.getAttribute('dir')).toBe(variant.dir);
      const background = await portal.evaluate((el) => getComputedStyle(el).backgroundColor);
      if (variant.name === 'dark') expect(background).toBe('rgb(17, 24, 39)');
      else expect(background).not.toBe('rgb(17, 24, 39)');

      // Wide: every section from the side navigation.
      const nav = portal.getByRole('navigation');
      const labels = (await nav.locator('.gh-ap-nav-full button').allTextContents()).map((l) => l.trim());
      expect(labels.length).toBeGreaterThanOrEqual(8);
      for (const label of labels) {
        await nav.locator('.gh-ap-nav-full').getByRole('button', { name: label, exact: true }).click();
        await visible(page, portal.getByRole('heading', { name: label, level: 2, exact: true }));
        await settled(page, portal);
        for (const p of await overflows(page)) problems.push(`${variant.name} 1280 ${label}: ${p}`);
        await expectAccessible(page, `admin portal ${variant.name} 1280: ${label}`);
        if (labels.indexOf(label) === labels.findIndex((l) => /^(Users|משתמשים)$/.test(l))) {
          await page.screenshot({ path: screenshotPath(`admin-portal-users-${variant.name}`) });
        }
      }

      // Narrow: the compact section picker; tables become cards.
      await page.setViewportSize(NARROW);
      const select = portal.getByRole('navigation').locator('select');
      await visible(page, select);
      const options = await select.locator('option').evaluateAll((all) => all.map((o) => ({ value: (o as HTMLOptionElement).value, label: o.textContent!.trim() })));
      expect(options.map((o) => o.label)).toEqual(labels);
      for (const option of options) {
        await select.selectOption(option.value);
        await visible(page, portal.getByRole('heading', { name: option.label, level: 2, exact: true }));
        await settled(page, portal);
        for (const p of await overflows(page)) problems.push(`${variant.name} 390 ${option.label}: ${p}`);
        const rows = portal.locator('table.gh-ap-table tbody tr');
        if ((await rows.count()) > 0) expect(await rows.first().evaluate((tr) => getComputedStyle(tr).display), `${option.label}: rows are cards`).toBe('grid');
        if (/^(Users|משתמשים)$/.test(option.label)) {
          await page.screenshot({ path: screenshotPath(`admin-portal-users-${variant.name}-390`) });
          if (variant.name === 'light') await expectAccessible(page, 'admin portal light 390: Users');
        }
      }
      expect(errors.filter((e) => !/401|404|Failed to load resource/.test(e))).toEqual([]);
      await context.close();
    }
    expect(problems).toEqual([]);
    // Every section twice, with axe on each: more than the default budget under a loaded CI machine.
  }, 180_000);

  it('keeps a row’s actions in one ⋯ menu that the keyboard opens, moves through and closes', async () => {
    const { browser, server } = ctx;
    const { email, state } = owner;
    const context = await browser.newContext({ viewport: WIDE, storageState: state });
    expect((await context.request.post(`${server.url}/identity/resources/auth/v1/user`, { data: { email, password: PASSWORD } })).status()).toBe(200);
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await visible(page, page.getByTestId('signed-in-user'));
    const portal = await openPortal(page, 'Admin portal');
    await portal.getByRole('button', { name: 'Users', exact: true }).click();
    const menuButton = portal.getByRole('button', { name: 'Actions for Grace Hopper' });
    await visible(page, menuButton);
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Actions for Grace Hopper' });
    await visible(page, menu);
    const focused = () => page.evaluate(() => {
      let active: Element | null = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active?.textContent ?? '';
    });
    expect(await focused()).toBe('Edit roles');
    await page.keyboard.press('End');
    expect(await focused()).toBe('Remove');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Edit roles');
    await page.screenshot({ path: screenshotPath('admin-portal-row-menu') });
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await focused()).toBe('');
    expect(await menuButton.evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el)).toBe(true);
    // The portal is still open: Escape closed only the menu.
    await visible(page, portal);
    await context.close();
  });
});

