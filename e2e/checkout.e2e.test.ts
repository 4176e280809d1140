/**
 * The checkout bundle in Chromium against the built server and a real Stripe emulator (localstripe,
 * issue 13). An admin who signed up is promoted with the CLI and, as the vendor's operator,
 * configures billing with localstripe's keys and creates Premium (10000 minor units, usd). Chromium
 * takes Stripe.js (https://js.stripe.com/...) from localstripe's stand-in, whose card Element is
 * plain inputs. The tenant admin opens `app.showCheckoutDialog({ planId })`, enters the test card
 * 4242 4242 4242 4242, confirms, and the subscription becomes active: in the dialog, in the billing
 * API and in Stripe's (the emulator's) own records. Nothing of the checkout loads before it is
 * shown; hiding it leaves nothing behind. Axe-clean; 1280 and 390 px, light and dark; Hebrew.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BillingPaths } from '@gatehouse/shared/admin-paths';
import { BILLING_CHANGED_EVENT } from '@gatehouse/shared/constants';
import { OperatorPaths } from '@gatehouse/shared/wire';
import { LOCALSTRIPE_PUBLISHABLE_KEY, LOCALSTRIPE_SECRET_KEY, localstripeMissing, peersRequired, startLocalstripe, type Localstripe } from '../server/src/test/localstripe';
import { expectAccessible } from './support/axe';
import { signUpThroughApi, visible } from './support/journey';
import { accessToken, screenshotsAtBothWidths } from './support/portal';
import { closeContexts, startGatehouse, workerBrowser, type RunningServer, promoteSuperUser } from './support/server';

const skip = localstripeMissing() !== null && !peersRequired();
const WEBHOOK_SECRET = 'whsec_e2e_checkout';
const ctx = {} as { browser: Browser; server: RunningServer; stripe: Localstripe };

beforeAll(async () => {
  if (skip) return;
  ctx.stripe = await startLocalstripe();
  const [browser, server] = await Promise.all([workerBrowser(), startGatehouse({ STRIPE_API_URL: ctx.stripe.url })]);
  ctx.browser = browser;
  ctx.server = server;
  // Stripe's events reach the server as they would from Stripe, signed with the configured secret.
  await ctx.stripe.registerWebhook('checkout-e2e', `${server.url}${BillingPaths.stripeWebhook}`, WEBHOOK_SECRET);
}, 90_000);
afterAll(async () => {
  await closeContexts(ctx.browser);
  await ctx.server?.stop();
  await ctx.stripe?.stop();
});

async function call<T = unknown>(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${ctx.server.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/**
 * Chromium takes everything of https://js.stripe.com from the emulator: the script @stripe/stripe-js
 * injects (https://js.stripe.com/<train>/stripe.js) is its Stripe.js stand-in, and the stand-in,
 * which derives its API base from its own address, calls https://js.stripe.com/v1/..., which goes
 * to the emulator's /v1/....
 */
async function stripeFromEmulator(context: BrowserContext): Promise<string[]> {
  const seen: string[] = [];
  await context.route('https://js.stripe.com/**', async (route) => {
    const url = new URL(route.request().url());
    seen.push(url.pathname);
    const target = url.pathname.startsWith('/v1/') ? `${ctx.stripe.url}${url.pathname}${url.search}` : ctx.stripe.stripeJsUrl;
    const response = await route.fetch({ url: target });
    await route.fulfill({ response });
  });
  return seen;
}

function showCheckout(page: Page, planId: string): Promise<void> {
  return page.evaluate((id) => (globalThis as unknown as { Gatehouse: { getApp(): { showCheckoutDialog(o: { planId: string }): Promise<void> } } }).Gatehouse.getApp().showCheckoutDialog({ planId: id }), planId);
}

/** What the checkout left in the page: its element, a light-DOM card host, a listener's trace. */
function leftovers(page: Page) {
  return page.evaluate(() => ({ element: document.querySelectorAll('gatehouse-checkout').length, cardHosts: document.querySelectorAll('.gh-co-card-host').length }));
}

