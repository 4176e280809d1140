/**
 * Preview mode with the network closed (issue 14; seed 000 section 1, seed 001 section 1): the demo
 * host with `previewMode: true` (?preview=on). Every request the browser makes is failed, except the
 * host page itself and the bundle files under /cdn/ (the thing being previewed; docs/preview-mode.md
 * draws that line). The login box at /account/login signs in on the sample data, the portal shows the
 * sample users over 2 pages, the roles Admin, ReadOnly and Support, audits and the security center,
 * and a removal is simulated; a visitor signs up and recovers a password, and the groups, IP and
 * domain restrictions, API tokens and the subscription show (paying refused); no API request is
 * ever attempted.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from './support/browser';
import { visible } from './support/journey';
import { rowAction } from './support/portal';
import { useBrowserAndServer } from './support/server';

const env = useBrowserAndServer();

/** Fails every request but the page and its CDN files; returns the list of those refused. */
async function closeNetwork(page: Page, origin: string): Promise<string[]> {
  const refused: string[] = [];
  await page.route('**/*', (route) => {
    const request = route.request();
    const url = new URL(request.url());
    const own = url.origin === origin;
    if (own && (url.pathname.startsWith('/cdn/') || request.resourceType() === 'document')) return route.continue();
    refused.push(`${request.method()} ${url.href}`);
    return route.abort('failed');
  });
  return refused;
}

type ContextOptions = Parameters<typeof env.browser.newContext>[0];

/**
 * Runs `body` on a new page of a new context whose network is closed (closeNetwork), then closes
 * the context; returns the requests refused.
 */
async function withClosedNetwork(options: ContextOptions, body: (page: Page, refused: string[]) => Promise<void>): Promise<string[]> {
  const context = await env.browser.newContext(options);
  const page = await context.newPage();
  const refused = await closeNetwork(page, env.server.url);
  try {
    await body(page, refused);
  } finally {
    await context.close();
  }
  return refused;
}

it('signs in and runs the admin portal on sample data with every API request failed', async () => {
  const refused = await withClosedNetwork({ viewport: { width: 1280, height: 860 }, locale: 'en-US' }, async (page) => {
      await page.goto(`${env.server.url}/account/login?preview=on`);
      await visible(page, page.getByRole('heading', { name: 'Sign in' }));
      await page.screenshot({ path: screenshotPath('preview-mode-login-1280') });

      await page.getByLabel('Email').fill('visitor@example.com');
      await page.getByRole('button', { name: 'Continue' }).click();
      // Seed 001's mock password limits: 6 to 128 characters.
      await page.getByLabel('Password', { exact: true }).fill('12345');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await visible(page, page.getByText('The password must be 6 to 128 characters long'));
      await page.getByLabel('Password', { exact: true }).fill('123456');
      const started = Date.now();
      await page.getByRole('button', { name: 'Sign in' }).click();
      await visible(page, page.getByTestId('signed-in-user'));
      // Simulated delays: the sign-in (500 ms) and the user (200 ms) take at least their sum.
      expect(Date.now() - started).toBeGreaterThanOrEqual(700);
      expect(await page.getByTestId('signed-in-user').textContent()).toBe('Ada Admin · ada@preview.example');

      await page.getByRole('button', { name: 'Admin portal' }).click();
      const portal = page.getByRole('dialog', { name: 'Admin portal' });
      await visible(page, portal);
      await portal.getByRole('button', { name: 'Users' }).click();
      await visible(page, portal.getByRole('heading', { name: 'Users' }));
      await visible(page, portal.getByRole('row', { name: /Ada Admin/ }));
      expect(await portal.getByText('10 users').count()).toBe(1);
      await page.screenshot({ path: screenshotPath('preview-mode-users-1280') });
      // The second page holds the other five; removing one is simulated and written to the sample audit log.
      await portal.getByRole('button', { name: 'Next' }).click();
      await visible(page, portal.getByRole('row', { name: /Jo Jensen/ }));
      await rowAction(page, portal, 'Actions for Jo Jensen', 'Remove');
      await page.getByRole('dialog', { name: 'Remove user' }).getByRole('button', { name: 'Remove user' }).click();
      await visible(page, portal.getByText('9 users'));
      expect(await portal.getByRole('row', { name: /Jo Jensen/ }).count()).toBe(0);

      await portal.getByRole('button', { name: 'Roles' }).click();
      for (const role of ['Admin', 'ReadOnly', 'Support']) await visible(page, portal.getByRole('row', { name: new RegExp(`^${role}\\b`) }));

      await portal.getByRole('button', { name: 'Audit logs' }).click();
      await visible(page, portal.getByRole('row', { name: /jo@preview\.example was removed/ }));
      await visible(page, portal.getByRole('row', { name: /Failed sign-in/ }).first());

      await portal.getByRole('button', { name: 'Security center' }).click();
      await visible(page, portal.getByText('Require multi-factor authentication for every user'));
      await visible(page, portal.getByText('After 5 failed attempts'));
      await page.screenshot({ path: screenshotPath('preview-mode-security-center-1280') });
  });
  expect(refused).toEqual([]);
}, 90_000);

