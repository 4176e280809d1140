/**
 * Passwordless sign-in in Chromium, chosen by the vendor's login policy (LOGIN_STRATEGY):
 * MagicLink — sign up and activate, sign out, ask for a link, open it from the real dev outbox, see
 * the magic-link success step for 5 s, land home; Code — the same with the emailed 6-digit code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotPath } from './support/browser';
import { linkIn, waitForMail } from './support/mailbox';
import { startGatehouse, useBrowserAndServer, type RunningServer } from './support/server';
import { signUpThroughApi, visible } from './support/journey';

const env = useBrowserAndServer({ LOGIN_STRATEGY: 'MagicLink' });

describe('MagicLink login strategy', () => {
  it('signs in from the emailed link: success step for 5 s, then home; the link works once', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const url = env.server.url;
    const email = `magic-${Date.now()}@example.com`;
    await signUpThroughApi(page, url, email);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);

    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await visible(page, page.getByRole('heading', { name: 'Check your email' }));
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath('passwordless-magic-link-sent') });

    const mail = await waitForMail(url, email, /sign-in link/i);
    const link = linkIn(mail, '/account/login/magic-link');
    expect(new URL(link).origin).toBe(url);
    await page.goto(link);
    await visible(page, page.getByRole('heading', { name: 'You’re signed in' }));
    const shownAt = Date.now();
    await page.screenshot({ path: screenshotPath('passwordless-magic-link-success') });
    await page.waitForURL(`${url}/`, { timeout: 15_000 });
    // Seed 4.2 / 9: the success step stays for 5000 ms before navigating.
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(4000);
    await visible(page, page.getByTestId('signed-in-user'));
    expect(await page.getByTestId('signed-in-user').textContent()).toContain(email);

    // Single use: the same link again is refused with a way back.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);
    await page.goto(link);
    await visible(page, page.getByRole('alert'));
    expect(await page.getByRole('alert').first().textContent()).toContain('invalid or has expired');
    await visible(page, page.getByRole('link', { name: 'Back to sign in' }));
    await context.close();
  });
});

describe('Code login strategy', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startGatehouse({ LOGIN_STRATEGY: 'Code' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('signs in with the emailed 6-digit code; a wrong code is refused first', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const email = `code-${Date.now()}@example.com`;
    await signUpThroughApi(page, server.url, email);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);

    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await visible(page, page.getByRole('heading', { name: 'Enter your code' }));
    const field = page.getByLabel('Sign-in code');
    expect(await field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await field.getAttribute('inputmode')).toBe('numeric');

    const mail = await waitForMail(server.url, email, /sign-in code/i);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expect(code).toBeTruthy();
    await field.fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await visible(page, page.getByRole('alert'));
    expect(await page.getByRole('alert').first().textContent()).toContain('The code is invalid or has expired');

    await field.fill(code!);
    await page.screenshot({ path: screenshotPath('passwordless-code') });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    expect(await page.getByTestId('signed-in-user').textContent()).toContain(email);
    await context.close();
  });
});
