/**
 * The admin portal's Audit logs section in Chromium against the real server (issue 5): an admin who
 * signed up makes a change, opens Audit logs, sees the record with the stats, filters it, and
 * downloads audits.csv with the table's columns.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from './support/browser';
import { signUpAndActivate, visible } from './support/journey';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();

function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => (globalThis as unknown as { Gatehouse: { getApp(): { getState(): { user: { accessToken: string } } } } }).Gatehouse.getApp().getState().user.accessToken);
}

it('shows the audit log of a change with its stats, filters it and downloads audits.csv', async () => {
  const { browser, server } = ctx;
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const failedAuditCalls: string[] = [];
  page.on('response', (r) => r.url().includes('/audits') && r.status() >= 400 && failedAuditCalls.push(`${r.status()} ${r.url()}`));
  const stamp = Date.now();
  const adminEmail = `auditor+${stamp}@example.com`;
  await signUpAndActivate(page, server.url, server.url, adminEmail);

  // A change through the API writes an audit record.
  const token = await accessToken(page);
  const res = await fetch(`${server.url}/identity/resources/groups/v1`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: `Auditors ${stamp}` }) });
  expect(res.status).toBe(201);

  await page.getByRole('button', { name: 'Admin portal' }).click();
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  await visible(page, portal);
  await portal.getByRole('button', { name: 'Audit logs' }).click();
  await visible(page, portal.getByRole('heading', { name: 'Audit logs' }));
  const row = portal.getByRole('row', { name: /Group created/ });
  await visible(page, row);
  expect(await row.textContent()).toContain(adminEmail);
  await visible(page, portal.getByLabel('Audit statistics'));
  await page.screenshot({ path: screenshotPath('admin-audits-list') });

  // High severity only: the Info record disappears.
  await portal.getByLabel('Severity').selectOption('High');
  await visible(page, portal.getByText('No audit records match'));
  await portal.getByLabel('Severity').selectOption('');
  await visible(page, row);

  const [download] = await Promise.all([page.waitForEvent('download'), portal.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toBe('audits.csv');
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toBe('"Time","User","Action","Description","IP address","Severity"');
  expect(csv).toContain(`"${adminEmail}","Group created"`);
  // The sign-in side's expected 401s (session probe before sign-in) are logged by Chromium; nothing else.
  expect(errors.filter((e) => !/401|Failed to load resource/.test(e))).toEqual([]);
  expect(failedAuditCalls).toEqual([]);
  await page.close();
}, 120_000);
