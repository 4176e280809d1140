/**
 * Activation outside the browser that signed up: the set-password form. This is also the
 * browser-side proof of the pre-sign-up takeover fix: a link opened anywhere but the signing-up
 * browser never activates a password somebody else chose at sign-up.
 */
import { describe, expect, it } from 'vitest';
import { screenshotPath } from './support/browser';
import { useBrowserAndServer } from './support/server';
import { linkIn, waitForMail } from './support/mailbox';
import { PASSWORD, signIn, visible } from './support/journey';

const env = useBrowserAndServer();

describe('activation from another browser', () => {
  it('asks the mailbox owner to choose the password, and the sign-up password stays unusable', async () => {
    const email = `other-device-${Date.now()}@example.com`;
    // Someone signs up in one browser...
    const signUpBrowser = await env.browser.newContext();
    const a = await signUpBrowser.newPage();
    await a.goto(`${env.server.url}/account/sign-up`);
    await visible(a, a.getByRole('heading', { name: 'Create your account' }));
    await a.getByLabel('Name', { exact: true }).fill('Mallory');
    await a.getByLabel('Company name').fill('Mallory Inc');
    await a.getByLabel('Email').fill(email);
    await a.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await a.getByRole('button', { name: 'Sign up' }).click();
    await visible(a, a.getByRole('heading', { name: 'Check your email' }));

    // ...and the link is opened in another one.
    const link = linkIn(await waitForMail(env.server.url, email, /activate/i), '/account/activate');
    const owner = await env.browser.newContext();
    const b = await owner.newPage();
    await b.goto(link);
    await visible(b, b.getByRole('heading', { name: 'Activate your account' }));
    await visible(b, b.getByLabel('Confirm password'));
    await b.getByLabel('Password', { exact: true }).fill('owner chose this one 123');
    await b.getByLabel('Confirm password').fill('owner chose this one 123');
    await b.screenshot({ path: screenshotPath('activate-set-password') });
    await b.getByRole('button', { name: 'Activate' }).click();
    await b.waitForURL(`${env.server.url}/`, { timeout: 15_000 });
    await visible(b, b.getByTestId('signed-in-user'));

    // The password typed at sign-up in the first browser does not open the account.
    await a.goto(`${env.server.url}/account/login`);
    await signIn(a, email, PASSWORD);
    await visible(a, a.getByRole('alert'));
    expect(await a.getByRole('alert').first().textContent()).toContain('Invalid email or password');
    await signUpBrowser.close();
    await owner.close();
  });
});
