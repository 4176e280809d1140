/**
 * Invitations in Chromium against the built server: an admin (signed up through the API) invites a
 * new user through the API; the invitation email arrives in the real dev outbox; the invitee opens
 * the link, is greeted by name, chooses a password and lands signed in. The code variant
 * (INVITATION_STRATEGY=code) needs the code printed in the email; a link without its token shows
 * the invalid step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVATION_REDIRECT_DELAY_MS } from '@gatehouse/shared/constants';
import { linkIn, waitForMail } from './support/mailbox';
import { startGatehouse, useBrowserAndServer, type RunningServer } from './support/server';
import { installClock, passDelay, PASSWORD, visible } from './support/journey';

const INVITEE_PASSWORD = 'an invited passphrase for grace 3';

async function api<T = any>(baseUrl: string, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** A tenant admin made through the API: sign-up, the emailed activation link, activation. */
async function adminOf(baseUrl: string, email: string): Promise<{ accessToken: string; tenantId: string }> {
  const signUp = await api(baseUrl, 'POST', '/identity/resources/users/v1/signUp', { email, password: PASSWORD, name: 'Ada Admin', companyName: 'Analytical Engines' });
  expect(signUp.status).toBe(200);
  const link = new URL(linkIn(await waitForMail(baseUrl, email, /activate/i), '/account/activate'));
  const activated = await api(baseUrl, 'POST', '/identity/resources/users/v1/activate', { userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), password: PASSWORD });
  expect(activated.status).toBe(200);
  return { accessToken: activated.body.accessToken, tenantId: activated.body.tenantId };
}

const env = useBrowserAndServer();

describe('accept an invitation by link', () => {
  it('admin invites via the API; the invitee opens the emailed link, sets a password and is signed in', async () => {
    const url = env.server.url;
    const admin = await adminOf(url, `admin-${Date.now()}@example.com`);
    const email = `grace-${Date.now()}@example.com`;
    const invited = await api(url, 'POST', '/identity/resources/users/v1', { email, name: 'Grace Hopper' }, admin.accessToken);
    expect(invited.status).toBe(201);

    // The tenant is named after the admin's email domain (the company name waits on a browser-bound activation).
    const mail = await waitForMail(url, email, /invited to join example\.com/);
    const link = linkIn(mail, '/account/invitation/accept');
    expect(new URL(link).origin).toBe(url);

    const context = await env.browser.newContext();
    const page = await context.newPage();
    await installClock(page);
    await page.goto(link);
    await visible(page, page.getByRole('heading', { name: 'Accept invitation' }));
    await visible(page, page.getByText('Hi Grace Hopper, you’re invited to join'));
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    const password = page.getByLabel('Password', { exact: true });
    expect(await password.getAttribute('autocomplete')).toBe('new-password');
    await page.screenshot({ path: '/tmp/h3-invitation-accept.png' });

    // A mismatch is caught before any call, and shown at the confirmation field.
    await password.fill(INVITEE_PASSWORD);
    await page.getByLabel('Confirm password').fill('something else');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await visible(page, page.getByText('Passwords do not match'));
    expect(await page.getByLabel('Confirm password').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Confirm password').fill(INVITEE_PASSWORD);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await visible(page, page.getByText('Welcome to example.com! Your account is ready'));
    await page.screenshot({ path: '/tmp/h3-invitation-success.png' });

    // Signed in, navigated home like an activation (after 5 s, let pass on the page's clock), in the inviting tenant.
    await passDelay(page, ACTIVATION_REDIRECT_DELAY_MS);
    await page.waitForURL(`${url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    expect(await page.getByTestId('signed-in-user').textContent()).toContain(email);
    const tenantId = await page.evaluate(() => (window as any).Gatehouse.getApp().getState().user.tenantId);
    expect(tenantId).toBe(admin.tenantId);

    // The link is single use.
    await page.goto(link);
    await visible(page, page.getByRole('alert'));
    expect(await page.getByRole('alert').first().textContent()).toContain('This invitation has already been accepted');
    await context.close();
  });

  it('an existing account accepts without choosing a password, joins the tenant and is sent to sign in', async () => {
    const url = env.server.url;
    const admin = await adminOf(url, `admin-join-${Date.now()}@example.com`);
    const bobEmail = `bob-${Date.now()}@example.com`;
    await adminOf(url, bobEmail);
    expect((await api(url, 'POST', '/identity/resources/users/v1', { email: bobEmail, name: 'Bob' }, admin.accessToken)).status).toBe(201);
    const link = linkIn(await waitForMail(url, bobEmail, /invited/i), '/account/invitation/accept');

    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(link);
    await visible(page, page.getByText('Accept to join it with your existing account.'));
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await visible(page, page.getByText('You’ve joined example.com. Sign in with your account to continue.'));
    await page.screenshot({ path: '/tmp/h3-invitation-joined.png' });
    await page.waitForURL(/\/account\/login/, { timeout: 15_000 });
    await context.close();
  });

  it('a link without its token shows the invalid step and offers a new invitation email', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${env.server.url}/account/invitation/accept?userId=someone`);
    await visible(page, page.getByRole('heading', { name: 'Accept invitation' }));
    await visible(page, page.getByRole('alert'));
    expect(await page.getByRole('alert').first().textContent()).toContain('This invitation link is incomplete');
    await visible(page, page.getByRole('button', { name: 'Send a new invitation' }));
    await page.screenshot({ path: '/tmp/h3-invitation-invalid.png' });
    await context.close();
  });
});

describe('accept an invitation with a one-time code (INVITATION_STRATEGY=code)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startGatehouse({ INVITATION_STRATEGY: 'code' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('the link opens the code screen; a wrong code is refused on the form, the emailed code signs in', async () => {
    const url = server.url;
    const admin = await adminOf(url, `admin-code-${Date.now()}@example.com`);
    const email = `linus-${Date.now()}@example.com`;
    expect((await api(url, 'POST', '/identity/resources/users/v1', { email, name: 'Linus' }, admin.accessToken)).status).toBe(201);
    const mail = await waitForMail(url, email, /invited/i);
    const link = linkIn(mail, '/account/invitation/code');
    // The code stands on its own line under the sentence that introduces it.
    const code = /invitation code[^\n]*\n(\d{6})\n/.exec(mail.text)![1]!;
    expect(link).not.toContain(code);

    const context = await env.browser.newContext();
    const page = await context.newPage();
    await installClock(page);
    await page.goto(link);
    await visible(page, page.getByText('Hi Linus, you’re invited to join'));
    const codeField = page.getByLabel('Invitation code');
    expect(await codeField.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await codeField.getAttribute('inputmode')).toBe('numeric');
    await codeField.fill(code === '000000' ? '000001' : '000000');
    await page.getByLabel('Password', { exact: true }).fill(INVITEE_PASSWORD);
    await page.getByLabel('Confirm password').fill(INVITEE_PASSWORD);
    await page.screenshot({ path: '/tmp/h3-invitation-code.png' });
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await visible(page, page.getByRole('alert'));
    expect(await page.getByRole('alert').first().textContent()).toContain('The code is invalid or has expired');
    await page.screenshot({ path: '/tmp/h3-invitation-code-wrong.png' });

    // Back on validate: the same form takes the right code.
    await codeField.fill(code);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await visible(page, page.getByText('Your account is ready'));
    await passDelay(page, ACTIVATION_REDIRECT_DELAY_MS);
    await page.waitForURL(`${url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    expect(await page.getByTestId('signed-in-user').textContent()).toContain(email);
    await context.close();
  });
});
