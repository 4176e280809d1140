/**
 * Social login in Chromium against a real OpenID Connect provider (node-oidc-provider on loopback,
 * its dev login and consent pages) configured as the custom social provider "Acme ID": a new user
 * signs up by it (isNewUser), an existing verified account is linked, and an unverified email is
 * refused with loginWithSSOFailed, then the app after 1 s with the reason on the login form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './support/browser';
import { closeContexts, freePort, startGatehouse, workerBrowser, type RunningServer } from './support/server';
import { signUpThroughApi, visible } from './support/journey';
import { IDP_CLIENT_ID, IDP_CLIENT_SECRET, startTestIdp, type TestIdp } from '../server/src/test/social-idp';

let browser: Browser;
let server: RunningServer;
let idp: TestIdp;

beforeAll(async () => {
  // The IdP's port first: the server needs its issuer, the IdP needs the server's callback URL.
  const idpPort = await freePort();
  const issuer = `http://127.0.0.1:${idpPort}`;
  browser = await workerBrowser();
  server = await startGatehouse({
    SOCIAL_LOGIN_PROVIDERS: JSON.stringify({ custom: [{ id: 'acme', displayName: 'Acme ID', issuer, clientId: IDP_CLIENT_ID, clientSecret: IDP_CLIENT_SECRET }] }),
  });
  idp = await startTestIdp({ port: idpPort, redirectUris: [`${server.url}/account/social/success`] });
  expect(idp.issuer).toBe(issuer);
});

afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
  await idp?.stop();
});

/** From the login form: Continue with Acme ID, sign in at the IdP as `login`, consent; resolves with the postlogin answer. */
async function continueWithAcme(page: Page, login: string, shot = '') {
  const button = page.getByRole('button', { name: 'Continue with Acme ID' });
  await visible(page, button);
  if (shot) await page.screenshot({ path: screenshotPath(`${shot}-login-buttons`) });
  await button.click();
  await page.waitForURL(`${idp.issuer}/interaction/**`);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  if (shot) await page.screenshot({ path: screenshotPath(`${shot}-idp-login`) });
  await page.getByRole('button', { name: 'Sign-in' }).click();
  // For the screenshot, the postlogin call is held until the callback screen has been seen.
  let release = () => undefined as void;
  const held = new Promise<void>((resolve) => (release = resolve));
  if (shot) await page.route('**/user/sso/acme/postlogin', async (route) => (await held, route.continue()));
  const answer = page.waitForResponse((r) => r.url().includes('/user/sso/acme/postlogin'));
  await page.getByRole('button', { name: 'Continue' }).click();
  if (shot) {
    await visible(page, page.getByRole('heading', { name: 'Signing you in' }));
    await page.screenshot({ path: screenshotPath(`${shot}-callback`) });
  }
  release();
  const response = await answer;
  return { status: response.status(), body: (await response.json()) as Record<string, unknown> };
}

describe('social login with a custom OpenID Connect provider', () => {
  it('a new user signs up by it: back in the login box, signed in as a new user (isNewUser), landing on the page they asked for', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const email = `social-new-${Date.now()}@example.com`;
    await page.goto(`${server.url}/`);
    await page.waitForURL(/\/account\/login\?redirectUrl=/);
    const { status, body } = await continueWithAcme(page, email, 'social-new');
    expect(status).toBe(200);
    expect(body).toMatchObject({ isNewUser: true, email, mfaRequired: false });
    await page.waitForURL(`${server.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    expect(await page.getByTestId('signed-in-user').textContent()).toContain(email);
    // A session like any other: it survives a reload (refresh cookie).
    await page.reload();
    await visible(page, page.getByTestId('signed-in-user'));
    await context.close();
  });

  it('an existing verified account is linked: the same user, not a new one', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const email = `social-link-${Date.now()}@example.com`;
    await signUpThroughApi(page, server.url, email);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);
    const { status, body } = await continueWithAcme(page, email);
    expect(status).toBe(200);
    expect(body).toMatchObject({ isNewUser: false, email });
    await page.waitForURL(`${server.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    expect(await page.getByTestId('signed-in-user').textContent()).toContain(email);
    await context.close();
  });

  it('an unverified email is refused: loginWithSSOFailed with the reason, then the app after 1 s, and the login form says why', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const email = `social-unverified-${Date.now()}@example.com`;
    await page.goto(`${server.url}/account/login`);
    const { status } = await continueWithAcme(page, `unverified:${email}`);
    expect(status).toBe(403);
    await visible(page, page.getByRole('heading', { name: 'Sign-in failed' }));
    const reason = 'Your Acme ID email address is not verified, so it cannot be used to sign in. Verify it with Acme ID, or sign in another way.';
    expect(await page.getByRole('alert').first().textContent()).toBe(reason);
    await page.screenshot({ path: screenshotPath('social-failed') });
    await page.waitForURL(/\/account\/login/, { timeout: 15_000 });
    await visible(page, page.getByRole('button', { name: 'Continue with Acme ID' }));
    expect(await page.getByRole('alert').first().textContent()).toBe(reason);
    await page.screenshot({ path: screenshotPath('social-failed-login') });
    await context.close();
  });
});
