/**
 * Versioned CDN rollouts in Chromium (issue 18): a second login-box version is published beside the
 * first with the real CLI (`gatehouse cdn publish`; a real copy of the built one under a new
 * version: its own paths, files.json and hashes), then rolled out through the operator API: a 50%
 * canary serves both versions across 20 fresh browsers, each keeping its own across reloads; a
 * canary whose files fail integrity falls back to the default, reports it with the version, and
 * still signs in; a tenant pinned to the old version keeps it under a 100% canary; a returning
 * browser moves to a new default (downloading only the manifest and the new login box) and back
 * after a rollback. The version a page loaded is told by the path of its login box's
 * remoteEntry.js request.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperatorPaths } from '@gatehouse/shared/admin-paths';
import { loginBoxVersion as newLoginBoxVersion, writeCoded } from './support/cdn-version';
import { PASSWORD, signIn, signUpThroughApi, visible } from './support/journey';
import { accessToken } from './support/portal';
import { promoteSuperUser, repoRoot, runGatehouseCli, useBrowserAndServer } from './support/server';

const cdnDir = mkdtempSync(join(tmpdir(), 'gatehouse-cdn-rollouts-'));
cpSync(join(repoRoot, 'dist/cdn'), cdnDir, { recursive: true });
/**
 * How long browsers keep the manifest on this server: the shortest an operator would choose, so the
 * returning-browser tests wait a few seconds for it to expire instead of the default 30.
 */
const MANIFEST_MAX_AGE = 3;
const ctx = useBrowserAndServer({ GATEHOUSE_CDN_DIR: cdnDir, GATEHOUSE_CDN_MANIFEST_MAX_AGE: String(MANIFEST_MAX_AGE) });
const sources = mkdtempSync(join(tmpdir(), 'gatehouse-cdn-sources-'));
const BASE = (JSON.parse(readFileSync(join(cdnDir, 'cdn-manifest.json'), 'utf8')) as { bundles: Record<string, { version: string }> }).bundles['login-box']!.version;
const REMOTE_ENTRY = /\/cdn\/login-box\/([^/]+)\/remoteEntry\.js$/;

/** A real new version of the built login box in `<sources>/login-box/<version>` (support/cdn-version.ts). */
const loginBoxVersion = (version: string) => newLoginBoxVersion(join(repoRoot, 'dist/cdn'), BASE, sources, version);

/**
 * `gatehouse cdn publish <dir>`: the real CLI, a process of its own with the server's database and
 * CDN folder, as an operator runs it beside a live server (its checks and refusals are tested in
 * server/src/cli tests); the server finds the new version in its CDN folder. Asserts exit 0.
 */
