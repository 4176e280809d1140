/**
 * Password policies in Chromium against the built server: lockout -> unlock email from the dev
 * outbox -> unlock screen -> 5 s -> sign-in works; and an expired password -> a new one -> signed in.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshotPath } from './support/browser';
import { linkIn, waitForMail } from './support/mailbox';
import { useBrowserAndServer } from './support/server';
import { PASSWORD, signIn, signUpThroughApi, visible } from './support/journey';

const WRONG = 'definitely not my password';
const NEW_PASSWORD = 'a rotated passphrase for ada 8';
const DAY = 86_400_000;

const env = useBrowserAndServer({ LOCKOUT_MAX_ATTEMPTS: '3', PASSWORD_EXPIRES_IN_DAYS: '90', PASSWORD_ROTATION_NOTIFICATION_DAYS: '7' });

/** Moves when the user's password was set, as if time had passed (the server's clock is the real one). */
function setPasswordChangedAt(email: string, at: number): void {
  const db = new Database(join(env.server.dataDir, 'gatehouse.db'));
  try {
    db.prepare('update users set password_changed_at = ? where email = ?').run(at, email);
  } finally {
    db.close();
  }
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/account\/login/);
}

async function retryPassword(page: Page, password: string): Promise<void> {
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('lockout and unlock', () => {
  it('locks after 3 wrong passwords, the emailed link unlocks, and after 5 s the login route signs in', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const email = `locked-${Date.now()}@example.com`;
    await signUpThroughApi(page, env.server.url, email);
    await signOut(page);

    await signIn(page, email, WRONG);
    await page.getByText('Invalid email or password').waitFor();
    await retryPassword(page, WRONG);
    await retryPassword(page, WRONG);
    await page.getByText('Your account is locked. Check your email to unlock it.').waitFor();
    // The right password does not get in while locked.
    await retryPassword(page, PASSWORD);
    await page.getByText('Your account is locked. Check your email to unlock it.').waitFor();
    await page.screenshot({ path: screenshotPath('policies-locked') });

    const mail = await waitForMail(env.server.url, email, /unlock/i);
    const link = linkIn(mail, '/account/unlock');
    expect(new URL(link).origin).toBe(env.server.url);
    await page.goto(link);
    await visible(page, page.getByText('Your account is unlocked'));
    const unlockedAt = Date.now();
    await page.screenshot({ path: screenshotPath('policies-unlocked') });
    await page.waitForURL(/\/account\/login/, { timeout: 10_000 });
    expect(Date.now() - unlockedAt).toBeGreaterThan(4_000);

    await signIn(page, email, PASSWORD);
    await page.waitForURL(`${env.server.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));

    // The link was single use.
    await page.goto(link);
    await visible(page, page.getByText('The unlock link is invalid or has expired'));
    await context.close();
  });
});

describe('password rotation', () => {
  it('an expired password leads to passwordRotationExpired; the new password signs in', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const email = `rotated-${Date.now()}@example.com`;
    await signUpThroughApi(page, env.server.url, email);
    await signOut(page);
    setPasswordChangedAt(email, Date.now() - 91 * DAY);

    await signIn(page, email, PASSWORD);
    await visible(page, page.getByRole('heading', { name: 'Your password has expired' }));
    await page.screenshot({ path: screenshotPath('policies-rotation-expired') });
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL(`${env.server.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    expect(await page.getByTestId('signed-in-user').textContent()).toContain(email);
    await context.close();
  });

  it('inside the notification period the user is warned, and Continue goes on to the app', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const email = `expiring-${Date.now()}@example.com`;
    await signUpThroughApi(page, env.server.url, email);
    await signOut(page);
    setPasswordChangedAt(email, Date.now() - 85 * DAY);

    await signIn(page, email, PASSWORD);
    await visible(page, page.getByRole('heading', { name: 'Your password expires soon' }));
    expect(await page.getByRole('status').first().textContent()).toContain('expires in 5 days');
    await page.screenshot({ path: screenshotPath('policies-rotation-notice') });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${env.server.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    await context.close();
  });
});
