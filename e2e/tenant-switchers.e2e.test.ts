/**
 * Tenant switching in Chromium against the built server (issue 14): the login box's switcher after
 * sign-in (authOptions.chooseTenantAfterLogin; the demo page's ?chooseTenant=on), the admin
 * portal header's switcher, and separate tabs per tenant (localStorage
 * FRONTEGG_SEPARATE_TABS_BY_TENANT = 'true'): two tabs of one browser, one switches, the other stays
 * in its own tenant, also after a reload. Screenshots at 390 and 1280 px, light and dark, and Hebrew.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEPARATE_TABS_BY_TENANT_KEY } from '../shared/src/auth/separate-tabs-keys';
import { expectAccessible } from './support/axe';
import { screenshotPath } from './support/browser';
import { linkIn, waitForMail } from './support/mailbox';
import { PASSWORD, signIn, visible } from './support/journey';
import { screenshotsAtBothWidths } from './support/portal';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();
const contexts: BrowserContext[] = [];
afterAll(async () => Promise.all(contexts.map((c) => c.close())));

async function api(method: string, url: string, token: string | null, body?: unknown) {
  const res = await fetch(url, { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Signs up and activates over the API, with a tenant of their own named `companyName`; the access token. */
async function activatedUser(email: string, companyName: string): Promise<string> {
  const server = ctx.server.url;
  expect((await api('POST', `${server}/identity/resources/users/v1/signUp`, null, { email, password: PASSWORD, name: 'Ada Lovelace', companyName })).status).toBe(200);
  const activation = new URL(linkIn(await waitForMail(server, email, /activate/i), '/account/activate'));
  const activated = await api('POST', `${server}/identity/resources/users/v1/activate`, null, { userId: activation.searchParams.get('userId'), token: activation.searchParams.get('token'), password: PASSWORD });
  expect(activated.status).toBe(200);
  // Activated over the API (not the browser that signed up), the tenant is named after the email's
  // domain: its Admin names it through the account settings.
  const token = activated.body.accessToken as string;
  expect((await api('PUT', `${server}/tenants/resources/account-settings/v1`, token, { companyName })).status).toBe(200);
  return token;
}

const tenantOf = (jwt: string): string => (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as { tenantId: string }).tenantId;

/** The tenant of the signed-in user in this tab, and the tenant its access token is for. */
function tabTenant(page: Page): Promise<{ state: string; token: string }> {
  return page.evaluate(() => {
    const user = (globalThis as unknown as { Gatehouse: { getApp(): { getState(): { user: { tenantId: string; accessToken: string } } } } }).Gatehouse.getApp().getState().user;
    return { state: user.tenantId, token: user.accessToken };
  }).then(({ state, token }) => ({ state, token: tenantOf(token) }));
}

const in_ = (tenantId: string) => ({ state: tenantId, token: tenantId });

let email = '';
let own = '';
let joined = '';
beforeAll(async () => {
  // Ada owns Analytical Engines and joins Difference Engines by its owner's invite link.
  const stamp = Date.now();
  const ownerToken = await activatedUser(`owner+${stamp}@example.com`, 'Difference Engines');
  const invite = await api('POST', `${ctx.server.url}/identity/resources/tenants/invites/v1/user`, ownerToken, {});
  expect(invite.status).toBe(201);
  email = `ada+${stamp}@example.com`;
  const adaToken = await activatedUser(email, 'Analytical Engines');
  own = tenantOf(adaToken);
  joined = tenantOf(ownerToken);
  expect((await api('POST', `${ctx.server.url}/identity/resources/tenants/invites/v1/user/join`, adaToken, { token: invite.body.token })).status).toBeLessThan(300);
}, 60_000);

