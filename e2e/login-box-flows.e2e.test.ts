/**
 * The login box's issue-11 flows in Chromium against the built server, at a desktop (1280×800) and
 * a phone (390×844) viewport: the unactivated account offered a new activation email, the sign-up
 * success choices, errors at their fields, "Sign in instead", show/hide, the strength meter's lazy
 * chunk, the passkey button under its divider, and the success states' Continue.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshotPath } from './support/browser';
import { linkIn, waitForMail, type OutboxMessage } from './support/mailbox';
import { useBrowserAndServer } from './support/server';
import { PASSWORD, visible } from './support/journey';

const env = useBrowserAndServer();

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];

async function mails(to: string, subject: RegExp): Promise<OutboxMessage[]> {
  const all = (await (await fetch(`${env.server.url}/dev/mailbox.json`)).json()) as OutboxMessage[];
  return all.filter((m) => m.to.includes(to) && subject.test(m.subject));
}

async function fillSignUp(page: Page, email: string) {
  await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
  await page.getByLabel('Company name').fill('Analytical Engines');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
}

/** The element focused inside the login box's shadow root (the name attribute of it), or null. */
const focusedName = (page: Page) => page.evaluate(() => document.querySelector('gatehouse-login-box')?.shadowRoot?.activeElement?.getAttribute('name') ?? null);