it.skipIf(skip)('a tenant admin picks Premium, enters a test card in the checkout, and the subscription becomes active', { timeout: 300_000 }, async () => {
  const { browser, server } = ctx;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const stripeRequests = await stripeFromEmulator(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const checkoutFiles: string[] = [];
  page.on('request', (r) => r.url().includes('/cdn/checkout/') && checkoutFiles.push(r.url()));

  const email = `checkout+${Date.now()}@example.com`;
  await signUpThroughApi(page, server.url, email);
  await promoteSuperUser(ctx.server, email);
  const token = await accessToken(page);
  const configured = await call(token, 'PUT', OperatorPaths.billingConfiguration, {
    secretKey: LOCALSTRIPE_SECRET_KEY, publishableKey: LOCALSTRIPE_PUBLISHABLE_KEY, webhookSecret: WEBHOOK_SECRET,
    allowPlanDowngrade: true, allowPlanCancellation: true, trialEndOption: 'change_to_default', defaultPlanId: null,
  });
  expect(configured.status, JSON.stringify(configured.body)).toBe(200);
  const premium = await call<{ id: string }>(token, 'POST', OperatorPaths.plans, { name: 'Premium', description: 'For growing teams', slug: 'premium', price: { amount: 10000, currency: 'usd' } });
  expect(premium.status, JSON.stringify(premium.body)).toBe(201);
  const before = await call<unknown[]>(token, 'GET', BillingPaths.managedSubscriptions);
  expect(before.body).toEqual([]);

  // Signed in, page loaded: not a byte of the checkout, nor of Stripe, yet.
  expect(checkoutFiles).toEqual([]);
  expect(stripeRequests).toEqual([]);

  await page.evaluate((name) => {
    const w = window as unknown as { billingChanged: unknown[] };
    w.billingChanged = [];
    window.addEventListener(name, (event) => w.billingChanged.push((event as CustomEvent).detail));
  }, BILLING_CHANGED_EVENT);
  await showCheckout(page, premium.body.id);
  const dialog = page.getByRole('dialog', { name: 'Checkout' });
  await visible(page, dialog.getByText('Premium', { exact: true }));
  await visible(page, dialog.getByText('$100.00 per month'));
  expect(checkoutFiles.length).toBeGreaterThan(0);
  // The card field: the emulator's stand-in inputs, in the custom element's light DOM, slotted into the dialog.
  const number = page.getByPlaceholder('number');
  await visible(page, number);
  expect(await number.evaluate((input) => input.closest('gatehouse-checkout') !== null && input.getRootNode() === document)).toBe(true);
  expect(stripeRequests.some((path) => path.endsWith('/stripe.js'))).toBe(true);

  // A card the bank declines: Stripe's message under the card field, nothing subscribed.
  await number.fill('4000000000000002');
  await page.getByPlaceholder('exp_month').fill('12');
  await page.getByPlaceholder('exp_year').fill('34');
  await page.getByPlaceholder('cvc').fill('123');
  await page.getByPlaceholder('postal_code').fill('10001');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  const cardError = dialog.getByRole('alert');
  await visible(page, cardError.getByText('Your card was declined.'));
  expect(await dialog.getByRole('group', { name: 'Card' }).getAttribute('aria-describedby')).toBe(await cardError.getAttribute('id'));
  expect((await call<unknown[]>(token, 'GET', BillingPaths.managedSubscriptions)).body).toEqual([]);
  await expectAccessible(page, 'checkout card declined');
  await screenshotsAtBothWidths(page, 'checkout-declined');

  // The test card.
  await number.fill('4242424242424242');
  await expectAccessible(page, 'checkout with card');
  await screenshotsAtBothWidths(page, 'checkout');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  const status = dialog.getByRole('status');
  await visible(page, status.getByText('Subscription confirmed'), 30_000);
  await visible(page, status.getByText('You are on Premium. Status: active.'));
  // The card was confirmed on a SetupIntent at the emulator, through its Stripe.js.
  expect(stripeRequests.some((path) => /^\/v1\/setup_intents\/seti_\w+\/confirm$/.test(path))).toBe(true);
  await expectAccessible(page, 'checkout confirmed');
  await screenshotsAtBothWidths(page, 'checkout-confirmed');

  // The billing API agrees, and so does Stripe's own record at the emulator.
  const after = await call<Array<{ planId: string; status: string; externalId: string | null; paymentMethodId: string | null }>>(token, 'GET', BillingPaths.managedSubscriptions);
  expect(after.body).toHaveLength(1);
  expect(after.body[0]).toMatchObject({ planId: premium.body.id, status: 'active' });
  const methods = await call<Array<{ last4: string | null; brand: string | null }>>(token, 'GET', BillingPaths.paymentMethods);
  expect(methods.body[0]).toMatchObject({ last4: '4242' });
  const atStripe = await fetch(`${ctx.stripe.url}/v1/subscriptions/${after.body[0]!.externalId}`, { headers: { authorization: `Bearer ${LOCALSTRIPE_SECRET_KEY}` } });
  expect(((await atStripe.json()) as { status: string }).status).toBe('active');
  expect(await page.evaluate(() => (window as unknown as { billingChanged: unknown[] }).billingChanged)).toContainEqual({ planId: premium.body.id });

  // Done hides it: no element, no card host left; the event went out once more as it closed.
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect.poll(() => leftovers(page)).toEqual({ element: 0, cardHosts: 0 });
  expect(await page.evaluate(() => (window as unknown as { billingChanged: unknown[] }).billingChanged)).toHaveLength(2);

  // Shown again (now updating the managed subscription): Escape closes it, from the card field too.
  await showCheckout(page, premium.body.id);
  await visible(page, page.getByPlaceholder('number').or(dialog.getByRole('checkbox')));
  await expect.poll(() => dialog.evaluate((node) => node.contains((node.getRootNode() as ShadowRoot).activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect.poll(() => leftovers(page)).toEqual({ element: 0, cardHosts: 0 });

  // The one error expected: the browser's log of the declined card's 402 from Stripe.
  expect(errors.filter((e) => !/localstripe|status of 402 \(Payment Required\)/i.test(e))).toEqual([]);
  await context.close();
});

it.skipIf(skip)('speaks Hebrew right to left, and says the seed\'s error for an unknown plan', { timeout: 120_000 }, async () => {
  const { browser, server } = ctx;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await stripeFromEmulator(context);
  const page = await context.newPage();
  await signUpThroughApi(page, server.url, `checkout-he+${Date.now()}@example.com`);
  await page.goto(`${server.url}/?locale=he`);
  await visible(page, page.getByTestId('signed-in-user'));
  await showCheckout(page, 'no-such-plan');
  const dialog = page.getByRole('dialog', { name: 'תשלום' });
  await visible(page, dialog.getByRole('alert'));
  expect(await dialog.evaluate((node) => node.closest('[dir]')?.getAttribute('dir'))).toBe('rtl');
  await expectAccessible(page, 'checkout hebrew error');
  await screenshotsAtBothWidths(page, 'checkout-he-error');
  await dialog.getByRole('button', { name: 'סגירה' }).first().click();
  await expect.poll(() => leftovers(page)).toEqual({ element: 0, cardHosts: 0 });
  await context.close();
});

it.skipIf(skip)("opens from the admin portal's plan card over the portal; Escape closes only the checkout and focus goes back to the card", { timeout: 180_000 }, async () => {
  const { browser, server } = ctx;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await stripeFromEmulator(context);
  const page = await context.newPage();
  const email = `checkout-portal+${Date.now()}@example.com`;
  await signUpThroughApi(page, server.url, email);
  await promoteSuperUser(ctx.server, email);
  const token = await accessToken(page);
  const configured = await call(token, 'PUT', OperatorPaths.billingConfiguration, {
    secretKey: LOCALSTRIPE_SECRET_KEY, publishableKey: LOCALSTRIPE_PUBLISHABLE_KEY, webhookSecret: WEBHOOK_SECRET,
    allowPlanDowngrade: true, allowPlanCancellation: true, trialEndOption: 'change_to_default', defaultPlanId: null,
  });
  expect(configured.status).toBe(200);
  const team = await call<{ id: string }>(token, 'POST', OperatorPaths.plans, { name: 'Team', slug: `team-${Date.now()}`, price: { amount: 2500, currency: 'usd' }, trialDays: 14 });
  expect(team.status, JSON.stringify(team.body)).toBe(201);

  // The page as the admin opens it once billing is set up.
  await page.reload();
  await visible(page, page.getByTestId('signed-in-user'));
  await page.getByRole('button', { name: 'Admin portal' }).click();
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  await visible(page, portal);
  await portal.getByRole('navigation').getByRole('button', { name: 'Subscription', exact: true }).click();
  const choose = portal.getByRole('button', { name: 'Choose Team' });
  await visible(page, choose);
  await choose.click();

  const checkout = page.getByRole('dialog', { name: 'Checkout' });
  await visible(page, checkout.getByText('$25.00 per month'));
  await visible(page, checkout.getByText('14 days free trial'));
  await visible(page, page.getByPlaceholder('number'));
  // Tab stays in the checkout: the portal below does not take focus back.
  const focusInCheckout = () => page.evaluate(() => document.activeElement?.closest('gatehouse-checkout') !== null || document.activeElement?.tagName === 'GATEHOUSE-CHECKOUT');
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Tab');
    expect(await focusInCheckout()).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect.poll(() => leftovers(page)).toEqual({ element: 0, cardHosts: 0 });
  await visible(page, portal);
  await expect.poll(() => choose.evaluate((button) => (button.getRootNode() as ShadowRoot).activeElement === button)).toBe(true);
  await context.close();
});

