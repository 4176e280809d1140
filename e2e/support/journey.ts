/** Steps of the newcomer journey, shared by the same-origin and second-origin runs. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { ACTIVATION_REDIRECT_DELAY_MS } from '@gatehouse/shared/constants';
import { ApiPaths } from '@gatehouse/shared/wire';
import { SESSION_HINT_KEY } from '../../shared/src/auth/session-hint';
import { linkIn, waitForMail } from './mailbox';
import { screenshotPath } from './browser';

export const PASSWORD = 'correct horse battery staple 42';

export async function visible(page: Page, selector: ReturnType<Page['locator']>, timeout = 15_000): Promise<void> {
  await selector.first().waitFor({ state: 'visible', timeout });
}

const clocked = new WeakSet<object>();

/**
 * Puts the page's browser context on Playwright's clock (once per context): time still flows on
 * its own, and `passDelay` can let a seed delay elapse at once instead of waiting it out.
 */
export async function installClock(page: Page): Promise<void> {
  if (clocked.has(page.context())) return;
  clocked.add(page.context());
  await page.clock.install();
}

/**
 * Lets `ms` of the page's time pass at once: its timers due by then fire, as they would have after
 * a real wait (the page must have loaded under `installClock`).
 */
export async function passDelay(page: Page, ms: number): Promise<void> {
  await page.clock.fastForward(ms);
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await visible(page, page.getByRole('heading', { name: 'Sign in' }));
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Sign up from the host's home page, activate from the mailbox, sign out, sign in, reload. */
export async function signUpAndActivate(page: Page, hostUrl: string, serverUrl: string, email: string, shot = ''): Promise<void> {
  await page.goto(`${hostUrl}/`);
  await page.waitForURL(/\/account\/login\?redirectUrl=/);
  await visible(page, page.getByRole('heading', { name: 'Sign in' }));
  if (shot) await page.screenshot({ path: screenshotPath(`${shot}-login`) });
  await page.getByRole('link', { name: /sign up/i }).click();
  await visible(page, page.getByRole('heading', { name: 'Create your account' }));
  await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
  await page.getByLabel('Company name').fill('Analytical Engines');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  if (shot) await page.screenshot({ path: screenshotPath(`${shot}-signup`) });
  await page.getByRole('button', { name: 'Sign up' }).click();
  await visible(page, page.getByRole('heading', { name: 'Check your email' }));
  expect(await page.getByText(email).count()).toBeGreaterThan(0);

  const mail = await waitForMail(serverUrl, email, /activate/i);
  const link = linkIn(mail, '/account/activate');
  expect(new URL(link).origin).toBe(new URL(hostUrl).origin);
  await installClock(page);
  await page.goto(link);
  await visible(page, page.getByText(/activated/i));
  if (shot) await page.screenshot({ path: screenshotPath(`${shot}-activated`) });
  // Activation signs the user in and navigates by itself after the seed's 5 s delay: the page
  // stays until its clock has passed the delay, then goes on with no click.
  expect(page.url()).toContain('/account/activate');
  await passDelay(page, ACTIVATION_REDIRECT_DELAY_MS);
  await page.waitForURL(`${hostUrl}/`, { timeout: 15_000 });
  await visible(page, page.getByTestId('signed-in-user'));
  expect(await page.getByTestId('signed-in-user').textContent()).toContain(email);
}

/**
 * The state `signUpAndActivate` ends in (the host's home page, signed in as the owner of a new
 * tenant), reached through the HTTP API instead of the login box's screens, for files whose subject
 * comes after the sign-up: the sign-up's four page loads and its wait on the activation cost more
 * than the test's own steps in several admin files. The calls go through the page's own context,
 * as the login box's would: the sign-up's browser-binding cookie lets the emailed link activate
 * without the password again, and the activation's session cookie signs the page in. The journey
 * through the screens stays tested where it is the subject (newcomer-journey, activation,
 * login-box-flows and the accessibility files).
 */
export async function signUpThroughApi(page: Page, serverUrl: string, email: string): Promise<void> {
  const request = page.context().request;
  const signUp = await request.post(`${serverUrl}${ApiPaths.signUp}`, { data: { email, password: PASSWORD, name: 'Ada Lovelace', companyName: 'Analytical Engines' } });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const link = new URL(linkIn(await waitForMail(serverUrl, email, /activate/i), '/account/activate'));
  const activated = await request.post(`${serverUrl}${ApiPaths.activate}`, { data: { userId: link.searchParams.get('userId'), token: link.searchParams.get('token') } });
  expect(activated.ok(), await activated.text()).toBe(true);
  // What the login box leaves in the host page's storage with a new session: the mark that lets
  // the loader ask for the session on the next load (shared/src/auth/session-hint.ts).
  const state = await page.context().storageState();
  const origin = new URL(serverUrl).origin;
  const hint = { name: `${SESSION_HINT_KEY}:${serverUrl.replace(/\/+$/, '')}`, value: '1' };
  const stored = state.origins.find((o) => o.origin === origin);
  if (stored) stored.localStorage.push(hint);
  else state.origins.push({ origin, localStorage: [hint] });
  await page.context().setStorageState(state);
  await page.goto(`${serverUrl}/`);
  await visible(page, page.getByTestId('signed-in-user'));
  expect(await page.getByTestId('signed-in-user').textContent()).toContain(email);
}
