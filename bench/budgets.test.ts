/**
 * DESIGN.md budgets (gzip): loader <= 4 KB; everything fetched before the login form is
 * interactive, React included, <= 120 KB; admin portal shell + first section beyond what the
 * login box loaded <= 90 KB. Bytes are what Chromium actually fetched, gzipped here at level 9.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { repoRoot, useBrowserAndServer } from '../e2e/support/server';
import { signUpAndActivate, visible } from '../e2e/support/journey';

const KB = 1024;
const BUDGETS = { loader: 4 * KB, beforeLoginInteractive: 120 * KB, adminPortal: 90 * KB };

const env = useBrowserAndServer();
const report: Record<string, unknown> = {};

afterAll(() => {
  mkdirSync(join(repoRoot, 'dist'), { recursive: true });
  writeFileSync(join(repoRoot, 'dist/budgets.json'), JSON.stringify(report, null, 2));
  console.log('budgets:', JSON.stringify(report, null, 2));
});

/** Records gzip sizes of every finished request (the host page itself excluded) while `action` runs. */
async function measure(page: Page, action: () => Promise<void>, filter: (r: Request) => boolean) {
  const files: Array<{ url: string; gzip: number }> = [];
  const pending: Promise<void>[] = [];
  const onFinished = (request: Request) => {
    if (!filter(request)) return;
    pending.push(
      (async () => {
        const body = await (await request.response())?.body().catch(() => null);
        if (body) files.push({ url: request.url().replace(env.server.url, ''), gzip: gzipSync(body, { level: 9 }).length });
      })(),
    );
  };
  page.on('requestfinished', onFinished);
  await action();
  await Promise.all(pending);
  page.off('requestfinished', onFinished);
  files.sort((a, b) => b.gzip - a.gzip);
  return { total: files.reduce((sum, f) => sum + f.gzip, 0), files };
}

describe('bundle budgets', () => {
  it('keeps the loader script within 4 KB gzip', () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'dist/cdn/cdn-manifest.json'), 'utf8'));
    const file = join(repoRoot, 'dist/cdn', manifest.bundles.loader.entry);
    const gzip = gzipSync(readFileSync(file), { level: 9 }).length;
    report.loaderGzipBytes = gzip;
    expect(gzip).toBeLessThanOrEqual(BUDGETS.loader);
  });

  it('fetches at most 120 KB gzip before the login form is interactive, React included', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const result = await measure(
      page,
      async () => {
        await page.goto(`${env.server.url}/account/login`);
        const email = page.getByLabel('Email');
        await visible(page, email);
        await email.fill('probe@example.com'); // interactive: it takes input
      },
      (r) => r.resourceType() !== 'document',
    );
    report.beforeLoginInteractive = result;
    await context.close();
    expect(result.total).toBeLessThanOrEqual(BUDGETS.beforeLoginInteractive);
  });

  it('loads the admin portal shell and first section within 90 KB gzip beyond the login box', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await signUpAndActivate(page, env.server.url, env.server.url, `budget-${Date.now()}@example.com`);
    const result = await measure(
      page,
      async () => {
        await page.getByRole('button', { name: 'Admin portal' }).click();
        await visible(page, page.getByRole('dialog', { name: 'Admin portal' }).getByLabel('Job title'));
      },
      (r) => ['script', 'stylesheet'].includes(r.resourceType()),
    );
    report.adminPortal = result;
    await context.close();
    expect(result.total).toBeLessThanOrEqual(BUDGETS.adminPortal);
  });
});
