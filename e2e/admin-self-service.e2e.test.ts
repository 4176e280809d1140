/**
 * Self-service security in the admin portal's Privacy section, in Chromium against the real server
 * (issue 11 section 3), at 1280×800 and at 390×844: change the password (the new one signs in),
 * change the email (the new address proves itself with the emailed code; the old one is told), add
 * an authenticator app from the portal (QR code and secret, the app's code, recovery codes shown
 * once), and ask for new recovery codes, which needs a recent step-up: the portal offers the login
 * box's step-up route, coming back to the page. Each viewport must not scroll sideways.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { appCode } from '../server/src/test/rfc6238';
import { expectAccessible } from './support/axe';
import { screenshotPath } from './support/browser';
import { PASSWORD, signUpThroughApi, visible } from './support/journey';
import { waitForMail, type OutboxMessage } from './support/mailbox';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();
const NEW_PASSWORD = 'another long passphrase 77';

async function openPrivacy(page: Page) {
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  if (!(await portal.isVisible())) {
    await page.getByRole('button', { name: 'Admin portal' }).click();
    await visible(page, portal);
  }
  const wide = await portal.locator('.gh-ap-nav-full').isVisible();
  if (wide) await portal.locator('.gh-ap-nav-full').getByRole('button', { name: 'Privacy', exact: true }).click();
  else await portal.getByRole('navigation').locator('select').selectOption('privacy');
  await visible(page, portal.getByRole('heading', { name: 'Privacy', level: 2 }));
  return portal;
}

/** The page scrolls sideways (the width of the document past the window's), 0 when it fits. */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function mailsTo(baseUrl: string, to: string): Promise<OutboxMessage[]> {
  return ((await (await fetch(`${baseUrl}/dev/mailbox.json`)).json()) as OutboxMessage[]).filter((m) => m.to.includes(to));
}

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  it(`changes the password and the email, adds an authenticator app and is sent to step up for new recovery codes, at ${viewport.width}×${viewport.height}`, async () => {
    const { browser, server } = ctx;
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const stamp = `${viewport.width}-${Date.now()}`;
    const email = `self+${stamp}@example.com`;
    const newEmail = `moved+${stamp}@example.org`;
    await signUpThroughApi(page, server.url, email);
    let portal = await openPrivacy(page);

    // Password: the current one and the new one twice; the new one then signs in.
    await portal.getByRole('button', { name: 'Change password' }).click();
    let dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.getByLabel('Current password').fill(PASSWORD);
    await dialog.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await dialog.getByLabel('New password again').fill(NEW_PASSWORD);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await visible(page, portal.locator('.gh-ap-toast').getByText('Password changed'));
    const login = await fetch(`${server.url}/identity/resources/auth/v1/user`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: NEW_PASSWORD }) });
    expect(login.status).toBe(200);

    // Email: nothing changes until the new address's code comes back; the old address is told.
    await portal.getByRole('button', { name: 'Change email' }).click();
    dialog = page.getByRole('dialog', { name: 'Change email' });
    await dialog.getByLabel('New email address').fill(newEmail);
    await dialog.getByRole('button', { name: 'Send code' }).click();
    const codeField = dialog.getByLabel('Code from the email');
    await visible(page, codeField);
    await expectAccessible(page, `self-service ${viewport.width}: email code step`);
    const mail = await waitForMail(server.url, newEmail, /./);
    const code = mail.text.match(/\b\d{6}\b/)?.[0];
    expect(code).toBeDefined();
    expect(await portal.locator('.gh-ap-security-value').textContent()).toBe(email);
    await codeField.fill('000000' === code ? '111111' : '000000');
    await dialog.getByRole('button', { name: 'Change email' }).click();
    await visible(page, dialog.getByRole('alert'));
    await codeField.fill(code!);
    await dialog.getByRole('button', { name: 'Change email' }).click();
    await visible(page, portal.locator('.gh-ap-toast').getByText(`Your email address is now ${newEmail}. We told your old address.`));
    await visible(page, portal.locator('.gh-ap-security-value').getByText(newEmail, { exact: true }));
    await expect.poll(async () => (await mailsTo(server.url, email)).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);

    // An authenticator app, added here: the QR code and secret, then the app's code, then the codes once.
    await portal.getByRole('button', { name: 'Add a second factor' }).click();
    dialog = page.getByRole('dialog', { name: 'Add a second factor' });
    await dialog.getByRole('radio', { name: /Authenticator app/ }).check();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await visible(page, dialog.getByRole('img', { name: /QR code/ }));
    const secret = (await dialog.locator('code.gh-ap-secret').textContent())!.trim();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: screenshotPath(`admin-self-service-authenticator-${viewport.width}`) });
    await expectAccessible(page, `self-service ${viewport.width}: authenticator step`);
    await dialog.getByLabel('Code from the app').fill(appCode(secret, Date.now()));
    await dialog.getByRole('button', { name: 'Verify' }).click();
    const codes = page.getByRole('dialog', { name: 'Save your recovery codes' });
    await visible(page, codes);
    expect(await codes.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').count()).toBeGreaterThanOrEqual(8);
    await page.screenshot({ path: screenshotPath(`admin-self-service-codes-${viewport.width}`) });
    await codes.getByRole('button', { name: 'I have saved them' }).click();
    await codes.waitFor({ state: 'detached' });
    await visible(page, portal.getByRole('table', { name: 'Your second factors' }).getByRole('row', { name: /Authenticator app/ }));

    // New recovery codes need a recent step-up: the portal sends the user to prove it, then back here.
    await portal.getByRole('button', { name: 'New recovery codes' }).click();
    dialog = page.getByRole('dialog', { name: 'New recovery codes' });
    await dialog.getByRole('button', { name: 'Make new codes' }).click();
    const stepUp = page.getByRole('dialog', { name: 'Verify it’s you' });
    await visible(page, stepUp);
    const here = page.url();
    await stepUp.getByRole('button', { name: 'Verify it’s you' }).click();
    await page.waitForURL(/\/account\/step-up\?/);
    const target = new URL(page.url());
    expect(target.searchParams.get('redirectUrl')).toBe(here);
    expect(Number(target.searchParams.get('maxAge'))).toBeGreaterThan(0);

    expect(errors.filter((e) => !/40[0134]|Failed to load resource/.test(e))).toEqual([]);
    await context.close();
  });
}
