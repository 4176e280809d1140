/**
 * MFA and step-up in Chromium against the built server. The authenticator app is an independent
 * RFC 6238 implementation (server/src/test/rfc6238.ts, node:crypto only) fed with the secret read
 * from the enrolment screen, as a user typing the key into their app would.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { appCode } from '../server/src/test/rfc6238';
import { screenshotPath } from './support/browser';
import { useBrowserAndServer } from './support/server';
import { PASSWORD, signIn, signUpThroughApi, visible } from './support/journey';

const env = useBrowserAndServer();
const STEP_MS = 30_000;
/** Time a code may take from here to the server's check: a step whose acceptance ends sooner is not used. */
const MARGIN_MS = 8_000;

/**
 * The app's code for the earliest time step after the last one used (the server refuses a step
 * twice and accepts the current step and one either side, server/src/services/mfa/totp.ts). The
 * step before the current one comes first while it is still accepted for MARGIN_MS, so three
 * codes are ready at once; a fourth waits until the next step begins, and no longer.
 */
function authenticator(secret: string) {
  let lastStep = -Infinity;
  return async (): Promise<string> => {
    for (;;) {
      const now = Date.now();
      const current = Math.floor(now / STEP_MS);
      const earliest = now + MARGIN_MS < (current + 1) * STEP_MS ? current - 1 : current;
      const step = Math.max(earliest, lastStep + 1);
      if (step <= current + 1) {
        lastStep = step;
        return appCode(secret, step * STEP_MS);
      }
      // Accepted once the server's current step is step - 1.
      await new Promise((r) => setTimeout(r, (step - 1) * STEP_MS - now + 50));
    }
  };
}

describe('MFA with an authenticator app', () => {
  const email = `mfa-${Date.now()}@example.com`;
  let context: BrowserContext;
  let page: Page;
  let nextCode: () => Promise<string>;
  let secret = '';
  let recoveryCodes: string[] = [];
  const refreshCookie = async () => (await context.cookies(`${env.server.url}/identity/resources/auth/v1/user/token/refresh`)).find((c) => c.name.startsWith('gatehouse-refresh'));

  afterAll(async () => {
    await context?.close();
  });

  /** Signs out, signs in with the password again and submits `code` on the recovery-code form. */
  async function signOutAndUseRecoveryCode(code: string) {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);
    await signIn(page, email, PASSWORD);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code', { exact: true }).fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('enrols from the step-up route (noMFAEnrolledStepUp), shows the recovery codes once, then steps up', async () => {
    context = await env.browser.newContext();
    page = await context.newPage();
    await signUpThroughApi(page, env.server.url, email);

    await page.goto(`${env.server.url}/account/step-up?maxAge=300`);
    await visible(page, page.getByRole('heading', { name: 'Verify it’s you' }));
    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    await visible(page, page.getByRole('img', { name: /QR code/ }));
    secret = await page.getByLabel('Secret key', { exact: true }).inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await page.getByLabel('Setup link (otpauth URI)', { exact: true }).inputValue()).toContain(`secret=${secret}`);
    expect(await page.getByLabel('Code from the app').getAttribute('autocomplete')).toBe('one-time-code');
    await page.screenshot({ path: screenshotPath('mfa-enrol') });
    nextCode = authenticator(secret);

    await page.getByLabel('Code from the app').fill(await nextCode());
    await page.getByRole('button', { name: 'Verify and enable' }).click();
    const list = page.getByRole('list', { name: 'Recovery codes' });
    await visible(page, list);
    recoveryCodes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
    expect(recoveryCodes).toHaveLength(10);
    await page.screenshot({ path: screenshotPath('mfa-recovery-codes') });
    expect(await page.getByRole('button', { name: 'Continue' }).isDisabled()).toBe(true);
    await page.getByLabel('I have saved my recovery codes').check();
    await page.getByRole('button', { name: 'Continue' }).click();

    // The step-up itself follows: the session was signed in with a password only.
    await page.getByLabel('Authentication code').fill(await nextCode());
    await page.getByRole('button', { name: 'Verify' }).click();
    await visible(page, page.getByText('Verified, redirecting…'));
    await page.waitForURL(`${env.server.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
  });

  it('signs in with password then an authenticator code; no refresh cookie before the code', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);
    await signIn(page, email, PASSWORD);
    const code = page.getByLabel('Authentication code');
    await visible(page, code);
    expect(await refreshCookie()).toBeUndefined();
    // A wrong code is announced and keeps the user on the step.
    await code.fill(appCode(secret, Date.now()) === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await visible(page, page.getByRole('alert'));
    expect(await page.getByRole('alert').first().textContent()).toContain('Invalid code');
    await page.screenshot({ path: screenshotPath('mfa-wrong-code') });

    await code.fill(await nextCode());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${env.server.url}/`, { timeout: 45_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    expect(await refreshCookie()).toBeTruthy();
  }, 90_000);

  it('signs in with a recovery code, which then no longer works', async () => {
    await signOutAndUseRecoveryCode(recoveryCodes[0]!);
    await page.waitForURL(`${env.server.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));

    await signOutAndUseRecoveryCode(recoveryCodes[0]!);
    await visible(page, page.getByRole('alert'));
    expect(await page.getByRole('alert').first().textContent()).toContain('Invalid recovery code');
    await page.getByLabel('Recovery code', { exact: true }).fill(recoveryCodes[1]!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${env.server.url}/`, { timeout: 15_000 });
  });

  it('a recovery-code session is not stepped up: the step-up route asks for the app code', async () => {
    await page.goto(`${env.server.url}/account/step-up?maxAge=300`);
    const code = page.getByLabel('Authentication code');
    await visible(page, code);
    await page.screenshot({ path: screenshotPath('mfa-step-up') });
    await code.fill(await nextCode());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${env.server.url}/`, { timeout: 45_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    // Stepped up within maxAge now: the route lets the user through without asking again.
    await page.goto(`${env.server.url}/account/step-up?maxAge=300`);
    await page.waitForURL(`${env.server.url}/`, { timeout: 15_000 });
  }, 90_000);
});
