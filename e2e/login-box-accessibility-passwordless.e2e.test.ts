/**
 * axe-core on the login box's passwordless steps (MagicLink and Code strategies: the link sent,
 * the code asked for, a wrong code, the magic link's success state) in light mode, dark mode and
 * Hebrew: 0 serious, 0 critical. The steps answer the same for any address, so no account is
 * needed except for the success state.
 */
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/axe';
import { linkIn, waitForMail } from './support/mailbox';
import { startGatehouse, useBrowserAndServer, type RunningServer } from './support/server';
import { signUpThroughApi, visible } from './support/journey';

const env = useBrowserAndServer({ LOGIN_STRATEGY: 'MagicLink' });
let codeServer: RunningServer;
beforeAll(async () => {
  codeServer = await startGatehouse({ LOGIN_STRATEGY: 'Code' });
});
afterAll(async () => {
  await codeServer?.stop();
});

const VARIANTS: { name: string; context: BrowserContextOptions; email: string; continue: string; linkSent: string; enterCode: string; code: string; signIn: string }[] = [
  { name: 'light', context: { colorScheme: 'light', locale: 'en-US' }, email: 'Email', continue: 'Continue', linkSent: 'Check your email', enterCode: 'Enter your code', code: 'Sign-in code', signIn: 'Sign in' },
  { name: 'dark', context: { colorScheme: 'dark', locale: 'en-US' }, email: 'Email', continue: 'Continue', linkSent: 'Check your email', enterCode: 'Enter your code', code: 'Sign-in code', signIn: 'Sign in' },
  { name: 'hebrew', context: { colorScheme: 'light', locale: 'he-IL' }, email: 'אימייל', continue: 'המשך', linkSent: 'בדיקת האימייל', enterCode: 'הזנת הקוד', code: 'קוד כניסה', signIn: 'כניסה' },
];

async function requestFor(page: Page, baseUrl: string, v: (typeof VARIANTS)[number], email: string) {
  await page.goto(`${baseUrl}/account/login`);
  await visible(page, page.getByRole('heading', { name: v.signIn, exact: true }));
  await page.getByLabel(v.email, { exact: true }).fill(email);
  await page.getByRole('button', { name: v.continue }).click();
}

describe.each(VARIANTS)('passwordless steps ($name)', (v) => {
  it('the magic link sent, the code step and a wrong code have no serious or critical violation', async () => {
    const context = await env.browser.newContext({ ...v.context, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await requestFor(page, env.server.url, v, `nobody-${v.name}@example.com`);
    await visible(page, page.getByRole('heading', { name: v.linkSent }));
    await expectAccessible(page, `${v.name}: magic link sent`);

    await requestFor(page, codeServer.url, v, `nobody-${v.name}@example.com`);
    await visible(page, page.getByRole('heading', { name: v.enterCode }));
    await expectAccessible(page, `${v.name}: sign-in code`);
    await page.getByLabel(v.code).fill('000000');
    await page.getByLabel(v.code).press('Enter');
    await visible(page, page.getByRole('alert'));
    await expectAccessible(page, `${v.name}: wrong sign-in code`);
    await context.close();
  });
});

describe('the magic link success state', () => {
  it('has its heading and Continue, with no serious or critical violation', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const email = `a11y-magic-${Date.now()}@example.com`;
    await signUpThroughApi(page, env.server.url, email);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);
    await requestFor(page, env.server.url, VARIANTS[0]!, email);
    const link = linkIn(await waitForMail(env.server.url, email, /sign-in link/i), '/account/login/magic-link');
    await page.goto(link);
    await visible(page, page.getByRole('heading', { name: 'You’re signed in' }));
    await expectAccessible(page, 'light: magic link success');
    const started = Date.now();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${env.server.url}/`, { timeout: 4000 });
    // The seed's 5 s wait stays; Continue takes it at once.
    expect(Date.now() - started).toBeLessThan(3000);
    await context.close();
  });
});
