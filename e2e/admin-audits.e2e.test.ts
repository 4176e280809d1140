/**
 * The admin portal's Audit logs section in Chromium against the real server (issue 5): an admin who
 * signed up makes a change, opens Audit logs, sees the record with the stats, filters it, and
 * downloads audits.csv with the table's columns. Error path: a second admin takes the first one's
 * roles away; the next load is refused by the server and the section shows its message.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from './support/browser';
import { PASSWORD, signUpThroughApi, visible } from './support/journey';
import { linkIn, waitForMail } from './support/mailbox';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();

function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => (globalThis as unknown as { Gatehouse: { getApp(): { getState(): { user: { accessToken: string } } } } }).Gatehouse.getApp().getState().user.accessToken);
}

it('shows the audit log of a change with its stats, filters it and downloads audits.csv; a refused load shows the server message', async () => {
  const { browser, server } = ctx;
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const failedAuditCalls: string[] = [];
  page.on('response', (r) => r.url().includes('/audits') && r.status() >= 400 && failedAuditCalls.push(`${r.status()} ${r.url()}`));
  const stamp = Date.now();
  const adminEmail = `auditor+${stamp}@example.com`;
  await signUpThroughApi(page, server.url, adminEmail);

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
  expect(failedAuditCalls).toEqual([]);

  // Error path: a second admin (invited with the Admin role, accepting by the emailed link) removes
  // every role of the first; the first admin's next filter change is refused by the server.
  const api = (path: string, init: { method: string; token?: string; body?: unknown }) =>
    fetch(`${server.url}${path}`, {
      method: init.method,
      headers: { 'content-type': 'application/json', origin: server.url, ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    });
  const roles = (await (await api('/identity/resources/roles/v1', { method: 'GET', token })).json()) as { id: string; key: string }[] | { items: { id: string; key: string }[] };
  const adminRole = (Array.isArray(roles) ? roles : roles.items).find((r) => r.key === 'Admin')!;
  const secondEmail = `second-auditor+${stamp}@example.com`;
  expect((await api('/identity/resources/users/v1', { method: 'POST', token, body: { email: secondEmail, name: 'Second admin', roleIds: [adminRole.id] } })).status).toBe(201);
  const link = new URL(linkIn(await waitForMail(server.url, secondEmail, /invited to join/), '/account/invitation/accept'));
  const accepted = await api('/identity/resources/users/v1/invitation/accept', { method: 'POST', body: { userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), password: PASSWORD } });
  expect(accepted.status).toBe(200);
  const second = ((await accepted.json()) as { authResponse: { accessToken: string } }).authResponse.accessToken;
  const firstId = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
  expect((await api('/team/resources/members/v1', { method: 'PUT', token: second, body: { id: firstId, roleIds: [''] } })).status).toBe(200);
  await portal.getByLabel('Severity').selectOption('High');
  const refused = portal.getByRole('alert');
  await visible(page, refused);
  expect(await refused.textContent()).toContain('fe.secure.read.audits');
  await page.screenshot({ path: screenshotPath('admin-audits-refused') });
  // The sign-in side's expected 401s (session probe before sign-in) and the refusal above are logged by Chromium; nothing else.
  expect(errors.filter((e) => !/401|403|Failed to load resource/.test(e))).toEqual([]);
  await page.close();
}, 120_000);