describe.each(VIEWPORTS)('login box flows at $width×$height', (viewport) => {
  const stamp = `${viewport.name}-${Date.now()}`;

  async function newPage(): Promise<{ page: Page; requested: string[] }> {
    const context = await env.browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    return { page, requested };
  }

  it('sign-up: errors at their fields with focus on the first, the strength meter loaded only here, then Resend and Use a different email', async () => {
    const { page, requested } = await newPage();
    const email = `flows-signup-${stamp}@example.com`;
    await page.goto(`${env.server.url}/account/login`);
    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await visible(page, page.getByLabel('Password', { exact: true }));
    await page.getByLabel('Password', { exact: true }).fill('typing a sign-in password');
    await page.waitForTimeout(300);
    // Signing in never fetches the strength meter or a dictionary.
    expect(requested.filter((u) => /StrengthMeter-/.test(u))).toEqual([]);

    await page.goto(`${env.server.url}/account/sign-up`);
    await visible(page, page.getByRole('heading', { name: 'Create your account' }));
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    const company = page.getByLabel('Company name');
    await expect.poll(() => company.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await company.getAttribute('aria-describedby'))!.split(' ')[0]!;
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe('Enter your company’s name.');
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('Enter an email address like name@example.com.').count()).toBe(1);
    expect(await focusedName(page)).toBe('companyName');
    // No browser bubble: the form is noValidate, and nothing was sent.
    expect(await page.locator('form').first().evaluate((f) => (f as HTMLFormElement).noValidate)).toBe(true);
    await page.screenshot({ path: screenshotPath(`login-box-${viewport.name}-signup-errors`) });

    await fillSignUp(page, email);
    // The policy is shown before the user fails it, and the strength meter comes in its own chunk.
    await visible(page, page.getByRole('list', { name: 'Password requirements' }));
    await visible(page, page.getByText(/^Strength: /));
    expect(requested.some((u) => /StrengthMeter-/.test(u))).toBe(true);
    const toggle = page.getByRole('button', { name: 'Show password' });
    await toggle.click();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('password');

    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await visible(page, page.getByRole('heading', { name: 'Check your email' }));
    await waitForMail(env.server.url, email, /activat/i);
    await page.getByRole('button', { name: 'Resend' }).click();
    await visible(page, page.getByText(`We sent a new activation link to ${email}.`));
    await expect.poll(async () => (await mails(email, /activat/i)).length).toBe(2);
    await page.getByRole('button', { name: 'Use a different email' }).click();
    await visible(page, page.getByRole('heading', { name: 'Create your account' }));
    expect(await page.getByLabel('Email').inputValue()).toBe('');
    expect(await focusedName(page)).toBe('email');
    await page.context().close();
  });

  it('an unactivated account: the right password offers "Resend activation email", a wrong one gets the generic message; an existing email offers "Sign in instead"', async () => {
    const { page } = await newPage();
    const email = `flows-unverified-${stamp}@example.com`;
    await page.goto(`${env.server.url}/account/sign-up`);
    await visible(page, page.getByRole('heading', { name: 'Create your account' }));
    await fillSignUp(page, email);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await visible(page, page.getByRole('heading', { name: 'Check your email' }));
    await waitForMail(env.server.url, email, /activat/i);

    await page.goto(`${env.server.url}/account/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password', { exact: true }).fill('a wrong password entirely');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await visible(page, page.getByRole('alert'));
    expect(await page.getByRole('alert').textContent()).toBe('Invalid email or password');
    expect(await page.getByRole('button', { name: 'Resend activation email' }).count()).toBe(0);

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await visible(page, page.getByRole('button', { name: 'Resend activation email' }));
    expect(await page.getByRole('alert').textContent()).toContain('Please verify your email address first.');
    await page.screenshot({ path: screenshotPath(`login-box-${viewport.name}-unverified`) });
    await page.getByRole('button', { name: 'Resend activation email' }).click();
    await visible(page, page.getByText(`We sent a new activation link to ${email}.`, { exact: false }));
    await expect.poll(async () => (await mails(email, /activat/i)).length).toBe(2);

    // Activate, then sign up again with the same email: "Sign in instead" at the email field.
    // The resend replaced the first link: the newest one activates.
    const newest = (await mails(email, /activat/i)).sort((x, y) => y.createdAt.localeCompare(x.createdAt))[0]!;
    const link = linkIn(newest, '/account/activate');
    await page.goto(link);
    // A resent link may ask for the password again (the server decides): choose it, then activated.
    await visible(page, page.getByRole('heading', { name: 'Account activated' }).or(page.getByLabel('Confirm password')));
    if (await page.getByLabel('Confirm password').count()) {
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Activate' }).click();
    }
    await visible(page, page.getByRole('heading', { name: 'Account activated' }));
    const other = await (await env.browser.newContext({ viewport })).newPage();
    await other.goto(`${env.server.url}/account/sign-up`);
    await visible(other, other.getByRole('heading', { name: 'Create your account' }));
    await fillSignUp(other, email);
    await other.getByRole('button', { name: 'Sign up', exact: true }).click();
    await visible(other, other.getByText('An account with this email already exists.'));
    expect(await other.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    await other.getByRole('link', { name: 'Sign in instead' }).click();
    await other.waitForURL(/\/account\/login/);
    await other.context().close();
    await page.context().close();
  });

  it('Continue on the success states goes at once: activation, and a password reset that signs the user in', async () => {
    const { page } = await newPage();
    const email = `flows-continue-${stamp}@example.com`;
    await page.goto(`${env.server.url}/account/sign-up`);
    await visible(page, page.getByRole('heading', { name: 'Create your account' }));
    await fillSignUp(page, email);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    const link = linkIn(await waitForMail(env.server.url, email, /activat/i), '/account/activate');
    await page.goto(link);
    await visible(page, page.getByRole('heading', { name: 'Account activated' }));
    await page.screenshot({ path: screenshotPath(`login-box-${viewport.name}-activated`) });
    const started = Date.now();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${env.server.url}/`, { timeout: 4000 });
    // The seed waits 5 s; Continue does not.
    expect(Date.now() - started).toBeLessThan(3000);
    await visible(page, page.getByTestId('signed-in-user'));

    // Forgot password in a fresh browser, then the emailed link: the reset signs the user in.
    const { page: fresh } = await newPage();
    await fresh.goto(`${env.server.url}/account/forget-password`);
    await fresh.getByLabel('Email').fill(email);
    await fresh.getByRole('button', { name: 'Reset password' }).click();
    // The chooser: two equal-width choices and one Back.
    const choices = fresh.locator('.gh-choices > button');
    await visible(fresh, choices);
    const [a, b] = await choices.evaluateAll((buttons) => buttons.map((x) => Math.round(x.getBoundingClientRect().width)));
    expect(a).toBe(b);
    expect(await fresh.getByRole('button', { name: 'Back' }).count()).toBe(1);
    expect(await fresh.getByRole('link', { name: 'Back to sign in' }).count()).toBe(0);
    await fresh.screenshot({ path: screenshotPath(`login-box-${viewport.name}-recovery-choice`) });
    await fresh.getByRole('button', { name: 'Email me a reset link' }).click();
    const reset = linkIn(await waitForMail(env.server.url, email, /reset/i), '/account/reset-password');
    await fresh.goto(reset);
    await fresh.getByLabel('New password', { exact: true }).fill('a new passphrase for ada 11');
    await fresh.getByLabel('Confirm new password').fill('a new passphrase for ada 11');
    await fresh.getByRole('button', { name: 'Set new password' }).click();
    await visible(fresh, fresh.getByText('Your password has been reset and you are signed in.'));
    await fresh.getByRole('button', { name: 'Continue' }).click();
    await fresh.waitForURL(`${env.server.url}/`, { timeout: 4000 });
    await visible(fresh, fresh.getByTestId('signed-in-user'));
    await fresh.context().close();
    await page.context().close();
  });

  it('the passkey button is full width, under an "or" divider', async () => {
    const { page } = await newPage();
    await page.goto(`${env.server.url}/account/login`);
    const passkey = page.getByRole('button', { name: 'Sign in with a passkey' });
    await visible(page, passkey);
    const divider = page.getByRole('separator', { name: 'or' });
    await visible(page, divider);
    const [form, button, line] = await Promise.all([page.locator('.gh-card form').boundingBox(), passkey.boundingBox(), divider.boundingBox()]);
    expect(Math.abs(button!.width - form!.width)).toBeLessThanOrEqual(1);
    expect(line!.y).toBeGreaterThan(form!.y + form!.height - 1);
    expect(button!.y).toBeGreaterThan(line!.y);
    await page.context().close();
  });
});
