/**
 * SMS and WebAuthn second factors and the reset-phone-number route in Chromium, against the built
 * server with MFA_POLICY=force (users without a factor enrol at sign-in). Texted codes are read
 * from the real dev outbox (channel 'sms'); security keys are Chromium's virtual authenticators
 * (CDP WebAuthn domain), as in e2e/passkeys.
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { waitForMail } from './support/mailbox';
import { useBrowserAndServer } from './support/server';
import { PASSWORD, signIn, signUpAndActivate, visible } from './support/journey';

const env = useBrowserAndServer({ MFA_POLICY: 'force' });

interface OutboxEntry {
  id: string;
  to: string;
  text: string;
  channel: 'sms' | 'email';
}

/** The dev outbox's SMS already read, so each wait returns the one new text to a number. */
const readTexts = new Set<string>();

/** The 6-digit code of the next (unread) SMS to `phone`. */
async function nextTextedCode(phone: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const messages = (await (await fetch(`${env.server.url}/dev/mailbox.json`)).json()) as OutboxEntry[];
    const text = messages.find((m) => m.channel === 'sms' && m.to === phone && !readTexts.has(m.id));
    if (text) {
      readTexts.add(text.id);
      return /\b(\d{6})\b/.exec(text.text)![1]!;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no new SMS to ${phone} within ${timeoutMs} ms`);
}

/** The newest mail to `to` matching `subject` whose text is not `previous` (a second reset mails again). */
async function newMail(to: string, subject: RegExp, previous: string | null, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mail = await waitForMail(env.server.url, to, subject, Math.max(100, deadline - Date.now()));
    if (mail.text !== previous) return mail.text;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no new mail to ${to} matching ${subject} within ${timeoutMs} ms`);
}

