/**
 * Email links from the hosted login page (issue 4, hosted login): with LOGIN_STRATEGY=MagicLink, a
 * link asked for on `/oauth/account/login` (read from the real dev outbox) opens the hosted page at
 * `/oauth/account/login/magic-link` on the Gatehouse origin, signs in there, and with no pending
 * authorization request lands on the hosted portal. An application's own page still gets links to
 * its `/account/...` routes.
 */
import { describe, expect, it } from 'vitest';
import { screenshotPath } from './support/browser';
import { PASSWORD, visible } from './support/journey';
import { linkIn, waitForMail } from './support/mailbox';
import { useBrowserAndServer } from './support/server';

const env = useBrowserAndServer({ LOGIN_STRATEGY: 'MagicLink' });

/** Signs a user up and activates the account over HTTP (the mailbox link's userId and token). */
async function activatedUser(serverUrl: string, prefix: string): Promise<string> {
  const email = `${prefix}-${Date.now()}@example.com`;
  const signUp = await fetch(`${serverUrl}/identity/resources/users/v1/signUp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, name: 'Grace Hopper', companyName: 'Compilers Inc' }),
  });
  expect(signUp.status).toBe(200);
  const link = new URL(linkIn(await waitForMail(serverUrl, email, /activate/i), '/account/activate'));
  const activate = await fetch(`${serverUrl}/identity/resources/users/v1/activate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), password: PASSWORD }),
  });
  expect(activate.status).toBe(200);
  return email;
}

describe('email links from the hosted login page', () => {
  it('a magic link asked for on /oauth/account/login opens /oauth/account/login/magic-link, signs in there and lands on the hosted portal', async () => {
    const url = env.server.url;
    const email = await activatedUser(url, 'hosted-magic');
    const context = await env.browser.newContext();
    const page = await context.newPage();

    await page.goto(`${url}/oauth/account/login`);
    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await visible(page, page.getByRole('heading', { name: 'Check your email' }));
    await page.screenshot({ path: '/tmp/h10-hosted-magic-link-sent.png' });

    const link = new URL(linkIn(await waitForMail(url, email, /sign-in link/i), '/account/login/magic-link'));
    expect(`${link.origin}${link.pathname}`).toBe(`${url}/oauth/account/login/magic-link`);
    expect(link.searchParams.get('token')).toBeTruthy();

    await page.goto(link.href);
    await visible(page, page.getByRole('heading', { name: 'You’re signed in' }));
    await page.screenshot({ path: '/tmp/h10-hosted-magic-link-success.png' });
    await page.screenshot({ path: screenshotPath('hosted-login-magic-link-success') });
    // No authorization request was pending: the hosted portal, on the Gatehouse origin.
    await page.waitForURL(`${url}/oauth/portal`, { timeout: 15_000 });
    await visible(page, page.getByRole('dialog', { name: 'Admin portal' }));
    await page.screenshot({ path: '/tmp/h10-hosted-magic-link-portal.png' });
    await context.close();
  });

  it('the same request from a page outside /oauth (the demo page) still links to its /account/ route', async () => {
    const url = env.server.url;
    const email = await activatedUser(url, 'demo-magic');
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${url}/account/login`);
    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await visible(page, page.getByRole('heading', { name: 'Check your email' }));
    const link = new URL(linkIn(await waitForMail(url, email, /sign-in link/i), '/account/login/magic-link'));
    expect(`${link.origin}${link.pathname}`).toBe(`${url}/account/login/magic-link`);
    await context.close();
  });
});
