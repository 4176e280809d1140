/**
 * SMS sign-in and sign-up by phone number in Chromium, on a deployment where users sign up with a
 * phone number alone (SIGNUP_EMAIL=off, SIGNUP_PHONE_NUMBER=required) and sign in by SMS
 * (LOGIN_STRATEGY=SmsCodeV2): sign up -> VerifyPhone -> loginWithQuickSmsOtc (code from the real dev
 * outbox) -> signed in; sign out; sign in again with the phone number and a texted code.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { maskPhoneNumber } from '../server/src/services/platform/phone';
import { useBrowserAndServer } from './support/server';
import { visible } from './support/journey';

const env = useBrowserAndServer({ LOGIN_STRATEGY: 'SmsCodeV2', SIGNUP_EMAIL: 'off', SIGNUP_PHONE_NUMBER: 'required' });

interface Sms {
  to: string;
  text: string;
  channel: string;
}

/** The texted codes to `e164` in the dev outbox (newest first), once there are at least `count`. */
async function smsCodes(baseUrl: string, e164: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const messages = (await (await fetch(`${baseUrl}/dev/mailbox.json`)).json()) as Sms[];
    const codes = messages.filter((m) => m.channel === 'sms' && m.to === e164).map((m) => /\b(\d{6})\b/.exec(m.text)?.[1] ?? '');
    if (codes.length >= count) return codes;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`fewer than ${count} SMS to ${e164} within 10 s`);
}

const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/h1-${name}.png` });

describe('sign-up by phone number and SMS sign-in (SmsCodeV2)', () => {
  it('phone sign-up -> VerifyPhone -> loginWithQuickSmsOtc -> signed in; then signs in again with a texted code', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const url = env.server.url;
    const digits = String(Date.now()).slice(-6);
    const typed = `+44 7700 ${digits}`;
    const e164 = `+447700${digits}`;

    await page.goto(`${url}/`);
    await page.waitForURL(/\/account\/login\?redirectUrl=/);
    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    const loginPhone = page.getByLabel('Phone number');
    expect(await loginPhone.getAttribute('type')).toBe('tel');
    expect(await loginPhone.getAttribute('autocomplete')).toBe('tel');
    await shot(page, 'login-phone');
    await page.getByRole('link', { name: /sign up/i }).click();

    // The sign-up form has the configured strategies only: a phone number, no email, no password.
    await visible(page, page.getByRole('heading', { name: 'Create your account' }));
    const phone = page.getByLabel('Phone number');
    await visible(page, phone);
    expect(await page.getByLabel('Email').count()).toBe(0);
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await page.getByLabel('Company name').fill('Navy Labs');
    await phone.fill(typed);
    await shot(page, 'signup-phone');

    // Hold the texting call (the real request, only delayed) so the VerifyPhone stage can be seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    await page.route(
      '**/passwordless/smscode/prelogin',
      async (route) => {
        await held;
        await route.continue();
      },
      { times: 1 },
    );
    await page.getByRole('button', { name: 'Sign up' }).click();
    await visible(page, page.getByRole('heading', { name: 'Verify your phone number' }));
    const status = page.getByRole('status');
    expect(await status.textContent()).toContain(`texting a 6-digit code to ${typed}`);
    await shot(page, 'verify-phone');
    release();

    // loginWithQuickSmsOtc on the login route: a wrong code first, then the texted one.
    await page.waitForURL(/\/account\/login/);
    const code = page.getByLabel('SMS code');
    await visible(page, code);
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await code.getAttribute('inputmode')).toBe('numeric');
    // Where the code went, masked.
    expect(await page.getByText(maskPhoneNumber(e164)).count()).toBe(1);
    const [signUpCode] = await smsCodes(url, e164, 1);
    await code.fill(signUpCode === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await visible(page, page.getByRole('alert'));
    expect(await page.getByRole('alert').first().textContent()).toContain('The code is invalid or has expired');
    await code.fill(signUpCode!);
    await shot(page, 'quick-sms-otc');
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.waitForURL(`${url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    // No email on this account: the host page shows the (verified) phone number.
    expect(await page.getByTestId('signed-in-user').textContent()).toBe(`Grace Hopper · ${e164}`);

    // Sign out and sign in again: the phone number, then the texted code (loginWithSmsOtc).
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);
    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    await page.getByLabel('Phone number').fill(typed);
    await page.getByRole('button', { name: 'Continue' }).click();
    await visible(page, page.getByRole('heading', { name: 'Check your phone' }));
    expect(await page.getByText(maskPhoneNumber(e164)).count()).toBe(1);
    const [loginCode] = await smsCodes(url, e164, 2);
    await page.getByLabel('SMS code').fill(loginCode!);
    await shot(page, 'sms-otc');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    expect(await page.getByTestId('signed-in-user').textContent()).toContain(e164);
    await context.close();
  });
});