async function publish(dir: string): Promise<void> {
  const { code, stdout, stderr } = await runGatehouseCli(ctx.server, ['cdn', 'publish', dir], { GATEHOUSE_CDN_DIR: cdnDir });
  expect(code, `cdn publish ${dir}:\n${stdout}${stderr}`).toBe(0);
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

/** The login box version a signed-in page loads: a login box route stays mounted for a signed-in user on the forgotten password one. */
async function signedInVersion(page: Page): Promise<string> {
  const entry = page.waitForRequest((r) => REMOTE_ENTRY.test(r.url()), { timeout: 15_000 });
  await page.goto(`${ctx.server.url}/account/forget-password`);
  return REMOTE_ENTRY.exec((await entry).url())![1]!;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * A browser keeps the manifest for MANIFEST_MAX_AGE s (`public, max-age=3` here): a returning
 * browser sees a change on its first load after that. Waits until the manifest a browser fetched
 * before `fetchedBy` (a Date.now() taken after its load) has expired in its cache.
 */
async function manifestExpired(fetchedBy: number): Promise<void> {
  const wait = fetchedBy + MANIFEST_MAX_AGE * 1000 + 1_000 - Date.now();
  if (wait > 0) await sleep(wait);
}

interface Transfer {
  url: string;
  status: number;
  /** Served from the browser's memory or disk cache, nothing over the wire. */
  cached: boolean;
  /** Bytes received for it (Network.loadingFinished encodedDataLength: compressed body and headers). */
  bytes: number;
}

/** Records every request of `page` through the DevTools protocol until the answered function is called. */
async function recordTransfers(page: Page): Promise<() => Promise<Transfer[]>> {
  const cdp = await page.context().newCDPSession(page);
  const all: Transfer[] = [];
  const byId = new Map<string, Transfer>();
  cdp.on('Network.requestWillBeSent', (e) => {
    const t = { url: e.request.url, status: 0, cached: false, bytes: 0 };
    all.push(t);
    byId.set(e.requestId, t);
  });
  cdp.on('Network.requestServedFromCache', (e) => void (byId.get(e.requestId) && (byId.get(e.requestId)!.cached = true)));
  cdp.on('Network.responseReceived', (e) => {
    const t = byId.get(e.requestId);
    if (!t) return;
    t.status = e.response.status;
    t.cached ||= Boolean(e.response.fromDiskCache || e.response.fromPrefetchCache);
  });
  cdp.on('Network.loadingFinished', (e) => void (byId.get(e.requestId) && (byId.get(e.requestId)!.bytes = e.encodedDataLength)));
  await cdp.send('Network.enable');
  return async () => {
    await cdp.detach();
    return all;
  };
}

const PARTS = ['manifest', 'loader', 'runtime', 'login box', 'other'] as const;
const partOf = (url: string): (typeof PARTS)[number] => {
  const path = url.startsWith(ctx.server.url) ? url.slice(ctx.server.url.length) : '';
  if (path.startsWith('/cdn/cdn-manifest.json')) return 'manifest';
  if (path.startsWith('/cdn/loader/')) return 'loader';
  if (path.startsWith('/cdn/runtime/')) return 'runtime';
  if (path.startsWith('/cdn/login-box/')) return 'login box';
  return 'other';
};

const NEXT = '7.999.1';
const BROKEN = '7.999.2';
let tenantEmail = '';
let tenantId = '';
/** The operator's signed-in browser state (cookies and storage), for a second signed-in browser of their tenant. */
let operatorState: Awaited<ReturnType<BrowserContext['storageState']>>;
/** A returning browser that loaded NEXT as the default; the rollback test loads it again. */
let returning: { page: Page; fetchedBy: number } | undefined;

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
    operatorState = await page.context().storageState();
    await page.close();
    await publish(loginBoxVersion(NEXT));
  });
  afterAll(() => {
    rmSync(cdnDir, { recursive: true, force: true });
    rmSync(sources, { recursive: true, force: true });
  });

  it('publishes the second version beside the first with the CLI: both listed, the first still the default', async () => {
    const { status, body } = await operator('GET', OperatorPaths.cdnVersions);
    expect(status).toBe(200);
    const loginBox = (body as { bundles: Array<{ bundle: string; default: string; versions: Array<{ version: string; state: string[] }> }> }).bundles.find((b) => b.bundle === 'login-box')!;
    expect(loginBox.default).toBe(BASE);
    expect(loginBox.versions.map((v) => [v.version, v.state])).toEqual(expect.arrayContaining([[NEXT, ['unused']], [BASE, ['default']]]));
  });

  it('a 50% canary: fresh browsers are served both versions (at most 20 tried), each browser keeps its version across reloads', { timeout: 240_000 }, async () => {
    expect((await promote(NEXT, { percent: 50 })).status).toBe(200);
    await manifestShows((b) => b.canary?.version === NEXT && b.canary.percent === 50);
    // Fresh browsers until both versions have been served and at least four have reloaded. A canary
    // that serves one version only still fails, after twenty browsers; a working one usually ends
    // the loop at the fourth (each browser's bucket is random: a bad draw of twenty, about twice in
    // a million runs, fails as before).
    const seen: string[] = [];
    for (let i = 0; i < 20 && (seen.length < 4 || new Set(seen).size < 2); i++) {
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

  it('a tenant pinned to the old version loads it when signed in, while a fresh browser under a 100% canary of the new one loads the new one', { timeout: 60_000 }, async () => {
    expect((await promote(NEXT, { percent: 100 })).status).toBe(200);
    expect((await promote(BASE, { tenants: [tenantId] })).status).toBe(200);
    await manifestShows((b) => b.canary?.version === NEXT && b.canary.percent === 100 && Object.values(b.pins ?? {}).includes(BASE));

    const anonymous = await ctx.browser.newContext();
    expect(await loadedVersion(await anonymous.newPage())).toBe(NEXT);
    await anonymous.close();

    // The loader knows the tenant once the session call resolves: the pin wins over the canary.
    const signedIn = await ctx.browser.newContext({ storageState: operatorState });
    const page = await signedIn.newPage();
    expect(await signedInVersion(page)).toBe(BASE);
    // Signed in as the tenant's user (the state is set once the runtime has booted).
    const signedInTenant = await page.waitForFunction(() => (globalThis as unknown as { Gatehouse: { getApp(): { getState(): { user?: { tenantId: string } } | null } } }).Gatehouse.getApp().getState()?.user?.tenantId, undefined, { timeout: 15_000 });
    expect(await signedInTenant.jsonValue()).toBe(tenantId);
    await signedIn.close();
  });

  it(
    'a new default reaches a returning browser on its first load after its cached manifest expires: it downloads the manifest and the new login box, the loader and runtime come from its cache',
    { timeout: 120_000 },
    async () => {
      expect((await operator('DELETE', OperatorPaths.cdnCanary.replace('{bundle}', 'login-box'))).status).toBe(204);
      await manifestShows((b) => b.version === BASE && !b.canary);
      const context = await ctx.browser.newContext();
      const page = await context.newPage();
      expect(await loadedVersion(page)).toBe(BASE);
      const warmBy = Date.now();

      expect((await promote(NEXT)).status).toBe(200);
      await manifestShows((b) => b.version === NEXT);
      // The rollback test's returning browser loads NEXT now, so its cached manifest expires during
      // this test's wait instead of a second one; a reload keeps NEXT (the same person, same version).
      const other = await (await ctx.browser.newContext()).newPage();
      expect(await loadedVersion(other)).toBe(NEXT);
      expect(await loadedVersion(other), 'a returning browser reloading').toBe(NEXT);
      returning = { page: other, fetchedBy: Date.now() };

      await manifestExpired(warmBy);
      const stop = await recordTransfers(page);
      const entry = page.waitForRequest((r) => REMOTE_ENTRY.test(r.url()), { timeout: 15_000 });
      await page.reload();
      expect(REMOTE_ENTRY.exec((await entry).url())![1]).toBe(NEXT);
      await visible(page, page.getByRole('heading', { name: 'Sign in' }));
      await page.waitForLoadState('networkidle');
      const transfers = await stop();
      await context.close();

      const parts = Object.fromEntries(PARTS.map((part) => [part, transfers.filter((t) => partOf(t.url) === part)])) as Record<(typeof PARTS)[number], Transfer[]>;
      const sum = (list: Transfer[]) => list.reduce((n, t) => n + t.bytes, 0);
      for (const part of PARTS) {
        const list = parts[part];
        console.log(`[version-switch] ${part}: ${sum(list)} B in ${list.length} request(s), ${list.filter((t) => t.cached).length} from the cache, ${list.filter((t) => t.status === 304).length} revalidated (304)`);
      }
      console.log(`[version-switch] total over the wire: ${sum(transfers)} B; CDN files only (manifest + loader + runtime + login box): ${sum(transfers.filter((t) => partOf(t.url) !== 'other'))} B`);
      console.log(`[version-switch] login box files fetched: ${parts['login box'].filter((t) => !t.cached).map((t) => `${t.url.split('/').pop()} ${t.bytes} B`).join(', ')}`);

      // The manifest is fetched again and names the new default.
      expect(parts.manifest.map((t) => [t.status, t.cached])).toEqual([[200, false]]);
      // The loader and runtime did not change: nothing of them crosses the wire but a revalidation.
      expect(parts.loader.length).toBeGreaterThan(0);
      expect(parts.runtime.length).toBeGreaterThan(0);
      for (const t of [...parts.loader, ...parts.runtime]) expect(t.cached || t.status === 304, `${t.url} ${t.status}`).toBe(true);
      // Only the new login box is fetched, its entry over the wire.
      expect(parts['login box'].every((t) => t.url.includes(`/login-box/${NEXT}/`))).toBe(true);
      expect(parts['login box'].some((t) => REMOTE_ENTRY.test(t.url) && t.status === 200 && !t.cached && t.bytes > 0)).toBe(true);
    },
  );

  it('a rollback restores the previous default: the next load of a returning browser that had the new version gets the old one', { timeout: 90_000 }, async () => {
    expect(returning, 'the returning browser of the previous test').toBeDefined();
    const { page, fetchedBy } = returning!;
    const { status, body } = await operator('POST', OperatorPaths.cdnRollback.replace('{bundle}', 'login-box'));
    expect(status).toBe(200);
    expect(body).toMatchObject({ default: BASE });
    await manifestShows((b) => b.version === BASE);
    await manifestExpired(fetchedBy);
    expect(await loadedVersion(page)).toBe(BASE);
    await page.context().close();
  });
});
