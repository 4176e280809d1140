/**
 * The host page's `locale` and `theme` options reach the login box and the API: a browser that
 * prefers English shows German when the host says `locale: 'de'`, the calls it makes carry
 * X-Gatehouse-Locale so the reset email is German too, and `theme: 'dark'` wins over a light
 * system preference. (The demo page reads both options from its own query string.)
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ApiPaths } from '@gatehouse/shared/wire';
import { linkIn, waitForMail } from './support/mailbox';
import { useBrowserAndServer } from './support/server';
import { PASSWORD, visible } from './support/journey';

const env = useBrowserAndServer();

async function post(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${env.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
}

/** An activated account made through the HTTP API, with no language of its own (no headers asked one). */
async function activatedAccount(email: string): Promise<void> {
  await post(ApiPaths.signUp, { email, password: PASSWORD, name: 'Grace Hopper' });
  const link = new URL(linkIn(await waitForMail(env.server.url, email, /activate/i), '/account/activate'));
  await post(ApiPaths.activate, { userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), password: PASSWORD });
}

/** The colour scheme the login box's mount element carries. */
function schemeOf(page: Page): Promise<string | null> {
  return page.evaluate(() => document.querySelector('gatehouse-login-box')?.shadowRoot?.querySelector('[data-gh-scheme]')?.getAttribute('data-gh-scheme') ?? null);
}

/** The colour scheme the login box's styles resolved to (light or dark). */
function computedSchemeOf(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const root = document.querySelector('gatehouse-login-box')?.shadowRoot?.querySelector('.gh-root');
    return root ? getComputedStyle(root).colorScheme : null;
  });
}

it("shows the host's locale and theme over the browser's, and the emails it causes follow the locale", async () => {
  const email = `host-options-${Date.now()}@example.com`;
  await activatedAccount(email);
  const context = await env.browser.newContext({ locale: 'en-US', colorScheme: 'light' });
  const page = await context.newPage();
  const localeHeaders: (string | undefined)[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.includes('/passwords/reset') && r.method() === 'POST') localeHeaders.push(r.headers()['x-gatehouse-locale']);
  });
  try {
    await page.goto(`${env.server.url}/account/login?locale=de&theme=dark`);
    await visible(page, page.getByRole('heading', { name: 'Anmelden' }));
    expect(await schemeOf(page)).toBe('dark');
    expect(await computedSchemeOf(page)).toBe('dark');

    await page.goto(`${env.server.url}/account/forget-password?locale=de&theme=dark`);
    await page.getByLabel('E-Mail-Adresse').fill(email);
    await page.getByRole('button', { name: 'Passwort zurücksetzen' }).click();
    // Where texted codes are on, the box first asks how to reset: by email here.
    const byEmail = page.getByRole('button', { name: 'Link per E-Mail' });
    const sent = page.getByRole('heading', { name: 'Prüfen Sie Ihre E-Mails' });
    await visible(page, byEmail.or(sent));
    if (await byEmail.isVisible()) await byEmail.click();
    await visible(page, page.getByRole('heading', { name: 'Prüfen Sie Ihre E-Mails' }));
    expect(localeHeaders).toEqual(['de']);
    const mail = await waitForMail(env.server.url, email, /Passwort/);
    expect(mail.subject).toMatch(/^Setzen Sie Ihr Passwort bei .+ zurück$/);
  } finally {
    await context.close();
  }
});

it("follows the browser's language and scheme when the host sets neither", async () => {
  const context = await env.browser.newContext({ locale: 'es-ES', colorScheme: 'dark' });
  const page = await context.newPage();
  try {
    await page.goto(`${env.server.url}/account/login`);
    await visible(page, page.getByRole('heading', { name: 'Iniciar sesión' }));
    // No theme option: the box follows the system (prefers-color-scheme), which is dark here.
    expect(['system', 'dark']).toContain(await schemeOf(page));
    expect(await computedSchemeOf(page)).toBe('dark');
  } finally {
    await context.close();
  }
});
