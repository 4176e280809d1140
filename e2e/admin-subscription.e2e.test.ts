/**
 * The admin portal's Subscription and Usage sections in Chromium against the built server and a
 * real Stripe emulator (localstripe, issue 13): an admin who signed up is promoted with the CLI, so
 * as the vendor's operator configures billing (localstripe's keys, downgrades not allowed,
 * cancellation allowed) and creates the plans Premium (10000 minor units, usd) and Free (0); the
 * tenant then subscribes to Premium through the billing API with a card made at localstripe. In
 * the portal: an invoice downloads as a real PDF; the subscription is cancelled at period end and
 * renewed; the Free card says why the downgrade is refused, and the API refuses it too. Usage shows
 * the seats. Axe-clean; 1280 and 390 px, light and dark; Hebrew right to left.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BillingErrorCodes, BillingPaths } from '@gatehouse/shared/admin-paths';
import { OperatorPaths } from '@gatehouse/shared/wire';
import { LOCALSTRIPE_PUBLISHABLE_KEY, LOCALSTRIPE_SECRET_KEY, localstripeMissing, peersRequired, startLocalstripe, type Localstripe } from '../server/src/test/localstripe';
import { expectAccessible } from './support/axe';
import { PASSWORD, signUpThroughApi, visible } from './support/journey';
import { accessToken, screenshotsAtBothWidths } from './support/portal';
import { closeContexts, repoRoot, startGatehouse, workerBrowser, type RunningServer, promoteSuperUser } from './support/server';

const missing = localstripeMissing();
const skip = missing !== null && !peersRequired();
const ctx = {} as { browser: Browser; server: RunningServer; stripe: Localstripe };

beforeAll(async () => {
  if (skip) return;
  ctx.stripe = await startLocalstripe();
  const [browser, server] = await Promise.all([workerBrowser(), startGatehouse({ STRIPE_API_URL: ctx.stripe.url })]);
  ctx.browser = browser;
  ctx.server = server;
}, 90_000);
afterAll(async () => {
  await closeContexts(ctx.browser);
  await ctx.server?.stop();
  await ctx.stripe?.stop();
});

/** A call to the server as the signed-in user; returns the status and the parsed body. */
async function call<T = unknown>(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${ctx.server.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** A card payment method made at the emulator (the checkout's e2e makes one through Stripe.js; here the card only has to exist). */
async function testCard(): Promise<string> {
  const res = await fetch(`${ctx.stripe.url}/v1/payment_methods`, {
    method: 'POST',
    // localstripe lets only a secret key create payment methods over its REST API.
    headers: { authorization: `Bearer ${LOCALSTRIPE_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[number]': '4242424242424242', 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/** Scrolls the portal's content pane back to the top (the screenshots show a section from its heading). */
const toTop = (page: Page) => page.locator('.gh-ap-content').evaluate((pane) => pane.scrollTo(0, 0));

/** Opens the portal (the host page's button is the demo's, in English) and its section `name`. */
async function openSection(page: Page, name: string, portalName = 'Admin portal'): Promise<Locator> {
  const portal = page.getByRole('dialog', { name: portalName });
  if (!(await portal.isVisible())) {
    await page.getByRole('button', { name: 'Admin portal' }).click();
    await visible(page, portal);
  }
  await portal.getByRole('navigation').getByRole('button', { name, exact: true }).click();
  await visible(page, portal.getByRole('heading', { name, exact: true, level: 2 }));
  return portal;
}

it.skipIf(skip)('downloads an invoice, cancels and renews, and shows why a downgrade is refused (which the API refuses too)', { timeout: 300_000 }, async () => {
  const { browser, server } = ctx;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const email = `billing+${Date.now()}@example.com`;
  await signUpThroughApi(page, server.url, email);
  await promoteSuperUser(ctx.server, email);
  const token = await accessToken(page);

  // The operator configures Stripe (localstripe's keys) and the seed's plans.
  const configured = await call(token, 'PUT', OperatorPaths.billingConfiguration, {
    secretKey: LOCALSTRIPE_SECRET_KEY, publishableKey: LOCALSTRIPE_PUBLISHABLE_KEY, webhookSecret: 'whsec_e2e_subscription',
    allowPlanDowngrade: false, allowPlanCancellation: true, trialEndOption: 'change_to_default', defaultPlanId: null,
  });
  expect(configured.status, JSON.stringify(configured.body)).toBe(200);
  const premium = await call<{ id: string }>(token, 'POST', OperatorPaths.plans, { name: 'Premium', description: 'For growing teams', slug: 'premium', price: { amount: 10000, currency: 'usd' }, seatLimit: 20 });
  const free = await call<{ id: string }>(token, 'POST', OperatorPaths.plans, { name: 'Free', description: 'To get started', slug: 'free', price: { amount: 0, currency: 'usd' }, seatLimit: 3 });
  expect([premium.status, free.status]).toEqual([201, 201]);

  // The tenant subscribes to Premium with a test card.
  const subscribed = await call<{ id: string; status: string }>(token, 'POST', BillingPaths.stripeSubscriptions, { planId: premium.body.id, paymentMethodId: await testCard() });
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBeLessThan(300);
  expect(subscribed.body.status).toBe('active');
  const subscriptionId = subscribed.body.id;

  // The Subscription section: Premium, active, its card and its invoice.
  await page.reload();
  await visible(page, page.getByTestId('signed-in-user'));
  const portal = await openSection(page, 'Subscription');
  const current = portal.getByRole('group', { name: 'Current plan' });
  await visible(page, current.getByText('Premium', { exact: true }));
  await visible(page, current.getByText('Active', { exact: true }));
  await visible(page, current.getByText('$100.00 / month'));
  await visible(page, portal.getByText('Visa •••• 4242'));
  const invoiceRow = portal.getByRole('table', { name: 'Invoices of this account, newest first' }).getByRole('row').nth(1);
  await visible(page, invoiceRow.getByText('$100.00'));

  // Looked at before anything is done (no toast over it).
  await expectAccessible(page, 'admin subscription');
  await toTop(page);
  await screenshotsAtBothWidths(page, 'admin-subscription', { atWidth: () => toTop(page) });

  // An invoice downloads: a real PDF, named after the invoice.
  const downloading = page.waitForEvent('download');
  await invoiceRow.getByRole('button', { name: /^Download invoice / }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^invoice-[\w.-]+\.pdf$/);
  const pdf = readFileSync((await download.path())!);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.length).toBeGreaterThan(400);

  // A downgrade the vendor does not allow: the Free card says why, and the API refuses it.
  const freeCard = portal.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Free', exact: true }) });
  const toFree = freeCard.getByRole('button', { name: 'Change to Free' });
  expect(await toFree.isDisabled()).toBe(true);
  await visible(page, freeCard.getByText('Your provider does not allow moving to a cheaper plan.'));
  const downgrade = await call<{ errorCode?: string }>(token, 'PUT', BillingPaths.managedSubscription.replace('{id}', subscriptionId), { planId: free.body.id });
  expect(downgrade.status).toBe(403);
  expect(downgrade.body.errorCode).toBe(BillingErrorCodes.downgradeNotAllowed);

  // Cancel at period end, then renew.
  await current.getByRole('button', { name: 'Cancel subscription' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel the subscription?' });
  await visible(page, dialog);
  await page.screenshot({ path: join(repoRoot, 'e2e/screenshots/admin-subscription-cancel-dialog.png') });
  await dialog.getByRole('button', { name: 'Cancel at period end' }).click();
  await dialog.waitFor({ state: 'detached' });
  await visible(page, current.getByText('Cancellation pending'));
  await visible(page, current.getByText('Ends on'));
  expect(await current.getByRole('button', { name: 'Cancel subscription' }).isDisabled()).toBe(true);
  let listed = await call<Array<{ id: string; cancellation: { policy: string } | null }>>(token, 'GET', BillingPaths.managedSubscriptions);
  expect(listed.body[0]).toMatchObject({ id: subscriptionId, cancellation: { policy: 'atPeriodEnd' } });
  await screenshotsAtBothWidths(page, 'admin-subscription-pending', { atWidth: () => toTop(page) });

  await current.getByRole('button', { name: 'Renew subscription' }).click();
  await current.getByText('Cancellation pending').waitFor({ state: 'detached' });
  await visible(page, current.getByText('Renews on'));
  listed = await call(token, 'GET', BillingPaths.managedSubscriptions);
  expect(listed.body[0]).toMatchObject({ id: subscriptionId, cancellation: null });

  // Usage: the seats used of Premium's 20.
  const usagePortal = await openSection(page, 'Usage');
  const seats = usagePortal.getByRole('meter', { name: 'Seats' });
  await visible(page, seats);
  expect(await seats.getAttribute('aria-valuemax')).toBe('20');
  expect(await seats.getAttribute('aria-valuenow')).toBe('1');
  await expectAccessible(page, 'admin usage');
  await screenshotsAtBothWidths(page, 'admin-usage');

  expect(errors).toEqual([]);

  // In Hebrew the section reads right to left, in its own words.
  const hebrew = await browser.newContext({ locale: 'he-IL', viewport: { width: 1280, height: 900 }, storageState: await context.storageState() });
  await context.close();
  // A session of its own: refresh tokens rotate, so the saved cookie serves one context only.
  expect((await hebrew.request.post(`${server.url}/identity/resources/auth/v1/user`, { data: { email, password: PASSWORD } })).status()).toBe(200);
  const rtl = await hebrew.newPage();
  await rtl.goto(`${server.url}/`);
  await visible(rtl, rtl.getByTestId('signed-in-user'));
  const portalHe = await openSection(rtl, 'מינוי', 'פורטל הניהול');
  await visible(rtl, portalHe.getByRole('group', { name: 'התוכנית הנוכחית' }).getByText('פעיל', { exact: true }));
  expect(await rtl.locator('.gh-ap').first().getAttribute('dir')).toBe('rtl');
  await expectAccessible(rtl, 'admin subscription hebrew');
  await screenshotsAtBothWidths(rtl, 'admin-subscription-he', { atWidth: () => toTop(rtl) });
  await hebrew.close();
});
