/**
 * Any static host (issue 18): the loader and every bundle come from a CDN origin that is neither the
 * host page's nor the API's (a plain static server over dist/cdn with the build's `headers` file,
 * e2e/support/static-cdn.ts). The page's loader tag carries SRI with `crossorigin`, the bundles load
 * with their integrity over CORS from the CDN origin, nothing is fetched from the API's /cdn, and a
 * user signs in through the login box.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loaderFromManifest, renderDemoPage } from '../server/src/routes/platform/demo';
import { PASSWORD, signIn, visible } from './support/journey';
import { linkIn, waitForMail } from './support/mailbox';
import { closeContexts, freePort, repoRoot, startGatehouse, workerBrowser, type RunningServer } from './support/server';
import { startStaticCdn } from './support/static-cdn';
import { ApiPaths } from '@gatehouse/shared/wire';
import type { Browser } from 'playwright-core';

/** The demo host page on its own origin, its loader tag pointing at the CDN origin (the CSP lets the page fetch from there). */
async function startHostPage(apiUrl: string, cdnOrigin: string, port: number): Promise<{ url: string; stop(): Promise<void> }> {
  const loader = await loaderFromManifest(join(repoRoot, 'dist/cdn'));
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url === '/favicon.ico') {
      res.writeHead(404).end();
      return;
    }
    const { html, csp } = renderDemoPage(readFileSync(join(repoRoot, 'demo/index.html'), 'utf8'), { publicUrl: apiUrl, clientId: 'demo-client' }, loader);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp.replace(`connect-src 'self' ${apiUrl}`, `connect-src 'self' ${apiUrl} ${cdnOrigin}`) });
    res.end(html.replaceAll(`${apiUrl}/cdn/`, `${cdnOrigin}/cdn/`));
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://localhost:${port}`, stop: () => new Promise((r) => server.close(() => r())) };
}

describe('the CDN on an origin of its own', () => {
  let browser: Browser;
  let api: RunningServer;
  let cdn: Awaited<ReturnType<typeof startStaticCdn>>;
  let host: { url: string; stop(): Promise<void> };
  beforeAll(async () => {
    const hostPort = await freePort();
    [browser, api, cdn] = await Promise.all([workerBrowser(), startGatehouse({ GATEHOUSE_ALLOWED_ORIGINS: `http://localhost:${hostPort}` }), startStaticCdn(join(repoRoot, 'dist/cdn'))]);
    host = await startHostPage(api.url, cdn.url, hostPort);
  });
  afterAll(async () => {
    await closeContexts(browser);
    await Promise.all([host?.stop(), cdn?.stop(), api?.stop()]);
  });

  it('loads the loader and the login box from the CDN origin with SRI over CORS, and signs a user in', { timeout: 120_000 }, async () => {
    const email = `cdn-origin+${Date.now()}@example.com`;
    const context = await browser.newContext();
    // An account to sign in with, made through the API.
    const signUp = await context.request.post(`${api.url}${ApiPaths.signUp}`, { data: { email, password: PASSWORD, name: 'Ada Lovelace', companyName: 'Analytical Engines' } });
    expect(signUp.ok(), await signUp.text()).toBe(true);
    const link = new URL(linkIn(await waitForMail(api.url, email, /activate/i), '/account/activate'));
    expect((await context.request.post(`${api.url}${ApiPaths.activate}`, { data: { userId: link.searchParams.get('userId'), token: link.searchParams.get('token') } })).ok()).toBe(true);
    await context.clearCookies();

    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const scripts: Array<{ url: string; allowOrigin: string | null }> = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script' || /\.js$/.test(new URL(r.url()).pathname)) scripts.push({ url: r.url(), allowOrigin: r.headers()['access-control-allow-origin'] ?? null });
    });
    await page.goto(`${host.url}/`);
    await page.waitForURL(/\/account\/login/);
    await visible(page, page.getByRole('heading', { name: 'Sign in' }));

    // The tag the host page carries: integrity and crossorigin, on the CDN origin.
    const tag = await page.locator('script[integrity]').first().evaluate((s: HTMLScriptElement) => ({ src: s.src, integrity: s.integrity, crossOrigin: s.crossOrigin }));
    expect(tag.src.startsWith(cdn.cdnUrl)).toBe(true);
    expect(tag.integrity).toMatch(/^sha384-/);
    expect(tag.crossOrigin).toBe('anonymous');
    // Every script came from the CDN origin, answered with CORS; none from the API's own /cdn.
    expect(scripts.some((s) => /\/cdn\/login-box\/[^/]+\/remoteEntry\.js$/.test(s.url))).toBe(true);
    for (const script of scripts.filter((s) => s.url.includes('/cdn/'))) {
      expect(script.url.startsWith(cdn.cdnUrl), script.url).toBe(true);
      expect(script.allowOrigin, script.url).toBe('*');
    }
    expect(cdn.requests).toContain('/cdn/cdn-manifest.json');
    expect(errors.filter((e) => /integrity|CORS|blocked/i.test(e))).toEqual([]);

    await signIn(page, email, PASSWORD);
    await page.waitForURL(`${host.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    expect(await page.getByTestId('signed-in-user').textContent()).toContain(email);
    await context.close();
  });
});