it('signs up, recovers a password and walks groups, restrictions, API tokens and the subscription on sample data with every API request failed', async () => {
  const refused = await withClosedNetwork({ viewport: { width: 1280, height: 860 }, locale: 'en-US' }, async (page) => {
      // Forgot password: "sent" is simulated (there is no email to follow).
      await page.goto(`${env.server.url}/account/login?preview=on`);
      await visible(page, page.getByRole('heading', { name: 'Sign in' }));
      await page.getByLabel('Email').fill('visitor@example.com');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await visible(page, page.getByRole('heading', { name: 'Forgot password?' }));
      await page.getByLabel('Email').fill('visitor@example.com');
      await page.getByRole('button', { name: 'Reset password' }).click();
      await visible(page, page.getByRole('heading', { name: 'Check your email' }));

      // Sign-up, opened directly: a simulated account, signed in at once.
      await page.goto(`${env.server.url}/account/sign-up?preview=on`);
      await visible(page, page.getByRole('heading', { name: 'Create your account' }));
      await page.getByLabel('Name', { exact: true }).fill('Nia Newcomer');
      await page.getByLabel('Company name').fill('Newcomer Ltd');
      await page.getByLabel('Email').fill('nia@newcomer.example');
      await page.getByLabel('Password', { exact: true }).fill('123456');
      await page.screenshot({ path: screenshotPath('preview-mode-sign-up-1280') });
      await page.getByRole('button', { name: 'Sign up' }).click();
      await visible(page, page.getByTestId('signed-in-user'));
      expect(await page.getByTestId('signed-in-user').textContent()).toBe('Nia Newcomer · nia@newcomer.example');

      await page.getByRole('button', { name: 'Admin portal' }).click();
      const portal = page.getByRole('dialog', { name: 'Admin portal' });
      await visible(page, portal);
      await portal.getByRole('button', { name: 'Groups' }).click();
      for (const group of ['Engineering', 'Managers']) await visible(page, portal.getByRole('row', { name: new RegExp(`^${group}\\b`) }));
      await page.screenshot({ path: screenshotPath('preview-mode-groups-1280') });

      await portal.getByRole('button', { name: 'Security', exact: true }).click();
      await portal.getByRole('tab', { name: 'IP restrictions' }).click();
      await visible(page, portal.getByText('198.51.100.0/24'));
      await portal.getByRole('tab', { name: 'Domain restrictions' }).click();
      await visible(page, portal.getByText('preview.example', { exact: true }));

      await portal.getByRole('button', { name: 'API tokens', exact: true }).click();
      await visible(page, portal.getByText('CI deploys'));

      // The Subscription section shows the plans; paying is refused with the preview's sentence.
      await portal.getByRole('button', { name: 'Subscription' }).click();
      await visible(page, portal.getByRole('button', { name: 'Change to Free' }));
      await page.screenshot({ path: screenshotPath('preview-mode-subscription-1280') });
      await portal.getByRole('button', { name: 'Change to Free' }).click();
      const checkout = page.getByRole('dialog', { name: 'Checkout' });
      await visible(page, checkout.getByText('Paying is not available in preview mode'));
      await page.screenshot({ path: screenshotPath('preview-mode-checkout-1280') });
  });
  expect(refused).toEqual([]);
}, 90_000);

it('shows the preview login box on a phone in dark mode with the network closed', async () => {
  await withClosedNetwork({ viewport: { width: 390, height: 844 }, colorScheme: 'dark', locale: 'en-US' }, async (page, refused) => {
      await page.goto(`${env.server.url}/account/login?preview=on&theme=dark`);
      await visible(page, page.getByRole('heading', { name: 'Sign in' }));
      await page.screenshot({ path: screenshotPath('preview-mode-login-390-dark') });
      expect(refused).toEqual([]);
      // The net is really closed: an API call the page makes itself is refused (and recorded).
      expect(await page.evaluate(() => fetch('/flags').then(() => 'answered', () => 'failed'))).toBe('failed');
      expect(refused).toEqual([`GET ${env.server.url}/flags`]);
  });
});

it('shows the sample groups and IP restrictions on a phone in dark mode, signed in from the start, with the network closed', async () => {
  const refused = await withClosedNetwork({ viewport: { width: 390, height: 844 }, colorScheme: 'dark', locale: 'en-US' }, async (page) => {
      await page.goto(`${env.server.url}/?preview=on&theme=dark`);
      await visible(page, page.getByTestId('signed-in-user'));
      await page.getByRole('button', { name: 'Admin portal' }).click();
      const portal = page.getByRole('dialog', { name: 'Admin portal' });
      await visible(page, portal);
      // Narrow: the compact section picker; tables become cards.
      const picker = portal.getByLabel('Section', { exact: true });
      await picker.selectOption({ label: 'Groups' });
      await visible(page, portal.getByText('Engineering', { exact: true }));
      await page.screenshot({ path: screenshotPath('preview-mode-groups-390-dark') });
      await picker.selectOption({ label: 'Security' });
      await portal.getByRole('tab', { name: 'IP restrictions' }).click();
      await visible(page, portal.getByText('198.51.100.0/24'));
      await page.screenshot({ path: screenshotPath('preview-mode-ip-restrictions-390-dark') });
  });
  expect(refused).toEqual([]);
}, 60_000);
