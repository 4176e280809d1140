/**
 * Captcha in Chromium, with real peers on loopback (server/src/test/fake-recaptcha.ts): a
 * reCAPTCHA-compatible verify server, and a script implementing the grecaptcha v3 API served from
 * a second origin. The demo page runs under its strict CSP (nonce + 'strict-dynamic'), so the script
 * loads only if the login box adds it the way such a page allows.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRecaptcha, type FakeRecaptcha } from '../server/src/test/fake-recaptcha';
import { PASSWORD, signIn, signUpAndActivate, visible } from './support/journey';
import { closeContexts, startGatehouse, workerBrowser, type RunningServer } from './support/server';

const LOAD_ERROR = 'The captcha could not be loaded. Check your connection or allow it in your content blocker, then try again.';

let browser: Browser;
let fake: FakeRecaptcha;
let server: RunningServer;
const email = `captcha-${Date.now()}@example.com`;

beforeAll(async () => {
  browser = await workerBrowser();
  fake = await startFakeRecaptcha();
  server = await startGatehouse(fake.env());
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
  await fake?.stop();
});

/** A fresh page that records CSP refusals and every URL it requested. */
async function newPage(): Promise<{ page: Page; cspErrors: string[]; requested: string[]; close(): Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cspErrors: string[] = [];
  const requested: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  page.on('request', (r) => requested.push(r.url()));
  return { page, cspErrors, requested, close: () => context.close() };
}

/** The role of the focused element inside the login box's shadow root (errors take focus). */
const focusedRole = (page: Page) => page.evaluate(() => document.querySelector('gatehouse-login-box')?.shadowRoot?.activeElement?.getAttribute('role') ?? null);

/** The action a fake token was made for (its payload is readable, like a JWT's). */
const actionOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')).action as string;

describe('captcha policy on', () => {
  it('signs up and signs in through the login box with tokens the verify server accepts, the script loaded under the strict CSP', async () => {
    const { page, cspErrors, close } = await newPage();
    // The demo page's strict CSP, plus the frames reCAPTCHA uses (none for this fake, allowed anyway).
    const csp = (await fetch(`${server.url}/account/login`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'nonce-");
    expect(csp).toContain("'strict-dynamic'");
    expect(csp).toContain(`frame-src ${fake.origin}`);
    await signUpAndActivate(page, server.url, server.url, email);
    const signUpCall = fake.verifyCalls.find((c) => actionOf(c.response) === 'signup');
    expect(signUpCall).toMatchObject({ secret: fake.secret, remoteip: '127.0.0.1' });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);
    const before = fake.verifyCalls.length;
    await signIn(page, email, PASSWORD);
    await page.waitForURL(`${server.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    expect(await page.getByTestId('signed-in-user').textContent()).toContain(email);

    const loginCalls = fake.verifyCalls.slice(before);
    expect(loginCalls.map((c) => actionOf(c.response))).toEqual(['login']);
    expect(loginCalls[0]).toMatchObject({ secret: fake.secret, remoteip: '127.0.0.1' });
    // One script, from the other origin, with render=<site key> and the page's nonce.
    expect(fake.scriptRequests.every((r) => r === `/recaptcha/api.js?render=${fake.siteKey}`)).toBe(true);
    const script = await page.evaluate((origin) => {
      const found = Array.from(document.querySelectorAll('script')).filter((s) => s.src.startsWith(origin));
      const loader = Array.from(document.querySelectorAll('script')).find((s) => s.src.includes('/cdn/loader/'));
      return { count: found.length, nonce: found[0]?.nonce, pageNonce: loader?.nonce };
    }, fake.origin);
    expect(script.count).toBe(1);
    expect(script.nonce).toBeTruthy();
    expect(script.nonce).toBe(script.pageNonce);
    expect(cspErrors).toEqual([]);
    await close();
  });

  it('shows the error when the verify server rejects the token, and signs in on the next try once it accepts', async () => {
    const { page, close } = await newPage();
    fake.behave({ verify: 'reject' });
    try {
      await page.goto(`${server.url}/account/login`);
      await signIn(page, email, PASSWORD);
      const alert = page.getByRole('alert');
      await visible(page, alert);
      expect(await alert.first().textContent()).toBe('The captcha check failed. Please try again.');
      expect(await focusedRole(page)).toBe('alert');
      await page.screenshot({ path: '/tmp/h4-captcha-rejected.png' });
      expect(page.url()).toContain('/account/login');
    } finally {
      fake.behave({ verify: 'normal' });
    }
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    await close();
  });

  it('says so when the captcha script cannot load, and sends no sign-in', async () => {
    const { page, close } = await newPage();
    fake.behave({ script: 'missing' });
    const before = fake.verifyCalls.length;
    try {
      await page.goto(`${server.url}/account/login`);
      await signIn(page, email, PASSWORD);
      const alert = page.getByRole('alert');
      await visible(page, alert);
      expect(await alert.first().textContent()).toBe(LOAD_ERROR);
      expect(await focusedRole(page)).toBe('alert');
      await page.screenshot({ path: '/tmp/h4-captcha-load-error.png' });
    } finally {
      fake.behave({ script: 'ok' });
    }
    expect(fake.verifyCalls.length).toBe(before);
    expect(page.url()).toContain('/account/login');
    await close();
  });
});

describe('captcha policy off', () => {
  let plain: RunningServer;
  beforeAll(async () => {
    plain = await startGatehouse();
  });
  afterAll(async () => {
    await plain?.stop();
  });

  it('requests no captcha script and no captcha chunk while signing up and in', async () => {
    const { page, requested, close } = await newPage();
    const scriptsBefore = fake.scriptRequests.length;
    const other = `nocaptcha-${Date.now()}@example.com`;
    await signUpAndActivate(page, plain.url, plain.url, other);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);
    await signIn(page, other, PASSWORD);
    await page.waitForURL(`${plain.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));

    expect(requested.some((url) => url.includes('/captcha-policy/public'))).toBe(true);
    expect(requested.filter((url) => url.startsWith(fake.origin) || /recaptcha/i.test(url))).toEqual([]);
    expect(fake.scriptRequests.length).toBe(scriptsBefore);
    expect(await page.evaluate(() => typeof (window as { grecaptcha?: unknown }).grecaptcha)).toBe('undefined');
    await close();
  });
});
