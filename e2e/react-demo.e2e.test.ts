/**
 * The React demo (demo/react on @gatehouse/react, issue 14) in Chromium against the built server:
 * the provider loads the real loader with SRI under the demo CSP; a user signs in through the demo's
 * own login route (joining a second tenant by its invite link), is kept out of a permission-gated
 * page in the tenant where they only read, switches tenant with the header's switcher and is let
 * in, then steps up (enrolling an authenticator on the way) and comes back to the page that asked.
 */
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { appCode } from '../server/src/test/rfc6238';
import { screenshotPath } from './support/browser';
import { linkIn, waitForMail } from './support/mailbox';
import { PASSWORD, signIn, visible } from './support/journey';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();
const pages: Page[] = [];
afterAll(async () => Promise.all(pages.map((p) => p.context().close())));

async function api(method: string, url: string, token: string | null, body?: unknown) {
  const res = await fetch(url, { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Signs up (with a company: a tenant of their own, as its Admin) and activates over the API; the access token. */
async function activatedUser(server: string, email: string, companyName: string): Promise<string> {
  expect((await api('POST', `${server}/identity/resources/users/v1/signUp`, null, { email, password: PASSWORD, name: email.split('+')[0], companyName })).status).toBe(200);
  const activation = new URL(linkIn(await waitForMail(server, email, /activate/i), '/account/activate'));
  const activated = await api('POST', `${server}/identity/resources/users/v1/activate`, null, { userId: activation.searchParams.get('userId'), token: activation.searchParams.get('token'), password: PASSWORD });
  expect(activated.status).toBe(200);
  return activated.body.accessToken as string;
}

const tenantOf = (jwt: string): string => (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as { tenantId: string }).tenantId;

async function shoot(page: Page, name: string) {
  for (const width of [390, 1280]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 860 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: screenshotPath(`react-demo-${name}-${width}-${scheme}`) });
    }
  }
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.emulateMedia({ colorScheme: 'light' });
}

it('signs in, keeps a read-only member out of the gated page, lets them in after a tenant switch, and steps up', async () => {
  const { browser, server } = ctx;
  const stamp = Date.now();
  // Analytical Engines: its owner shares an invite link; Grace owns Hopper Labs and joins Analytical Engines by it (as ReadOnly).
  const ownerToken = await activatedUser(server.url, `owner+${stamp}@example.com`, 'Analytical Engines');
  const invite = await api('POST', `${server.url}/identity/resources/tenants/invites/v1/user`, ownerToken, {});
  expect(invite.status).toBe(201);
  const email = `grace+${stamp}@example.com`;
  const ownTenant = tenantOf(await activatedUser(server.url, email, 'Hopper Labs'));
  const joinedTenant = tenantOf(ownerToken);

  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  pages.push(page);
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const loaderRequests: string[] = [];
  page.on('request', (r) => /\/cdn\/loader\/[^/]+\/[^/]+\.js$/.test(new URL(r.url()).pathname) && loaderRequests.push(r.url()));
  // Who asked for the caller's flags: the loader marks its calls with its source header.
  const flagCalls: Array<string | undefined> = [];
  page.on('request', (r) => new URL(r.url()).pathname === '/flags' && flagCalls.push(r.headers()['x-gatehouse-source']));

  // Signed out: the demo's page sends the user to its own login route, which the loader fills with the login box.
  await page.goto(`${server.url}/react/reports`);
  await page.waitForURL(/\/react\/account\/login\?redirectUrl=/);
  await visible(page, page.getByRole('heading', { name: 'Sign in' }));
  // One loader script, with SRI, though the app renders in StrictMode (mounted twice).
  const tags = await page.locator('script[src*="/cdn/loader/"]').evaluateAll((els) => els.map((e) => [e.getAttribute('integrity'), e.getAttribute('crossorigin')]));
  expect(tags).toHaveLength(1);
  expect(tags[0]![0]).toMatch(/^sha384-/);
  expect(tags[0]![1]).toBe('anonymous');
  await shoot(page, 'login');

  // Signing in (through the invite link) comes back to the page first asked for.
  await page.goto(`${server.url}/react/account/login?invitationToken=${encodeURIComponent(invite.body.token)}`);
  await signIn(page, email, PASSWORD);
  await page.waitForURL(`${server.url}/react/reports`, { timeout: 15_000 });
  await visible(page, page.getByTestId('signed-in-user'));
  expect(await page.getByTestId('signed-in-user').textContent()).toContain(email);

  // The gated page: a ReadOnly member of Analytical Engines may not manage users.
  await visible(page, page.getByRole('heading', { name: 'Reports' }));
  await visible(page, page.getByText('Reports are for members who manage users in this account.'));
  expect(await page.getByTestId('reports').count()).toBe(0);
  await shoot(page, 'reports-denied');

  // Tenant switch: in Hopper Labs Grace is Admin, and the same page lets her in with no reload.
  const switcher = page.getByLabel('Account');
  expect(await switcher.locator('option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value).sort())).toEqual([ownTenant, joinedTenant].sort());
  expect(await switcher.inputValue()).toBe(joinedTenant);
  await switcher.selectOption(ownTenant);
  await visible(page, page.getByTestId('reports'));
  expect(page.url()).toBe(`${server.url}/react/reports`);
  await shoot(page, 'reports-allowed');
  await page.getByRole('link', { name: 'Home' }).click();
  await visible(page, page.getByTestId('greeting'));
  expect(await switcher.inputValue()).toBe(ownTenant);
  expect(await page.getByTestId('greeting').textContent()).toMatch(/^Signed in as .+ in .+\.$/);
  await shoot(page, 'home');

  // Step-up: the settings page asks for a second factor; Grace has none yet, so she enrols one on the way.
  await page.getByRole('link', { name: 'Sensitive settings' }).click();
  await page.getByRole('button', { name: 'Verify it’s you' }).click();
  await page.waitForURL(/\/react\/account\/step-up\?maxAge=300&redirectUrl=%2Freact%2Fsettings/);
  await visible(page, page.getByRole('heading', { name: 'Verify it’s you' }));
  await page.getByRole('button', { name: 'Set up authenticator app' }).click();
  const secret = await page.getByLabel('Secret key', { exact: true }).inputValue();
  // Two codes of neighbouring time steps: the server takes each step once, and one step either side.
  const now = Date.now();
  await page.getByLabel('Code from the app').fill(appCode(secret, now - 30_000));
  await page.getByRole('button', { name: 'Verify and enable' }).click();
  await page.getByLabel('I have saved my recovery codes').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Authentication code').fill(appCode(secret, now));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL(`${server.url}/react/settings`, { timeout: 15_000 });
  await visible(page, page.getByTestId('stepped-up'));
  await shoot(page, 'stepped-up');

  // The pages above after sign-in were one document: still one loader script, fetched once for it.
  expect(await page.locator('script[src*="/cdn/loader/"]').count()).toBe(1);
  expect(new Set(loaderRequests).size).toBe(1);
  // The SDK reads the flags the loader fetched (app.getFeatureFlags): every /flags call was the loader's own.
  expect(flagCalls.length).toBeGreaterThan(1);
  expect(flagCalls.filter((source) => !source)).toEqual([]);
  expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
}, 120_000);
