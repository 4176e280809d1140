/**
 * Passkeys in Chromium with its virtual authenticator (CDP WebAuthn domain): the prompt after a
 * password sign-in, adding a passkey, signing in with it and no password, and "Don't show again".
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshotPath } from './support/browser';
import { useBrowserAndServer } from './support/server';
import { PASSWORD, signIn, signUpThroughApi, visible } from './support/journey';

const env = useBrowserAndServer({ GATEHOUSE_FLAGS: '{"show-passkeys-new":"on"}', PASSKEYS_PROMPT: 'on' });

/** A page with a platform authenticator that holds discoverable credentials and verifies the user. */
async function pageWithAuthenticator(context: BrowserContext): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { page, cdp, authenticatorId };
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/account\/login/);
}

async function expectSignedInAs(page: Page, email: string): Promise<void> {
  await page.waitForURL(`${env.server.url}/`, { timeout: 15_000 });
  await visible(page, page.getByTestId('signed-in-user'));
  expect(await page.getByTestId('signed-in-user').textContent()).toContain(email);
}

describe('passkeys', () => {
  it('offers a passkey after a password sign-in, adds one, then signs in with it and no password', async () => {
    const context = await env.browser.newContext();
    const { page, cdp, authenticatorId } = await pageWithAuthenticator(context);
    const email = `passkey-${Date.now()}@example.com`;
    await signUpThroughApi(page, env.server.url, email);
    await signOut(page);

    await signIn(page, email, PASSWORD);
    await visible(page, page.getByRole('heading', { name: 'Use a passkey next time' }));
    await page.screenshot({ path: screenshotPath('passkey-prompt') });
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await visible(page, page.getByRole('heading', { name: 'Passkey added' }));
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);
    expect(credentials[0]!.rpId).toBe('localhost');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectSignedInAs(page, email);
    await signOut(page);

    // No identifier, no password: the discoverable credential names the user.
    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expectSignedInAs(page, email);
    const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(after.credentials[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount);

    // The passkey is now the preferred method: a later password sign-in is not prompted again.
    await signOut(page);
    await signIn(page, email, PASSWORD);
    await expectSignedInAs(page, email);
    await context.close();
  });

  it('honours "Don\'t show again"', async () => {
    const context = await env.browser.newContext();
    const { page } = await pageWithAuthenticator(context);
    const email = `no-passkey-${Date.now()}@example.com`;
    await signUpThroughApi(page, env.server.url, email);
    await signOut(page);

    await signIn(page, email, PASSWORD);
    await visible(page, page.getByRole('heading', { name: 'Use a passkey next time' }));
    await page.getByRole('button', { name: 'Don’t show again' }).click();
    await expectSignedInAs(page, email);
    await signOut(page);

    await signIn(page, email, PASSWORD);
    await expectSignedInAs(page, email);
    expect(await page.getByRole('heading', { name: 'Use a passkey next time' }).count()).toBe(0);
    await context.close();
  });

  it('shows a clear message when the passkey sign-in is refused by the browser', async () => {
    const context = await env.browser.newContext();
    const { page, cdp, authenticatorId } = await pageWithAuthenticator(context);
    // The user fails verification (wrong fingerprint): Chromium rejects with NotAllowedError.
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
    await page.goto(`${env.server.url}/account/login`);
    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    const alert = page.getByRole('alert');
    await visible(page, alert);
    // Chromium refuses before anything reaches the server (NotAllowedError).
    expect(await alert.first().textContent()).toBe('The passkey request was cancelled or timed out');
    expect(page.url()).toContain('/account/login');
    await context.close();
  });
});
