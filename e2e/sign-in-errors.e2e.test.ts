/**
 * Failure paths in Chromium: a wrong password shows the server's message; a tampered bundle is
 * refused by SRI with a visible error; a reused rotated refresh token revokes the session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { screenshotPath } from './support/browser';
import { repoRoot, startGatehouse, useBrowserAndServer, type RunningServer } from './support/server';
import { PASSWORD, signIn, signUpThroughApi, visible } from './support/journey';

const env = useBrowserAndServer();

describe('sign-in errors and session safety', () => {
  it('shows the server message for a wrong password and keeps the email', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const email = `grace-${Date.now()}@example.com`;
    await signUpThroughApi(page, env.server.url, email);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/login/);
    await signIn(page, email, 'not the password');
    const alert = page.getByRole('alert');
    await visible(page, alert);
    expect(await alert.first().textContent()).toContain('Invalid email or password');
    await page.screenshot({ path: screenshotPath('wrong-password') });
    expect(page.url()).toContain('/account/login');
    await context.close();
  });

  it('revokes the whole session when a rotated refresh token is used again', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const email = `reuse-${Date.now()}@example.com`;
    await signUpThroughApi(page, env.server.url, email);
    const cookieName = (c: { name: string }) => c.name.startsWith('gatehouse-refresh');
    // The refresh cookie is scoped to the auth API path, so ask for the cookies of that URL.
    const refreshUrl = `${env.server.url}/identity/resources/auth/v1/user/token/refresh`;
    const before = (await context.cookies(refreshUrl)).find(cookieName);
    expect(before).toBeTruthy();
    await page.reload(); // the loader refreshes: the cookie rotates
    await visible(page, page.getByTestId('signed-in-user'));
    const after = (await context.cookies(refreshUrl)).find(cookieName);
    expect(after!.value).not.toBe(before!.value);

    // An attacker replays the old token.
    const replay = await fetch(refreshUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `${before!.name}=${before!.value}` },
      body: '{}',
    });
    expect(replay.status).toBe(401);

    // The legitimate browser's current token is now dead too: the next load has no session.
    await page.reload();
    await page.waitForURL(/\/account\/login/);
    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    await context.close();
  });
});

describe('several tabs', () => {
  it('keeps the session when two tabs reload at the same moment (refreshes never race)', async () => {
    const context = await env.browser.newContext();
    const first = await context.newPage();
    await signUpThroughApi(first, env.server.url, `tabs-${Date.now()}@example.com`);
    const second = await context.newPage();
    for (let round = 0; round < 3; round++) {
      await Promise.all([first.goto(`${env.server.url}/`), second.goto(`${env.server.url}/`)]);
      await Promise.all([visible(first, first.getByTestId('signed-in-user')), visible(second, second.getByTestId('signed-in-user'))]);
    }
    await first.reload();
    await visible(first, first.getByTestId('signed-in-user'));
    await context.close();
  });
});

describe('subresource integrity', () => {
  let tampered: RunningServer;
  let cdnCopy: string;
  beforeAll(async () => {
    cdnCopy = mkdtempSync(join(tmpdir(), 'gatehouse-cdn-'));
    cpSync(join(repoRoot, 'dist/cdn'), cdnCopy, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(cdnCopy, 'cdn-manifest.json'), 'utf8'));
    const entry = join(cdnCopy, manifest.bundles['login-box'].entry);
    writeFileSync(entry, readFileSync(entry, 'utf8') + '\n;globalThis.__tampered = true;\n');
    // The server sends the build's compressed copies when the browser accepts them: tamper those too.
    for (const [suffix, compress] of [['.br', brotliCompressSync], ['.gz', gzipSync]] as const) writeFileSync(entry + suffix, compress(readFileSync(entry)));
    tampered = await startGatehouse({ GATEHOUSE_CDN_DIR: cdnCopy });
  });
  afterAll(async () => {
    await tampered?.stop();
    rmSync(cdnCopy, { recursive: true, force: true });
  });

  it('refuses a tampered login-box bundle and shows a visible error', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${tampered.url}/account/login`);
    const error = page.locator('[data-gatehouse-error="login-box"]');
    await visible(page, error);
    expect(await error.textContent()).toMatch(/could not be loaded/);
    expect(await page.evaluate(() => (globalThis as { __tampered?: boolean }).__tampered)).toBeUndefined();
    await page.screenshot({ path: screenshotPath('tampered-bundle') });
    await context.close();
  });
});
