/**
 * Versioned CDN rollouts in Chromium (issue 18): a second login-box version is published beside the
 * first (a real copy of the built one under a new version: its own paths, files.json and hashes),
 * then rolled out through the operator API: a 50% canary serves both versions across 20 fresh
 * browsers, each keeping its own across reloads; a canary whose files fail integrity falls back to
 * the default, reports it with the version, and still signs in. The version a page loaded is told
 * by the path of its login box's remoteEntry.js request.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperatorPaths } from '@gatehouse/shared/admin-paths';
import { PASSWORD, signIn, signUpThroughApi, visible } from './support/journey';
import { accessToken } from './support/portal';
import { promoteSuperUser, repoRoot, useBrowserAndServer } from './support/server';

const cdnDir = mkdtempSync(join(tmpdir(), 'gatehouse-cdn-rollouts-'));
cpSync(join(repoRoot, 'dist/cdn'), cdnDir, { recursive: true });
const ctx = useBrowserAndServer({ GATEHOUSE_CDN_DIR: cdnDir });
const sources = mkdtempSync(join(tmpdir(), 'gatehouse-cdn-sources-'));
const BASE = (JSON.parse(readFileSync(join(cdnDir, 'cdn-manifest.json'), 'utf8')) as { bundles: Record<string, { version: string }> }).bundles['login-box']!.version;
const REMOTE_ENTRY = /\/cdn\/login-box\/([^/]+)\/remoteEntry\.js$/;

const sri = (bytes: Buffer) => 'sha384-' + createHash('sha384').update(bytes).digest('base64');
const walk = (dir: string): string[] => readdirSync(dir).flatMap((name) => (name.startsWith('.') ? [] : statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));

/** Writes `bytes` with its brotli and gzip copies, as the build leaves every CDN file. */
function writeCoded(path: string, bytes: Buffer): void {
  writeFileSync(path, bytes);
  writeFileSync(path + '.br', brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(path + '.gz', gzipSync(bytes, { level: 9 }));
}

/**
 * A real new version of the built login box, in `<sources>/login-box/<version>` as the build would
 * leave it: the same files under the new version's folder with a line naming the version added to
 * its entry (so its bytes differ), files.json and lazy-files.json listing the new paths with their
 * hashes, and every compressed copy written again.
 */
function loginBoxVersion(version: string): string {
  const dir = join(sources, 'login-box', version);
  cpSync(join(repoRoot, 'dist/cdn/login-box', BASE), dir, { recursive: true, filter: (src) => !src.split('/').pop()!.startsWith('.') });
  const prefix = (v: string) => `login-box/${v}/`;
  const rename = (list: Record<string, string>) => Object.fromEntries(Object.entries(list).map(([path, hash]) => [path.replace(prefix(BASE), prefix(version)), hash]));
  writeCoded(join(dir, 'remoteEntry.js'), Buffer.concat([readFileSync(join(dir, 'remoteEntry.js')), Buffer.from(`\n/* login-box ${version} */\n`)]));
  const lazy = rename(JSON.parse(readFileSync(join(dir, 'lazy-files.json'), 'utf8')) as Record<string, string>);
  writeCoded(join(dir, 'lazy-files.json'), Buffer.from(JSON.stringify(lazy) + '\n'));
  const files: Record<string, string> = {};
  for (const file of walk(dir).sort()) if (!/\.(br|gz)$/.test(file) && !file.endsWith('/files.json')) files[`login-box/${version}/${relative(dir, file)}`] = sri(readFileSync(file));
  writeCoded(join(dir, 'files.json'), Buffer.from(JSON.stringify(files) + '\n'));
  return dir;
}

/**
 * Puts a version folder into the server's CDN folder, as `gatehouse cdn publish` leaves it (the
 * CLI's own checks and refusals are tested in server/src/cli tests); the server finds it there.
 */
async function publish(dir: string): Promise<void> {
  cpSync(dir, join(cdnDir, 'login-box', dir.split('/').pop()!), { recursive: true });
}

type LiveBundle = { version: string; canary?: { version: string; percent: number }; pins?: Record<string, string> };
/** Waits until the served manifest's login box satisfies `done` (the server re-reads the rollout at most every 15 s). */
async function manifestShows(done: (bundle: LiveBundle) => boolean): Promise<void> {
  const until = Date.now() + 25_000;
  for (;;) {
    const res = await fetch(`${ctx.server.url}/cdn/cdn-manifest.json`, { cache: 'no-store' });
    const bundle = ((await res.json()) as { bundles: Record<string, LiveBundle> }).bundles['login-box']!;
    if (done(bundle)) return;
    if (Date.now() > until) throw new Error(`the manifest did not change: ${JSON.stringify(bundle)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

let operatorToken = '';
/** An operator API call as the super user; answers the status and body. */
async function operator(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${ctx.server.url}${path}`, { method, headers: { authorization: `Bearer ${operatorToken}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json().catch(() => null) };
}
const promote = (version: string, extra: Record<string, unknown> = {}) => operator('POST', OperatorPaths.cdnPromote.replace('{bundle}', 'login-box'), { version, ...extra });

/** Opens the login route in `page` and answers the login box version it loaded (by its remoteEntry request). */
async function loadedVersion(page: Page): Promise<string> {
  const entry = page.waitForRequest((r) => REMOTE_ENTRY.test(r.url()), { timeout: 15_000 });
  await page.goto(`${ctx.server.url}/account/login`);
  const version = REMOTE_ENTRY.exec((await entry).url())![1]!;
  await visible(page, page.getByRole('heading', { name: 'Sign in' }));
  return version;
}

const NEXT = '7.999.1';
const BROKEN = '7.999.2';
let tenantEmail = '';
let tenantId = '';

describe('CDN rollouts', () => {
  beforeAll(async () => {
    // The operator: signed up, promoted with the CLI; their tenant is the one pinned later.
    const page = await ctx.browser.newPage();
    tenantEmail = `rollouts+${Date.now()}@example.com`;
    await signUpThroughApi(page, ctx.server.url, tenantEmail);
    await promoteSuperUser(ctx.server, tenantEmail);
    await page.reload();
    await visible(page, page.getByTestId('signed-in-user'));
    operatorToken = await accessToken(page);
    tenantId = await page.evaluate(() => (globalThis as unknown as { Gatehouse: { getApp(): { getState(): { user: { tenantId: string } } } } }).Gatehouse.getApp().getState().user.tenantId);
    await page.close();
    await publish(loginBoxVersion(NEXT));
  });
  afterAll(() => {
    rmSync(cdnDir, { recursive: true, force: true });
    rmSync(sources, { recursive: true, force: true });
  });

  it('publishes the second version beside the first: both listed, the first still the default', async () => {
    const { status, body } = await operator('GET', OperatorPaths.cdnVersions);
    expect(status).toBe(200);
    const loginBox = (body as { bundles: Array<{ bundle: string; default: string; versions: Array<{ version: string; state: string[] }> }> }).bundles.find((b) => b.bundle === 'login-box')!;
    expect(loginBox.default).toBe(BASE);
    expect(loginBox.versions.map((v) => [v.version, v.state])).toEqual(expect.arrayContaining([[NEXT, ['unused']], [BASE, ['default']]]));
  });

  it('a 50% canary: across 20 fresh browsers both versions are served, each browser keeps its version across reloads', { timeout: 240_000 }, async () => {
    expect((await promote(NEXT, { percent: 50 })).status).toBe(200);
    await manifestShows((b) => b.canary?.version === NEXT && b.canary.percent === 50);
    const seen: string[] = [];
    for (let i = 0; i < 20; i++) {
      const context = await ctx.browser.newContext();
      const page = await context.newPage();
      const first = await loadedVersion(page);
      expect([BASE, NEXT]).toContain(first);
      expect(await loadedVersion(page), `browser ${i} after a reload`).toBe(first);
      seen.push(first);
      await context.close();
    }
    expect(new Set(seen)).toEqual(new Set([BASE, NEXT]));
  });

  it('a canary whose files fail integrity falls back to the default, reports it with the version, and still signs in', { timeout: 120_000 }, async () => {
    await publish(loginBoxVersion(BROKEN));
    expect((await promote(BROKEN, { percent: 100 })).status).toBe(200);
    await manifestShows((b) => b.canary?.version === BROKEN);
    // The published entry changes on the CDN behind the manifest's back (its hash stays the old one).
    const entry = join(cdnDir, 'login-box', BROKEN, 'remoteEntry.js');
    writeCoded(entry, Buffer.concat([readFileSync(entry), Buffer.from('\n;globalThis.__tampered = true;\n')]));

    const context = await ctx.browser.newContext();
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (r) => REMOTE_ENTRY.test(r.url()) && requested.push(REMOTE_ENTRY.exec(r.url())![1]!));
    await page.goto(`${ctx.server.url}/account/login`);
    await visible(page, page.getByRole('heading', { name: 'Sign in' }));
    expect(requested).toEqual([BROKEN, BASE]);
    expect(await page.evaluate(() => (globalThis as { __tampered?: boolean }).__tampered)).toBeUndefined();
    const errors = await page.evaluate(() => (globalThis as unknown as { Gatehouse: { getApp(): { errors: Array<{ request: string; message: string }> } } }).Gatehouse.getApp().errors);
    expect(errors.some((e) => e.request === 'login-box' && e.message.includes(`${BROKEN} failed, loading ${BASE}`))).toBe(true);
    await signIn(page, tenantEmail, PASSWORD);
    await page.waitForURL(`${ctx.server.url}/`, { timeout: 15_000 });
    await visible(page, page.getByTestId('signed-in-user'));
    await context.close();
  });
});
