/**
 * Joining a tenant by its shareable invite link, in Chromium against the real server: an admin
 * creates the link through the API; a newcomer opens it, is greeted with the tenant's name, signs up
 * (no company of their own), activates from the dev outbox and lands in that tenant with its default
 * role; an existing user signs in through the link and joins; a deleted link says
 * 'We couldn't verify your invitation'.
 */
import { expect, it } from 'vitest';
import { ACTIVATION_REDIRECT_DELAY_MS } from '@gatehouse/shared/constants';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './support/browser';
import { linkIn, waitForMail } from './support/mailbox';
import { installClock, passDelay, PASSWORD, signIn, signUpThroughApi, visible } from './support/journey';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();

type Claims = { sub: string; tenantId: string; tenantIds: string[]; roles: string[] };
const claimsOf = (jwt: string): Claims => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Claims;

/** The signed-in user's access token, from the running app. */
function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => (globalThis as unknown as { Gatehouse: { getApp(): { getState(): { user: { accessToken: string } } } } }).Gatehouse.getApp().getState().user.accessToken);
}

async function api(method: string, url: string, token: string | null, body?: unknown) {
  const res = await fetch(url, { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** A fresh browser (no cookies, no storage), like someone the link was shared with. */
async function stranger(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1024, height: 860 } });
  return context.newPage();
}

it('lets a newcomer sign up and an existing user sign in through the link, joining its tenant; a deleted link is refused', async () => {
  const { browser, server } = ctx;
  const stamp = Date.now();
  const admin = await stranger(browser);
  await signUpThroughApi(admin, server.url, `owner+${stamp}@example.com`);
  const adminToken = await accessToken(admin);
  const tenantId = claimsOf(adminToken).tenantId;
  const created = await api('POST', `${server.url}/identity/resources/tenants/invites/v1/user`, adminToken, {});
  expect(created.status).toBe(201);
  expect(new URL(created.body.url).pathname + new URL(created.body.url).search).toBe(`/account/sign-up?invitationToken=${created.body.token}`);
  const link = `${server.url}/account/sign-up?invitationToken=${encodeURIComponent(created.body.token)}`;

  // A newcomer: greeted with the tenant's name, signs up without a company, activates, lands in the tenant.
  const newcomer = await stranger(browser);
  const errors: string[] = [];
  newcomer.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await newcomer.goto(link);
  await visible(newcomer, newcomer.getByText('You’ve been invited to join Analytical Engines'));
  await visible(newcomer, newcomer.getByRole('heading', { name: 'Create your account' }));
  expect(await newcomer.getByLabel('Company name').count()).toBe(0);
  const email = `joiner+${stamp}@example.com`;
  await newcomer.getByLabel('Name', { exact: true }).fill('Grace Hopper');
  await newcomer.getByLabel('Email').fill(email);
  await newcomer.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await newcomer.screenshot({ path: '/tmp/invite-link-signup.png' });
  await newcomer.screenshot({ path: screenshotPath('invite-link-signup') });
  await newcomer.getByRole('button', { name: 'Sign up' }).click();
  await visible(newcomer, newcomer.getByRole('heading', { name: 'Check your email' }));
  const mail = await waitForMail(server.url, email, /activate/i);
  await installClock(newcomer);
  await newcomer.goto(linkIn(mail, '/account/activate'));
  await visible(newcomer, newcomer.getByText(/activated/i));
  // Activation goes on by itself after the seed's delay, let pass on the page's clock.
  await passDelay(newcomer, ACTIVATION_REDIRECT_DELAY_MS);
  await newcomer.waitForURL(`${server.url}/`, { timeout: 15_000 });
  await visible(newcomer, newcomer.getByTestId('signed-in-user'));
  const joined = claimsOf(await accessToken(newcomer));
  expect([joined.tenantId, joined.tenantIds, joined.roles]).toEqual([tenantId, [tenantId], ['ReadOnly']]);
  const members = await api('GET', `${server.url}/identity/resources/users/v3?_filter=${encodeURIComponent('joiner+')}`, adminToken);
  expect(members.body.items.map((u: { email: string }) => u.email)).toContain(email);

  // An existing user (with a tenant of their own) signs in through the link and lands in the link's tenant.
  const existingEmail = `existing+${stamp}@example.com`;
  expect((await api('POST', `${server.url}/identity/resources/users/v1/signUp`, null, { email: existingEmail, password: PASSWORD, name: 'Existing', companyName: 'Own Co' })).status).toBe(200);
  const activation = new URL(linkIn(await waitForMail(server.url, existingEmail, /activate/i), '/account/activate'));
  const activated = await api('POST', `${server.url}/identity/resources/users/v1/activate`, null, { userId: activation.searchParams.get('userId'), token: activation.searchParams.get('token'), password: PASSWORD });
  expect(activated.status).toBe(200);
  const ownTenant = claimsOf(activated.body.accessToken).tenantId;
  const existing = await stranger(browser);
  await existing.goto(`${server.url}/account/login?invitationToken=${encodeURIComponent(created.body.token)}`);
  await visible(existing, existing.getByText('You’ve been invited to join Analytical Engines'));
  await existing.screenshot({ path: '/tmp/invite-link-login.png' });
  await existing.screenshot({ path: screenshotPath('invite-link-login') });
  await signIn(existing, existingEmail, PASSWORD);
  await existing.waitForURL(`${server.url}/`, { timeout: 15_000 });
  await visible(existing, existing.getByTestId('signed-in-user'));
  const signedIn = claimsOf(await accessToken(existing));
  expect(signedIn.tenantId).toBe(tenantId);
  expect(signedIn.roles).toEqual(['ReadOnly']);
  expect(new Set(signedIn.tenantIds)).toEqual(new Set([ownTenant, tenantId]));
  const audits = await api('GET', `${server.url}/audits?action=${encodeURIComponent('User joined by invite link')}`, adminToken);
  expect(audits.body.total).toBe(2);

  // Error path: the admin deletes the link; opening it now says so, and the form still works as usual.
  expect((await api('DELETE', `${server.url}/identity/resources/tenants/invites/v1/user`, adminToken)).status).toBe(204);
  const late = await stranger(browser);
  await late.goto(link);
  const alert = late.getByRole('alert');
  await visible(late, alert);
  expect(await alert.textContent()).toBe("We couldn't verify your invitation");
  await visible(late, late.getByRole('heading', { name: 'Create your account' }));
  await late.screenshot({ path: '/tmp/invite-link-dead.png' });
  await late.screenshot({ path: screenshotPath('invite-link-dead') });
  expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
});
