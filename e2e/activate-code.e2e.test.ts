/**
 * Activation by the emailed code (activateWithOTCUrl) in Chromium, on a desktop and a phone
 * viewport: signed up in one browser, the code typed in it needs no password and signs in; the
 * same code path in another browser (the account signed up elsewhere) asks for the password first.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiPaths } from '@gatehouse/shared/wire';
import { waitForMail } from './support/mailbox';
import { useBrowserAndServer } from './support/server';
import { screenshotPath } from './support/browser';
import { PASSWORD, visible } from './support/journey';

const env = useBrowserAndServer();
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];

/** The 6-digit code the activation email prints under "Or type this code". */
async function activationCode(email: string): Promise<string> {
  const mail = await waitForMail(env.server.url, email, /activate/i);
  const code = /type this code[^\d]*(\d{6})/i.exec(mail.text)?.[1];
  if (!code) throw new Error(`no activation code in "${mail.subject}"`);
  return code;
}

async function typeCodeAndActivate(page: Page, code: string): Promise<void> {
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Activate' }).click();
}

describe.each(VIEWPORTS)('activation by code at $width×$height', (viewport) => {
  it('signs up, follows "Enter the code instead", types the emailed code and is signed in without a password', async () => {
    const email = `code-${viewport.name}-${Date.now()}@example.com`;
    const context = await env.browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    try {
      await page.goto(`${env.server.url}/account/sign-up`);
      await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
      await page.getByLabel('Company name').fill('Analytical Engines');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await visible(page, page.getByRole('heading', { name: 'Check your email' }));
      await page.getByRole('link', { name: 'Enter the code instead' }).click();
      await visible(page, page.getByRole('heading', { name: 'Enter your activation code' }));
      expect(await page.getByLabel('Email').inputValue()).toBe(email);
      const code = await activationCode(email);

      await page.getByLabel('Code').fill(code.slice(0, 3));
      await page.getByRole('button', { name: 'Activate' }).click();
      await visible(page, page.getByText('Enter the 6 digits of the code.'));

      await typeCodeAndActivate(page, code);
      await visible(page, page.getByRole('heading', { name: 'Account activated' }));
      await page.screenshot({ path: screenshotPath(`activate-code-${viewport.name}-success`) });
      await page.getByRole('button', { name: 'Continue' }).click();
      await visible(page, page.getByText(/Signed in as Ada Lovelace/));
    } finally {
      await context.close();
    }
  });

  it('asks another browser for the password before the code activates the account, and a used code is refused', async () => {
    const email = `code-elsewhere-${viewport.name}-${Date.now()}@example.com`;
    const res = await fetch(`${env.server.url}${ApiPaths.signUp}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD, name: 'Grace Hopper' }) });
    expect(res.status).toBe(200);
    const code = await activationCode(email);
    const context = await env.browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    try {
      await page.goto(`${env.server.url}/account/activate/code?email=${encodeURIComponent(email)}`);
      await visible(page, page.getByRole('heading', { name: 'Enter your activation code' }));
      await typeCodeAndActivate(page, code);
      await visible(page, page.getByText('This browser did not create the account: choose its password to finish.'));
      await page.getByLabel('Password', { exact: true }).fill('another good passphrase 9');
      await page.getByLabel('Confirm password').fill('another good passphrase 9');
      await page.screenshot({ path: screenshotPath(`activate-code-${viewport.name}-choose-password`) });
      await page.getByRole('button', { name: 'Activate' }).click();
      await visible(page, page.getByRole('heading', { name: 'Account activated' }));

      // The code was used: typing it again elsewhere is refused in people's words.
      const again = await context.newPage();
      await context.clearCookies();
      await again.goto(`${env.server.url}/account/activate/code?email=${encodeURIComponent(email)}`);
      await visible(again, again.getByRole('heading', { name: 'Enter your activation code' }));
      await typeCodeAndActivate(again, code);
      await visible(again, again.getByText('The code is invalid or has expired'));
    } finally {
      await context.close();
    }
  });
});
