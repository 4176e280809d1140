/**
 * Password recovery in Chromium: sign up and activate, sign out, "Forgot password?", open the
 * emailed link from the real dev outbox, set a new password, sign in with it; the old one is refused.
 */
import { describe, expect, it } from 'vitest';
import { ACTIVATION_REDIRECT_DELAY_MS } from '@gatehouse/shared/constants';
import { screenshotPath } from './support/browser';
import { linkIn, waitForMail } from './support/mailbox';
import { useBrowserAndServer } from './support/server';
import { installClock, passDelay, PASSWORD, signIn, signUpThroughApi, visible } from './support/journey';

const NEW_PASSWORD = 'a fresh passphrase for ada 7';

const env = useBrowserAndServer();

describe('password recovery by email', () => {
  it('resets the password from the emailed link; the new password signs in and the old one is refused', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const email = `forgot-${Date.now()}@example.com`;
    await signUpThroughApi(page, env.server.url, email);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);

    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/account\/forget-password/);
    await visible(page, page.getByRole('heading', { name: 'Forgot password?' }));
    // The email typed at sign-in is carried over.
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await page.getByRole('button', { name: 'Reset password' }).click();
    // Dev mode has email and SMS active: the user picks the channel.
    await page.getByRole('button', { name: 'Email me a reset link' }).click();
    await visible(page, page.getByRole('heading', { name: 'Check your email' }));
    await page.screenshot({ path: screenshotPath('recovery-email-sent') });

    const mail = await waitForMail(env.server.url, email, /reset/i);
    const link = linkIn(mail, '/account/reset-password');
    expect(new URL(link).origin).toBe(env.server.url);
    await installClock(page);
    await page.goto(link);
    await visible(page, page.getByRole('heading', { name: 'Reset password' }));
    const newPassword = page.getByLabel('New password', { exact: true });
    expect(await newPassword.getAttribute('autocomplete')).toBe('new-password');
    // A mismatch is caught before any call, and shown at the confirmation field.
    await newPassword.fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').fill('something else');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await visible(page, page.getByText('Passwords do not match'));
    expect(await page.getByLabel('Confirm new password').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').press('Enter');
    // The reset signs the user in (no second factor here).
    await visible(page, page.getByText('Your password has been reset and you are signed in.'));
    await page.screenshot({ path: screenshotPath('recovery-reset-done') });
    // It goes on by itself after the seed's delay, let pass on the page's clock.
    await passDelay(page, ACTIVATION_REDIRECT_DELAY_MS);
    await page.waitForURL(`${env.server.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);

    // The link is single use.
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('yet another passphrase 9');
    await page.getByLabel('Confirm new password').fill('yet another passphrase 9');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await visible(page, page.getByRole('alert'));
    expect(await page.getByRole('alert').first().textContent()).toContain('invalid or has expired');

    await page.goto(`${env.server.url}/account/login`);
    await signIn(page, email, PASSWORD);
    await visible(page, page.getByRole('alert'));
    expect(await page.getByRole('alert').first().textContent()).toContain('Invalid email or password');

    await page.goto(`${env.server.url}/account/login`);
    await signIn(page, email, NEW_PASSWORD);
    await page.waitForURL(`${env.server.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    expect(await page.getByTestId('signed-in-user').textContent()).toContain(email);
    await context.close();
  });
});

describe('password recovery by SMS', () => {
  it('texts a code (dev outbox), the code leads to the new-password form, and the new password signs in', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const email = `sms-${Date.now()}@example.com`;
    const phone = `+1 555 ${String(Date.now()).slice(-7)}`;
    await signUpThroughApi(page, env.server.url, email);
    // The phone number goes on the profile through the API, as the admin portal's profile form would.
    const login = await fetch(`${env.server.url}/identity/resources/auth/v1/user`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const updated = await fetch(`${env.server.url}/identity/resources/users/v2/me`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` }, body: JSON.stringify({ phoneNumber: phone }) });
    expect(updated.status).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);

    await page.goto(`${env.server.url}/account/forget-password`);
    await visible(page, page.getByRole('heading', { name: 'Forgot password?' }));
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Email').press('Enter');
    await page.getByRole('button', { name: 'Text me a code' }).click();
    const code = page.getByLabel('Code');
    await visible(page, code);
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');

    const sms = await waitForMail(env.server.url, phone, /sms/i);
    const digits = /\b(\d{6})\b/.exec(sms.text)![1]!;
    await code.fill(digits === '000000' ? '000001' : '000000');
    await page.getByRole('button', { name: 'Verify code' }).click();
    await visible(page, page.getByRole('alert'));
    expect(await page.getByRole('alert').first().textContent()).toContain('The code is invalid or has expired');
    await code.fill(digits);
    await page.getByRole('button', { name: 'Verify code' }).click();
    await visible(page, page.getByLabel('New password', { exact: true }));
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    // The reset signs the user in; Continue goes on at once. Then the new password signs in too.
    await visible(page, page.getByText('Your password has been reset and you are signed in.'));
    await page.screenshot({ path: screenshotPath('recovery-sms-done') });
    await page.getByRole('button', { name: 'Continue' }).click();
    await visible(page, page.getByTestId('signed-in-user'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);
    await signIn(page, email, NEW_PASSWORD);
    await page.waitForURL(`${env.server.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    await context.close();
  });
});
