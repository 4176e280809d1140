/**
 * The normal path leaves a clean console and network log: a signed-out visit of the login page,
 * typing an email (SSO preLogin), signing in, reloading, and signing out. Regressions guarded: a
 * signed-out load once asked the refresh call (401 in the console on every visit), and every email
 * without SSO got a 404 from SSO preLogin.
 */
import type { ConsoleMessage, Page, Response } from 'playwright-core';
import { expect, it } from 'vitest';
import { ApiPaths } from '@gatehouse/shared/wire';
import { linkIn, waitForMail } from './support/mailbox';
import { useBrowserAndServer, type RunningServer } from './support/server';
import { PASSWORD, visible } from './support/journey';

const env = useBrowserAndServer();

async function post(server: RunningServer, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
}

/** An activated account made through the real HTTP API (sign-up, the emailed link, activation). */
async function activatedAccount(server: RunningServer): Promise<string> {
  const email = `clean-${Date.now()}@example.com`;
  await post(server, ApiPaths.signUp, { email, password: PASSWORD, name: 'Ada Lovelace' });
  const link = new URL(linkIn(await waitForMail(server.url, email, /activate/i), '/account/activate'));
  await post(server, ApiPaths.activate, { userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), password: PASSWORD });
  return email;
}

/** Every console error and every 4xx/5xx answer of the page, from now on. */
function watch(page: Page) {
  const consoleErrors: string[] = [];
  const failedResponses: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error') consoleErrors.push(`${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => consoleErrors.push(`uncaught: ${e.message}`));
  page.on('response', (r: Response) => {
    if (r.status() >= 400) failedResponses.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  page.on('requestfailed', (r) => {
    // A navigation (sign-in, reload, sign-out) cancels what is still in flight: no error, nothing in the console.
    if (r.failure()?.errorText === 'net::ERR_ABORTED') return;
    failedResponses.push(`failed ${r.method()} ${r.url()}: ${r.failure()?.errorText}`);
  });
  return { consoleErrors, failedResponses };
}

it('signs in and out from a signed-out visit with no console error and no 4xx/5xx answer', async () => {
  const email = await activatedAccount(env.server);
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const log = watch(page);
  const requested: string[] = [];
  page.on('request', (r) => requested.push(`${r.method()} ${new URL(r.url()).pathname}`));
  try {
    await page.goto(`${env.server.url}/account/login`);
    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    // Signed out and never signed in here: the session is known absent without asking.
    expect(requested).not.toContain(`POST ${ApiPaths.refresh}`);

    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    // No SSO for this email: preLogin asked, and the password step follows.
    await visible(page, page.getByLabel('Password', { exact: true }));
    expect(requested).toContain('POST /identity/resources/auth/v2/user/sso/prelogin');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${env.server.url}/`);
    await visible(page, page.getByTestId('signed-in-user'));

    // A reload restores the session through refresh (the hint says there is one).
    await page.reload();
    await visible(page, page.getByTestId('signed-in-user'));
    expect(requested.filter((r) => r === `POST ${ApiPaths.refresh}`)).toHaveLength(1);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);
    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    // Signed out: the next visit does not ask either.
    await page.reload();
    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    expect(requested.filter((r) => r === `POST ${ApiPaths.refresh}`)).toHaveLength(1);

    expect(log.consoleErrors).toEqual([]);
    expect(log.failedResponses).toEqual([]);
  } finally {
    await context.close();
  }
});
