/**
 * The admin portal's Connectivity section in Chromium against the real, built server (issue 16),
 * whose worker delivers as in production (main.ts starts it in every serving process):
 * (1) a tenant admin adds a webhook endpoint for `user.invited` (a real HTTP receiver on loopback:
 * the e2e server runs in dev mode, where loopback targets are allowed), copies its secret (shown
 * once), sends a test and sees it in the log; the receiver then fails, an invitation is delivered by
 * the worker and the log shows the failure; the receiver recovers, the admin retries, and the log
 * shows the success. Every delivery the receiver got verifies with `standardwebhooks`.
 * (2) the admin subscribes an email recipient to `user.sign_in_failed`; a failed sign-in into the
 * tenant mails them (the real dev outbox). (3) Hebrew, right to left. (4) Slack: a server configured
 * for the local Slack-compatible server of the server's tests; the admin connects in Slack's consent
 * window, which comes back to the host page (the app's redirect URL), where the portal opens on
 * Connectivity and finishes the connection; the admin picks a channel for `user.invited`, and an
 * invitation is posted there with the bot token. axe on each tab and dialog; screenshots at 1280 and
 * 390 px, light and dark.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectAccessible } from './support/axe';
import { waitForMail } from './support/mailbox';
import { accessToken, rowAction, screenshotsAtBothWidths } from './support/portal';
import { PASSWORD, signUpThroughApi, visible } from './support/journey';
import { freePort, startGatehouse, useBrowserAndServer } from './support/server';
import { SLACK_TEST_CLIENT_ID, SLACK_TEST_CLIENT_SECRET, startTestSlack } from '../server/src/test/slack-server';

const ctx = useBrowserAndServer();

interface Delivery { headers: IncomingHttpHeaders; body: string; answered: number; verified: boolean; type: string | null }

/** A webhook receiver as a customer runs one: answers 200 or 500 as told, and checks each signature with the endpoint's secret. */
function receiver() {
  const deliveries: Delivery[] = [];
  let answer = 200;
  let secret: string | null = null;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      let verified = false;
      try {
        if (secret) {
          new Webhook(secret).verify(body, { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) });
          verified = true;
        }
      } catch {
        verified = false;
      }
      let type: string | null = null;
      try {
        type = (JSON.parse(body) as { type?: string }).type ?? null;
      } catch {
        type = null;
      }
      deliveries.push({ headers: req.headers, body, answered: answer, verified, type });
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'received' : 'receiver is down');
    });
  });
  return {
    deliveries,
    server,
    setAnswer: (status: number) => (answer = status),
    setSecret: (value: string) => (secret = value),
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/gatehouse-events`,
  };
}

const hook = receiver();
beforeAll(async () => {
  await new Promise<void>((resolve) => hook.server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => hook.server.close(resolve));
});

async function openConnectivity(page: Page): Promise<Locator> {
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  if (!(await portal.isVisible())) {
    await page.getByRole('button', { name: 'Admin portal' }).click();
    await visible(page, portal);
  }
  await portal.getByRole('navigation').getByRole('button', { name: 'Connectivity', exact: true }).click();
  await visible(page, portal.getByRole('heading', { name: 'Connectivity', exact: true, level: 2 }));
  return portal;
}

/** Clicks Refresh until the log shows a row matching `row` (the worker delivers within its poll). */
async function refreshUntil(page: Page, portal: Locator, row: RegExp, timeoutMs = 30_000): Promise<Locator> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = portal.getByRole('row', { name: row });
    if ((await found.count()) > 0) return found.first();
    if (Date.now() > deadline) throw new Error(`no log row matching ${row} within ${timeoutMs} ms`);
    await page.waitForTimeout(500);
    await portal.getByRole('button', { name: 'Refresh' }).click();
  }
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let page: Page;
let adminEmail: string;
const stamp = Date.now();

it('adds a webhook endpoint, sends a test, sees a failed invitation delivery in the log and retries it to success; every delivery verifies with standardwebhooks', async () => {
  const { browser, server } = ctx;
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  adminEmail = `hooks-admin+${stamp}@example.com`;
  await signUpThroughApi(page, server.url, adminEmail);

  const portal = await openConnectivity(page);
  expect(await portal.getByRole('tab').allTextContents()).toEqual(['Email', 'Slack', 'SMS', 'Webhooks']);
  await portal.getByRole('tab', { name: 'Webhooks' }).click();
  await visible(page, portal.getByText(/^No endpoints yet\. Use “Add endpoint”/));
  await expectAccessible(page, 'connectivity: webhooks, empty');
  await screenshotsAtBothWidths(page, 'admin-connectivity-webhooks-empty');

  // Add an endpoint for user.invited: the URL and an event are required.
  await portal.getByRole('button', { name: 'Add endpoint' }).click();
  const add = page.getByRole('dialog', { name: 'Add endpoint' });
  await add.getByRole('button', { name: 'Add endpoint' }).click();
  await visible(page, add.getByRole('alert').getByText('Enter the endpoint URL'));
  await visible(page, add.getByRole('alert').getByText('Choose at least one event'));
  await add.getByRole('textbox', { name: 'Endpoint URL' }).fill(hook.url());
  await add.getByRole('textbox', { name: 'Description (optional)' }).fill('CRM sync');
  await add.getByRole('searchbox', { name: 'Filter events' }).fill('invited');
  await add.getByRole('checkbox', { name: /^user\.invited/ }).check();
  await visible(page, add.getByText('1 event chosen'));
  await expectAccessible(page, 'connectivity: add endpoint dialog');
  await screenshotsAtBothWidths(page, 'admin-connectivity-webhooks-add');
  await add.getByRole('button', { name: 'Add endpoint' }).click();

  const created = page.getByRole('dialog', { name: 'Endpoint added' });
  await visible(page, created);
  const secret = await created.getByRole('textbox', { name: 'Signing secret' }).inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
  await created.getByRole('button', { name: 'Copy signing secret' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  hook.setSecret(secret);
  await expectAccessible(page, 'connectivity: secret dialog');
  await screenshotsAtBothWidths(page, 'admin-connectivity-webhooks-secret');
  await created.getByRole('button', { name: 'Done' }).click();
  await created.waitFor({ state: 'detached' });
  await visible(page, portal.getByRole('status').getByText(`Endpoint ${hook.url()} added`));
  expect(await page.getByText(secret).count()).toBe(0);
  const row = portal.getByRole('row', { name: /CRM sync/ });
  await visible(page, row);
  await screenshotsAtBothWidths(page, 'admin-connectivity-webhooks-list');

  // Send a test: the receiver answers 200, so it is a success (seed 001 section 4).
  await rowAction(page, portal, `Actions for ${hook.url()}`, 'Send test');
  const test = page.getByRole('dialog', { name: 'Send a test event' });
  await test.getByRole('button', { name: 'Send test' }).click();
  await visible(page, test.getByText('Delivered.'));
  expect(await test.getByText('Delivered.').locator('xpath=..').textContent()).toMatch(/\b200\b/);
  const tested = await until('the test delivery', () => hook.deliveries.find((d) => d.type === 'user.invited'));
  expect(tested.verified).toBe(true);
  await expectAccessible(page, 'connectivity: test dialog');
  await screenshotsAtBothWidths(page, 'admin-connectivity-webhooks-test');
  await test.getByRole('button', { name: 'Open the delivery log' }).click();
  await visible(page, portal.getByRole('heading', { name: 'Delivery log' }));
  const testRow = await refreshUntil(page, portal, /Succeeded/);
  expect(await testRow.textContent()).toContain('200');

  // The receiver goes down; an invitation raises user.invited and the worker delivers it: the log shows the failure.
  hook.setAnswer(500);
  const token = await accessToken(page);
  const inviteeEmail = `grace+${stamp}@example.com`;
  const invited = await fetch(`${server.url}/identity/resources/users/v1`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ email: inviteeEmail, name: 'Grace Hopper' }) });
  expect(invited.status).toBe(201);
  const failedDelivery = await until('the invitation delivery', () => hook.deliveries.find((d) => d.body.includes(inviteeEmail)));
  expect(failedDelivery.answered).toBe(500);
  expect(failedDelivery.verified).toBe(true);
  const failedRow = await refreshUntil(page, portal, /Failed/);
  expect(await failedRow.textContent()).toContain('500');
  await failedRow.getByRole('button', { name: 'Error, request and response' }).click();
  const exchange = portal.getByRole('region', { name: 'Response' });
  await visible(page, exchange.getByText('receiver is down'));
  await visible(page, portal.getByRole('region', { name: 'Request' }).getByText('webhook-signature'));
  await expectAccessible(page, 'connectivity: delivery log with a failure');
  await screenshotsAtBothWidths(page, 'admin-connectivity-webhooks-log', { fullPage: true });

  // The receiver recovers; the admin retries the failed attempt (202, queued) and the log shows the success.
  hook.setAnswer(200);
  const before = hook.deliveries.length;
  await failedRow.getByRole('button', { name: /^Retry user\.invited of/ }).click();
  await visible(page, portal.getByText('Retry queued: the delivery is sent again in a moment. Refresh to see it.'));
  const redelivered = await until('the retried delivery', () => hook.deliveries.slice(before).find((d) => d.body.includes(inviteeEmail) && d.answered === 200));
  expect(redelivered.verified).toBe(true);
  // The same message (webhook-id) as the failed attempt: a retry, not a new event.
  expect(redelivered.headers['webhook-id']).toBe(failedDelivery.headers['webhook-id']);
  const payload = JSON.parse(redelivered.body) as { type: string; data: { email: string; tenantId: string } };
  expect(payload.type).toBe('user.invited');
  expect(payload.data.email).toBe(inviteeEmail);
  await refreshUntil(page, portal, /user\.invited.*Succeeded.*200/);
  expect(hook.deliveries.every((d) => d.verified)).toBe(true);
  expect(errors).toEqual([]);
}, 180_000);

it('subscribes an email recipient to sign-in failures; a failed sign-in mails them', async () => {
  const { server } = ctx;
  const portal = await openConnectivity(page);
  await portal.getByRole('tab', { name: 'Email' }).click();
  await visible(page, portal.getByText(/^No email notifications yet\./));
  await expectAccessible(page, 'connectivity: email, empty');
  await screenshotsAtBothWidths(page, 'admin-connectivity-email-empty');

  const recipient = `security-desk+${stamp}@example.com`;
  await portal.getByRole('combobox', { name: 'Event' }).selectOption('user.sign_in_failed');
  await portal.getByRole('button', { name: 'Add event' }).click();
  const card = portal.getByRole('region', { name: 'user.sign_in_failed' });
  const recipients = card.getByRole('textbox', { name: 'Recipients (1)' });
  await recipients.fill(`${recipient}, not-an-address`);
  await card.getByRole('button', { name: 'Save' }).click();
  await visible(page, card.getByRole('alert').getByText('This is not an email address: not-an-address'));
  await recipients.fill(recipient);
  await card.getByRole('button', { name: 'Save' }).click();
  await visible(page, portal.getByRole('status').getByText('Notifications for user.sign_in_failed saved'));
  await expectAccessible(page, 'connectivity: email subscription');
  await screenshotsAtBothWidths(page, 'admin-connectivity-email');

  // A wrong password for a member of the tenant: the event mails the recipient.
  const failed = await fetch(`${server.url}/identity/resources/auth/v1/user`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: adminEmail, password: `${PASSWORD} but wrong` }) });
  expect(failed.status).toBe(401);
  const mail = await waitForMail(server.url, recipient, /./, 30_000);
  expect(`${mail.subject}\n${mail.text}`).toMatch(/sign.?in/i);
  expect(mail.text).toContain(adminEmail);

  // The other tabs, as a writer sees them with nothing set up yet.
  await portal.getByRole('tab', { name: 'Slack' }).click();
  await visible(page, portal.getByText('No workspace is connected.'));
  await expectAccessible(page, 'connectivity: Slack');
  await screenshotsAtBothWidths(page, 'admin-connectivity-slack');
  await portal.getByRole('tab', { name: 'SMS' }).click();
  await visible(page, portal.getByText(/^No SMS notifications yet\./));
  await expectAccessible(page, 'connectivity: SMS');
  await screenshotsAtBothWidths(page, 'admin-connectivity-sms');
}, 120_000);

it('reads right to left in Hebrew, at 1280 and 390 px, with the endpoint and its log', async () => {
  const { browser, server } = ctx;
  const context = await browser.newContext({ locale: 'he-IL', viewport: { width: 1280, height: 900 }, storageState: await page.context().storageState() });
  // A session of its own: refresh tokens rotate, so the first page's cookie serves that page only.
  expect((await context.request.post(`${server.url}/identity/resources/auth/v1/user`, { data: { email: adminEmail, password: PASSWORD } })).status()).toBe(200);
  const hebrew = await context.newPage();
  await hebrew.goto(`${server.url}/`);
  await visible(hebrew, hebrew.getByTestId('signed-in-user'));
  await hebrew.getByRole('button', { name: 'Admin portal' }).click();
  const portal = hebrew.getByRole('dialog', { name: 'פורטל הניהול' });
  await visible(hebrew, portal);
  expect(await portal.locator('xpath=..').getAttribute('dir')).toBe('rtl');
  await portal.getByRole('navigation').getByRole('button', { name: 'קישוריות', exact: true }).click();
  await visible(hebrew, portal.getByRole('heading', { name: 'קישוריות', level: 2 }));
  expect(await portal.getByRole('tab').allTextContents()).toEqual(['דוא״ל', 'Slack', 'SMS', 'Webhooks']);
  await portal.getByRole('tab', { name: 'Webhooks' }).click();
  await visible(hebrew, portal.getByRole('row', { name: /CRM sync/ }));
  await expectAccessible(hebrew, 'connectivity: webhooks in Hebrew');
  await screenshotsAtBothWidths(hebrew, 'admin-connectivity-webhooks-hebrew', {
    atWidth: async (width) => expect(await hebrew.evaluate(() => document.documentElement.scrollWidth), `page width at ${width}`).toBeLessThanOrEqual(width),
  });
  await rowAction(hebrew, portal, `פעולות עבור ${hook.url()}`, 'יומן מסירות');
  await visible(hebrew, portal.getByRole('heading', { name: 'יומן מסירות' }));
  await visible(hebrew, portal.getByRole('row', { name: /הצליח/ }));
  await expectAccessible(hebrew, 'connectivity: delivery log in Hebrew');
  await screenshotsAtBothWidths(hebrew, 'admin-connectivity-log-hebrew');
  await context.close();
}, 90_000);

it('connects Slack through the consent window and the return to the host page, then posts an invitation to the chosen channel', async () => {
  const { browser } = ctx;
  const slack = await startTestSlack({ teamName: 'Analytical Engines HQ' });
  // The redirect URL names the host page, so the port is chosen before the server starts.
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const server = await startGatehouse({ PORT: String(port), GATEHOUSE_PUBLIC_URL: url, SLACK_CLIENT_ID: SLACK_TEST_CLIENT_ID, SLACK_CLIENT_SECRET: SLACK_TEST_CLIENT_SECRET, SLACK_API_BASE_URL: slack.apiBaseUrl, SLACK_OAUTH_AUTHORIZE_URL: slack.authorizeUrl, SLACK_REDIRECT_URL: `${url}/` });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const first = await context.newPage();
    const errors: string[] = [];
    first.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await signUpThroughApi(first, url, `slack-admin+${stamp}@example.com`);
    await first.getByRole('button', { name: 'Admin portal' }).click();
    const portal = first.getByRole('dialog', { name: 'Admin portal' });
    await portal.getByRole('navigation').getByRole('button', { name: 'Connectivity', exact: true }).click();
    await portal.getByRole('tab', { name: 'Slack' }).click();
    await visible(first, portal.getByText('No workspace is connected.'));

    // Connect: Slack's consent opens in a window of its own; "Allow" sends it back to the host page with the code.
    const [consent] = await Promise.all([context.waitForEvent('page'), portal.getByRole('button', { name: 'Connect Slack' }).click()]);
    const back = consent.getByRole('dialog', { name: 'Admin portal' });
    // Either the consent window finished and closed itself, or it shows the connection (then the admin closes it).
    await Promise.race([consent.waitForEvent('close'), visible(consent, back.getByText('Connected to Analytical Engines HQ.'), 20_000)]);
    if (!consent.isClosed()) {
      expect(new URL(consent.url()).searchParams.has('code')).toBe(false);
      await consent.close();
    }
    expect(slack.requests.filter((r) => r.method === 'oauth.v2.access')).toHaveLength(1);
    await visible(first, portal.getByText('Connected to Analytical Engines HQ.'));

    // user.invited to #security-alerts.
    const events = portal.getByRole('region', { name: 'Events posted to Slack' });
    await events.getByRole('combobox', { name: 'Event' }).selectOption('user.invited');
    await events.getByRole('button', { name: 'Add event' }).click();
    await events.getByRole('group', { name: 'user.invited' }).getByRole('checkbox', { name: '#security-alerts' }).check();
    await expectAccessible(first, 'connectivity: Slack connected');
    await screenshotsAtBothWidths(first, 'admin-connectivity-slack-connected');
    await events.getByRole('button', { name: 'Save' }).click();
    await visible(first, portal.getByRole('status').getByText('Slack events saved'));

    const token = await accessToken(first);
    const invitee = `ada+${stamp}@example.com`;
    const invited = await fetch(`${url}/identity/resources/users/v1`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ email: invitee, name: 'Ada Byron' }) });
    expect(invited.status).toBe(201);
    const posted = await until('the Slack message', () => slack.posted.find((m) => JSON.stringify(m).includes(invitee)));
    expect(posted.channel).toBe('C02SECURITY');
    expect(slack.tokens.get(posted.token)?.revoked).toBe(false);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
    await server.stop();
    await slack.stop();
  }
}, 120_000);