function uniquePhone(): string {
  return `+4477${String(Date.now() % 1e8).padStart(8, '0')}`;
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

/** The recovery codes step after an enrolment: shown once, then Continue to the app. */
async function saveRecoveryCodes(page: Page, shot?: string): Promise<void> {
  const list = page.getByRole('list', { name: 'Recovery codes' });
  await visible(page, list);
  expect(await list.getByRole('listitem').count()).toBe(10);
  if (shot) await page.screenshot({ path: shot });
  await page.getByLabel('I have saved my recovery codes').check();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** A page whose browser has a virtual authenticator of the given transport. */
async function pageWithAuthenticator(context: BrowserContext, transport: 'internal' | 'usb'): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport, hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { page, cdp, authenticatorId };
}

describe('SMS as a second factor, and reset phone number', () => {
  const email = `sms-mfa-${Date.now()}@example.com`;
  const phone = uniquePhone();
  const newPhone = `+4478${phone.slice(5)}`;
  // In the tenant's name (the sign-up's email domain until renamed).
  const resetSubject = /^Reset your .+ phone number$/;
  let context: BrowserContext;
  let page: Page;
  let refusedMail: string | null = null;

  afterAll(async () => {
    await context?.close();
  });

  it('forceTwoFactor: chooses text messages, types the phone, enters the texted code, saves the recovery codes and is signed in', async () => {
    context = await env.browser.newContext();
    page = await context.newPage();
    await signUpAndActivate(page, env.server.url, env.server.url, email);
    await signOut(page);

    await signIn(page, email, PASSWORD);
    await visible(page, page.getByRole('heading', { name: 'Set up two-factor authentication' }));
    const choice = page.getByRole('button', { name: 'Set up text message codes' });
    await visible(page, choice);
    expect(await page.getByRole('button', { name: 'Set up a security key' }).count()).toBe(1);
    await page.screenshot({ path: '/tmp/h2-mfa-choose.png' });
    await choice.click();

    const phoneField = page.getByLabel('Phone number');
    await visible(page, phoneField);
    expect(await phoneField.getAttribute('autocomplete')).toBe('tel');
    await phoneField.fill(`${phone.slice(0, 3)} ${phone.slice(3, 7)} ${phone.slice(7)}`);
    await page.screenshot({ path: '/tmp/h2-sms-set-phone.png' });
    await page.getByRole('button', { name: 'Send code' }).click();

    const codeField = page.getByLabel('Text message code');
    await visible(page, codeField);
    expect(await codeField.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await page.getByRole('status').first().textContent()).toContain(phone.slice(-4));
    const code = await nextTextedCode(phone);
    // A wrong code is announced and keeps the user on the step.
    await codeField.fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify and enable' }).click();
    await visible(page, page.getByRole('alert'));
    expect(await page.getByRole('alert').first().textContent()).toContain('Invalid code');
    await page.screenshot({ path: '/tmp/h2-sms-verify-code.png' });
    await codeField.fill(code);
    await page.getByRole('button', { name: 'Verify and enable' }).click();
    await saveRecoveryCodes(page, '/tmp/h2-sms-recovery-codes.png');
    await expectSignedInAs(page, email);
  });

  it('signs in with the password and a texted code', async () => {
    await signOut(page);
    await signIn(page, email, PASSWORD);
    await visible(page, page.getByRole('heading', { name: 'Two-factor authentication' }));
    await page.screenshot({ path: '/tmp/h2-sms-login-choose.png' });
    await page.getByRole('button', { name: 'Text me a code' }).click();
    const codeField = page.getByLabel('Text message code');
    await visible(page, codeField);
    await codeField.fill(await nextTextedCode(phone));
    await page.screenshot({ path: '/tmp/h2-sms-login-code.png' });
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectSignedInAs(page, email);
  });

  it('opened directly (no sign-in), the reset cannot replace the phone that confirms sign-ins: the proven emailed code is refused with the way on', async () => {
    const direct = await env.browser.newContext();
    const other = await direct.newPage();
    await other.goto(`${env.server.url}/account/reset-phone-number`);
    await visible(other, other.getByRole('heading', { name: 'Reset phone number' }));
    await visible(other, other.getByText(/sign in with your password first/));
    await other.screenshot({ path: '/tmp/h9-reset-phone-direct.png' });
    await other.getByLabel('Email').fill(email);
    await other.getByRole('button', { name: 'Email me a code' }).click();
    const emailCode = other.getByLabel('Email code');
    await visible(other, emailCode);
    refusedMail = await newMail(email, resetSubject, null);
    await emailCode.fill(/\b(\d{6})\b/.exec(refusedMail)![1]!);
    await other.getByRole('button', { name: 'Continue' }).click();
    const alert = other.getByRole('alert');
    await visible(other, alert);
    expect(await alert.textContent()).toContain("Sign in with your password first, then choose 'Lost your phone?'");
    expect(await alert.textContent()).toContain('recovery codes');
    // Still on the emailed-code step, with the way back to sign in.
    expect(await other.getByLabel('Email code').count()).toBe(1);
    await other.screenshot({ path: '/tmp/h9-reset-phone-refused.png' });
    await other.getByRole('link', { name: 'Back to sign in' }).click();
    await other.waitForURL(/\/account\/login/);
    await direct.close();
  }, 60_000);

  it('a lost phone from the sign-in\'s SMS step: "Lost your phone?", email, emailed code, new number, texted code; the next sign-in texts the new number', async () => {
    await signOut(page);
    await signIn(page, email, PASSWORD);
    await page.getByRole('button', { name: 'Text me a code' }).click();
    await visible(page, page.getByLabel('Text message code'));
    // The code went to the phone the user no longer has.
    await nextTextedCode(phone);
    const lost = page.getByRole('link', { name: 'Lost your phone?' });
    await visible(page, lost);
    await page.screenshot({ path: '/tmp/h9-sms-step-lost-phone.png' });
    await lost.click();
    await page.waitForURL(/\/account\/reset-phone-number/);
    // The pending sign-in's mfaToken stays in the store: never in the address.
    expect(new URL(page.url()).search).toBe('');
    await visible(page, page.getByRole('heading', { name: 'Reset phone number' }));
    // The email typed at sign-in is carried over; the "sign in first" hint is not shown.
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    expect(await page.getByText(/sign in with your password first/).count()).toBe(0);
    await page.screenshot({ path: '/tmp/h2-reset-phone-1-email.png' });
    await page.getByRole('button', { name: 'Email me a code' }).click();

    const emailCode = page.getByLabel('Email code');
    await visible(page, emailCode);
    const mail = await newMail(email, resetSubject, refusedMail);
    await emailCode.fill(/\b(\d{6})\b/.exec(mail)![1]!);
    await page.screenshot({ path: '/tmp/h2-reset-phone-2-email-code.png' });
    await page.getByRole('button', { name: 'Continue' }).click();

    const newPhoneField = page.getByLabel('New phone number');
    await visible(page, newPhoneField);
    await newPhoneField.fill(newPhone);
    await page.screenshot({ path: '/tmp/h2-reset-phone-3-new-number.png' });
    await page.getByRole('button', { name: 'Send code' }).click();
    const smsField = page.getByLabel('Text message code');
    await visible(page, smsField);
    await smsField.fill(await nextTextedCode(newPhone));
    await page.screenshot({ path: '/tmp/h2-reset-phone-4-sms-code.png' });
    await page.getByRole('button', { name: 'Change phone number' }).click();
    await visible(page, page.getByRole('heading', { name: 'Phone number changed' }));
    await page.screenshot({ path: '/tmp/h2-reset-phone-5-done.png' });

    await page.getByRole('link', { name: 'Sign in' }).click();
    await signIn(page, email, PASSWORD);
    await page.getByRole('button', { name: 'Text me a code' }).click();
    const codeField = page.getByLabel('Text message code');
    await visible(page, codeField);
    await codeField.fill(await nextTextedCode(newPhone));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectSignedInAs(page, email);
    // The lost phone got only the notice of the change, no code.
    const texts = (await (await fetch(`${env.server.url}/dev/mailbox.json`)).json()) as OutboxEntry[];
    const toLostPhone = texts.filter((m) => m.channel === 'sms' && m.to === phone && !readTexts.has(m.id));
    expect(toLostPhone).toHaveLength(1);
    expect(toLostPhone[0]!.text).toMatch(/was changed to \+44•+\d{4}\./);
  }, 120_000);
});

describe('WebAuthn as a second factor', () => {
  it("forceTwoFactor with this device's authenticator, then sign-in with it (platform, internal)", async () => {
    const context = await env.browser.newContext();
    const { page, cdp, authenticatorId } = await pageWithAuthenticator(context, 'internal');
    const email = `key-mfa-${Date.now()}@example.com`;
    await signUpAndActivate(page, env.server.url, env.server.url, email);
    await signOut(page);

    await signIn(page, email, PASSWORD);
    await page.getByRole('button', { name: 'Set up this device' }).click();
    await saveRecoveryCodes(page, '/tmp/h2-webauthn-recovery-codes.png');
    await expectSignedInAs(page, email);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.rpId).toBe('localhost');

    await signOut(page);
    await signIn(page, email, PASSWORD);
    const useKey = page.getByRole('button', { name: 'Use this device' });
    await visible(page, useKey);
    await page.screenshot({ path: '/tmp/h2-webauthn-verify.png' });
    await useKey.click();
    await expectSignedInAs(page, email);
    const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(after.credentials[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount);
    await context.close();
  });

  it('forceTwoFactor with a USB security key (cross-platform), then sign-in with it', async () => {
    const context = await env.browser.newContext();
    const { page, cdp, authenticatorId } = await pageWithAuthenticator(context, 'usb');
    const email = `usb-mfa-${Date.now()}@example.com`;
    await signUpAndActivate(page, env.server.url, env.server.url, email);
    await signOut(page);

    await signIn(page, email, PASSWORD);
    await page.getByRole('button', { name: 'Set up a security key' }).click();
    await saveRecoveryCodes(page);
    await expectSignedInAs(page, email);
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);

    await signOut(page);
    await signIn(page, email, PASSWORD);
    await page.getByRole('button', { name: 'Use your security key' }).click();
    await expectSignedInAs(page, email);
    await context.close();
  });
});