it('the login box offers the tenant choice after sign-in: keyboard, labelled, axe clean; the choice sticks, then the portal header switches back', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${ctx.server.url}/account/login?chooseTenant=on`);
  await signIn(page, email, PASSWORD);

  const choice = page.getByLabel('Account');
  await visible(page, choice);
  expect(await choice.locator('option').allTextContents()).toEqual(expect.arrayContaining(['Analytical Engines', 'Difference Engines']));
  // Focus is on the choice: the keyboard picks the other tenant and Continue is the next stop.
  const start = (await tabTenant(page)).state;
  const other = start === own ? joined : own;
  expect(await page.evaluate(() => document.querySelector('gatehouse-login-box')?.shadowRoot?.activeElement?.tagName)).toBe('SELECT');
  expect(await choice.inputValue()).toBe(start);
  expect(page.url()).toContain('/account/login');
  await expectAccessible(page, 'login box tenant choice');
  await screenshotsAtBothWidths(page, 'login-box-tenant-switcher');

  await choice.selectOption(other);
  await expect.poll(async () => (await tabTenant(page)).token, { timeout: 10_000 }).toBe(other);
  await expect.poll(() => choice.isEnabled()).toBe(true);
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.querySelector('gatehouse-login-box')?.shadowRoot?.activeElement?.textContent)).toBe('Continue');
  await page.keyboard.press('Enter');
  await page.waitForURL(`${ctx.server.url}/`, { timeout: 15_000 });
  await visible(page, page.getByTestId('signed-in-user'));
  expect(await tabTenant(page)).toEqual(in_(other));

  // The portal header's switcher: back to the first tenant, with no reload.
  await page.getByRole('button', { name: 'Admin portal' }).click();
  const header = page.getByRole('dialog', { name: 'Admin portal' }).getByLabel('Account');
  await visible(page, header);
  expect(await header.inputValue()).toBe(other);
  await screenshotsAtBothWidths(page, 'admin-portal-tenant-switcher');
  await header.selectOption(start);
  await expect.poll(async () => (await tabTenant(page)).token, { timeout: 10_000 }).toEqual(start);
  expect(await tabTenant(page)).toEqual(in_(start));
  expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
});

it('the tenant choice in Hebrew reads right to left and fits 390 px', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 390, height: 844 } });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${ctx.server.url}/account/login?chooseTenant=on&locale=he`);
  await visible(page, page.getByRole('heading', { name: 'כניסה' }));
  await page.getByLabel('אימייל').fill(email);
  await page.getByRole('button', { name: 'המשך' }).click();
  await page.getByLabel('סיסמה', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'כניסה' }).click();
  const choice = page.getByLabel('חשבון');
  await visible(page, choice);
  expect(await page.evaluate(() => document.querySelector('gatehouse-login-box')?.shadowRoot?.querySelector('.gh-root')?.getAttribute('dir'))).toBe('rtl');
  // Nothing wider than the phone's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: screenshotPath(`login-box-tenant-switcher-he-390-${scheme}`) });
  }
  await expectAccessible(page, 'login box tenant choice (Hebrew)');
});

it('separate tabs per tenant: one tab switches, the other stays in its own tenant, also after a reload', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  // The host turns the mode on (seed 000 section 9's key), before the loader reads it.
  await context.addInitScript((key) => window.localStorage.setItem(key, 'true'), SEPARATE_TABS_BY_TENANT_KEY);
  const first = await context.newPage();
  await first.goto(`${ctx.server.url}/account/login`);
  await signIn(first, email, PASSWORD);
  await first.waitForURL(`${ctx.server.url}/`, { timeout: 15_000 });
  await visible(first, first.getByTestId('signed-in-user'));
  const a = (await tabTenant(first)).state;
  const b = a === own ? joined : own;
  expect(await tabTenant(first)).toEqual(in_(a));

  // A second tab of the same browser starts in the session's tenant, then switches with the portal header.
  const second = await context.newPage();
  await second.goto(`${ctx.server.url}/`);
  await visible(second, second.getByTestId('signed-in-user'));
  expect(await tabTenant(second)).toEqual(in_(a));
  await second.getByRole('button', { name: 'Admin portal' }).click();
  const header = second.getByRole('dialog', { name: 'Admin portal' }).getByLabel('Account');
  await visible(second, header);
  await header.selectOption(b);
  await expect.poll(async () => (await tabTenant(second)).token, { timeout: 10_000 }).toBe(b);

  // The first tab stays where it was, and a reload (the shared refresh cookie now in b's tenant) brings it back in its own.
  expect(await tabTenant(first)).toEqual(in_(a));
  await first.reload();
  await visible(first, first.getByTestId('signed-in-user'));
  await expect.poll(async () => (await tabTenant(first)).token, { timeout: 10_000 }).toBe(a);
  expect(await tabTenant(first)).toEqual(in_(a));
  // And the tab that switched keeps its choice across its own reload.
  await second.reload();
  await visible(second, second.getByTestId('signed-in-user'));
  await expect.poll(async () => (await tabTenant(second)).token, { timeout: 10_000 }).toBe(b);
  expect(await tabTenant(second)).toEqual(in_(b));
});
