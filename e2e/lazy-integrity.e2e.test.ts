/**
 * Lazily imported files keep their hashes out of the manifest (in their bundle's lazy-files.json,
 * loader/src/assets.ts): this proves the browser still checks them. A tampered lazy screen of the
 * login box, or a tampered lazy flow of the runtime, is refused and never runs, while the untouched
 * build loads the same files; a tampered screen whose new hash is written into the lazy list is
 * refused too, as the list no longer matches the manifest's hash for it.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startGatehouse, useBrowserAndServer, type RunningServer } from './support/server';

const env = useBrowserAndServer();
const LAZY_SCREEN = /\/login-box\/[^/]+\/assets\/UnlockAccountScreen-[^/]+\.js$/;
const LAZY_FLOW = /\/runtime\/[^/]+\/assets\/policies-[^/]+\.js$/;

/** Writes `bytes` to `path` with its brotli and gzip copies, as the build leaves every CDN file. */
function writeCoded(path: string, bytes: Buffer | string): void {
  writeFileSync(path, bytes);
  writeFileSync(path + '.br', brotliCompressSync(readFileSync(path)));
  writeFileSync(path + '.gz', gzipSync(readFileSync(path)));
}

/**
 * A copy of dist/cdn whose lazy files matching `pattern` run `globalThis.__tampered = true` (in
 * every coding); with `rewriteList` their lazy list carries the tampered files' own hashes.
 */
function tamperedCdn(pattern: RegExp, rewriteList = false): { dir: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-cdn-'));
  cpSync(join(repoRoot, 'dist/cdn'), dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, 'cdn-manifest.json'), 'utf8')) as { bundles: Record<string, { files?: Record<string, string>; lazyFileList?: string }> };
  const files: string[] = [];
  for (const bundle of Object.values(manifest.bundles)) {
    if (!bundle.lazyFileList) continue;
    const lazy = JSON.parse(readFileSync(join(dir, bundle.lazyFileList), 'utf8')) as Record<string, string>;
    for (const file of Object.keys(lazy).filter((f) => pattern.test('/' + f))) {
      // Lazy means what the name says: the manifest itself carries no hash for it.
      expect(bundle.files?.[file]).toBeUndefined();
      const path = join(dir, file);
      writeCoded(path, readFileSync(path, 'utf8') + '\n;globalThis.__tampered = true;\n');
      lazy[file] = 'sha384-' + createHash('sha384').update(readFileSync(path)).digest('base64');
      files.push(file);
    }
    if (rewriteList) writeCoded(join(dir, bundle.lazyFileList), JSON.stringify(lazy) + '\n');
  }
  expect(files, `a lazy file matching ${pattern}`).toHaveLength(1);
  return { dir, files };
}

/** Opens the unlock link's route (its screen and its flow are lazy), waits for the files matching `patterns`, and reports what happened. */
async function openUnlockRoute(page: Page, baseUrl: string, patterns: RegExp[]) {
  const messages: string[] = [];
  page.on('console', (m) => messages.push(m.text()));
  const fetched = Promise.all(patterns.map((pattern) => page.waitForResponse((r) => pattern.test(r.url()), { timeout: 15_000 })));
  await page.goto(`${baseUrl}/account/unlock?token=not-a-real-token`);
  const responses = await fetched;
  await page.waitForTimeout(500);
  return { responses, messages, tampered: await page.evaluate(() => (globalThis as { __tampered?: boolean }).__tampered) };
}

describe('lazily imported files', () => {
  const copies: Array<{ dir: string }> = [];
  let screenServer: RunningServer;
  let flowServer: RunningServer;
  let listServer: RunningServer;
  beforeAll(async () => {
    const screen = tamperedCdn(LAZY_SCREEN);
    const flow = tamperedCdn(LAZY_FLOW);
    const list = tamperedCdn(LAZY_SCREEN, true);
    copies.push(screen, flow, list);
    const serve = (copy: { dir: string }) => startGatehouse({ GATEHOUSE_CDN_DIR: copy.dir });
    [screenServer, flowServer, listServer] = await Promise.all([serve(screen), serve(flow), serve(list)]);
  });
  afterAll(async () => {
    await Promise.all([screenServer?.stop(), flowServer?.stop(), listServer?.stop()]);
    for (const copy of copies) rmSync(copy.dir, { recursive: true, force: true });
  });

  it('loads the untouched lazy screen and flow of the unlock route', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const result = await openUnlockRoute(page, env.server.url, [LAZY_SCREEN, LAZY_FLOW]);
    expect(result.responses.map((r) => r.status())).toEqual([200, 200]);
    expect(result.messages.filter((m) => /integrity/i.test(m))).toEqual([]);
    expect(result.tampered).toBeUndefined();
    await context.close();
  });

  it('refuses a tampered lazy login-box screen: it never runs', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const result = await openUnlockRoute(page, screenServer.url, [LAZY_SCREEN]);
    expect(result.tampered).toBeUndefined();
    expect(result.messages.some((m) => /integrity/i.test(m) && /UnlockAccountScreen/.test(m))).toBe(true);
    await context.close();
  });

  it('refuses a tampered lazy runtime flow: it never runs', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const result = await openUnlockRoute(page, flowServer.url, [LAZY_FLOW]);
    expect(result.tampered).toBeUndefined();
    expect(result.messages.some((m) => /integrity/i.test(m) && /policies-/.test(m))).toBe(true);
    await context.close();
  });

  it('refuses a tampered lazy screen whose hash was written into the lazy list: the list fails the manifest\'s hash, the screen never runs', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const messages: string[] = [];
    page.on('console', (m) => messages.push(m.text()));
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    const listFetched = page.waitForResponse((r) => /\/login-box\/[^/]+\/lazy-files\.json$/.test(r.url()), { timeout: 15_000 });
    await page.goto(`${listServer.url}/account/unlock?token=not-a-real-token`);
    await listFetched;
    await page.waitForTimeout(1000);
    expect(messages.some((m) => /integrity/i.test(m) && /lazy-files\.json/.test(m))).toBe(true);
    // The list was refused before the screen could be asked for, so the browser never fetched it.
    expect(requested.filter((url) => LAZY_SCREEN.test(url))).toEqual([]);
    expect(await page.evaluate(() => (globalThis as { __tampered?: boolean }).__tampered)).toBeUndefined();
    await context.close();
  });
});
