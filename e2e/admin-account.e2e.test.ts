/**
 * The admin portal's Account settings section in Chromium against the real server (issue 5): an
 * admin who signed up renames the company, picks a time zone and uploads a logo, turns on the
 * custom login box, and reads it all back after a reload; a website the server refuses is shown
 * under its field with the server's message, and nothing typed or stored is lost.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from './support/browser';
import { signUpThroughApi, visible } from './support/journey';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();

async function openAccount(page: Page) {
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  if (!(await portal.isVisible())) {
    await page.getByRole('button', { name: 'Admin portal' }).click();
    await visible(page, portal);
  }
  await portal.getByRole('button', { name: 'Account settings' }).click();
  await visible(page, portal.getByRole('heading', { name: 'Account settings' }));
  await visible(page, portal.getByLabel('Company name'));
  return portal;
}

/** A small PNG logo drawn by the browser itself. */
async function logoPng(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 96;
    canvas.height = 96;
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#0f766e';
    g.beginPath();
    g.arc(48, 48, 44, 0, Math.PI * 2);
    g.fill();
    g.fillStyle = '#fff';
    g.font = 'bold 44px sans-serif';
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText('A', 48, 51);
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

it('lets an admin change the company name, time zone, logo and custom login, kept after a reload; a refused website loses nothing', async () => {
  const { browser, server } = ctx;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await signUpThroughApi(page, server.url, `owner+${Date.now()}@example.com`);

  // Settings tab: company name, time zone and a logo.
  let portal = await openAccount(page);
  await portal.getByLabel('Company name').fill('Acme Rockets');
  // The searchable pickers: type part of a name, take the first match with Enter.
  await portal.getByRole('combobox', { name: 'Time zone' }).fill('paris');
  await visible(page, portal.getByRole('option', { name: /^Europe\/Paris/ }));
  await portal.getByRole('combobox', { name: 'Time zone' }).press('Enter');
  await portal.getByRole('combobox', { name: 'Currency' }).fill('euro');
  await portal.getByRole('combobox', { name: 'Currency' }).press('Enter');
  await portal.getByLabel('Logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await logoPng(page) });
  await visible(page, portal.getByAltText('New logo preview'));
  await portal.getByRole('button', { name: 'Save' }).click();
  await visible(page, portal.getByRole('status').getByText('Account settings saved'));
  await visible(page, portal.getByAltText('Current logo'));
  await page.screenshot({ path: screenshotPath('admin-account-settings') });

  // Custom login tab, reached with the keyboard: unchanged says so; then turned on with a title.
  await portal.getByRole('tab', { name: 'Settings' }).focus();
  await page.keyboard.press('ArrowRight');
  const login = portal.getByRole('tabpanel', { name: 'Custom login' });
  await visible(page, login);
  await login.getByRole('button', { name: 'Save' }).click();
  await visible(page, login.getByRole('status').getByText('No changes to update'));
  await login.getByLabel('Use a custom login box').check();
  await login.getByLabel('Login title').fill('Welcome to Acme Rockets');
  await login.getByLabel('Brand colour', { exact: true }).fill('#0f766e');
  await login.getByRole('button', { name: 'Save' }).click();
  await visible(page, login.getByRole('status').getByText('Custom login saved'));
  await page.screenshot({ path: screenshotPath('admin-account-custom-login') });

  // What the server now holds, after a reload.
  await page.reload();
  await visible(page, page.getByTestId('signed-in-user'));
  portal = await openAccount(page);
  expect(await portal.getByLabel('Company name').inputValue()).toBe('Acme Rockets');
  expect(await portal.getByRole('combobox', { name: 'Time zone' }).inputValue()).toMatch(/^Europe\/Paris/);
  expect(await portal.getByRole('combobox', { name: 'Currency' }).inputValue()).toBe('EUR · Euro');
  await visible(page, portal.getByAltText('Current logo'));
  await portal.getByRole('tab', { name: 'Custom login' }).click();
  expect(await portal.getByLabel('Login title').inputValue()).toBe('Welcome to Acme Rockets');
  expect(await portal.getByLabel('Use a custom login box').isChecked()).toBe(true);

  // Error path: the server refuses the website; its message sits under the field, edits stay.
  await portal.getByRole('tab', { name: 'Settings' }).click();
  await portal.getByLabel('Address').fill('1 Launch Pad, Toulouse');
  await portal.getByLabel('Website').fill('not a website');
  await portal.getByRole('button', { name: 'Save' }).click();
  const message = portal.getByText('website must be a web address starting with http:// or https://');
  await visible(page, message);
  expect(await portal.getByLabel('Website').getAttribute('aria-invalid')).toBe('true');
  expect(await portal.getByLabel('Address').inputValue()).toBe('1 Launch Pad, Toulouse');
  await page.screenshot({ path: screenshotPath('admin-account-error') });
  // Fixed, the same edits save.
  await portal.getByLabel('Website').fill('https://acme-rockets.example.com');
  await portal.getByRole('button', { name: 'Save' }).click();
  await visible(page, portal.getByRole('status').getByText('Account settings saved'));

  // The public view shows the look, not the address.
  const tenantId = await page.evaluate(() => (globalThis as unknown as { Gatehouse: { getApp(): { getState(): { user: { tenantId: string } } } } }).Gatehouse.getApp().getState().user.tenantId);
  const publicView = await (await fetch(`${server.url}/tenants/resources/account-settings/v1/public?tenantId=${tenantId}`)).json();
  expect(publicView).toMatchObject({ companyName: 'Acme Rockets', hasCustomLogin: true, loginTitle: 'Welcome to Acme Rockets', loginColor: '#0f766e' });
  expect(JSON.stringify(publicView)).not.toContain('Launch Pad');
  // On a phone the pickers stack in one column.
  await page.setViewportSize({ width: 390, height: 844 });
  await visible(page, portal.getByRole('combobox', { name: 'Time zone' }));
  await page.screenshot({ path: screenshotPath('admin-account-narrow') });
  expect(errors.filter((e) => !/400|401|Failed to load resource/.test(e))).toEqual([]);
  await page.close();
});
