/**
 * The Security section's ipRestrictions and domainRestrictions tabs in Chromium against the real
 * server (issue 12): an owner who signed up adds an address range, is asked before turning on an
 * allow list that would shut out their own address (and cancels: nothing saved), adds their own
 * address with "Add my IP" (described "My IP"), then turns the allow list on without a question;
 * an invalid address is refused at its field. On the domain tab a domain is added and deleted, the
 * config saved, and text that is not a domain refused at its field. Each state read back through
 * the API; axe-clean; 1280 and 390 px, light and dark.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MY_IP_DESCRIPTION, SecurityPaths } from '@gatehouse/shared/admin-paths';
import { expectAccessible } from './support/axe';
import { signUpThroughApi, visible } from './support/journey';
import { accessToken, screenshotsAtBothWidths } from './support/portal';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();

async function read<T>(page: Page, path: string): Promise<T> {
  const res = await fetch(`${ctx.server.url}${path}`, { headers: { authorization: `Bearer ${await accessToken(page)}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

const shots = (page: Page, name: string) => screenshotsAtBothWidths(page, name, { fullPage: true });

async function openSecurityTab(page: Page, tab: string) {
  await page.getByRole('button', { name: 'Admin portal' }).click();
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  await visible(page, portal);
  await portal.getByRole('button', { name: 'Security', exact: true }).click();
  await portal.getByRole('tablist', { name: 'Security settings' }).getByRole('tab', { name: tab }).click();
  return { portal, panel: portal.getByRole('tabpanel', { name: tab }) };
}

it('IP restrictions: asks before shutting out the admin’s own address, "Add my IP", and refuses an invalid address at its field', { timeout: 240_000 }, async () => {
  const { browser, server } = ctx;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await signUpThroughApi(page, server.url, `owner+${Date.now()}@example.com`);
  const { portal, panel } = await openSecurityTab(page, 'IP restrictions');

  const mine = panel.getByText(/^Your address (.+) is allowed\.$/);
  await visible(page, mine);
  const myIp = /^Your address (.+) is allowed\.$/.exec((await mine.textContent()) ?? '')![1]!;

  // An office range on the list.
  await panel.getByRole('button', { name: 'Add address' }).click();
  let dialog = portal.getByRole('dialog', { name: 'Add an address or range' });
  await dialog.getByLabel('IP address or range').fill('198.51.100.0/24');
  await dialog.getByLabel('Description').fill('Branch office');
  await dialog.getByRole('button', { name: 'Add address' }).click();
  await visible(page, panel.getByRole('row', { name: /198\.51\.100\.0\/24/ }));

  // Error path 1: the allow list would shut the owner out. Asked first; Cancel saves nothing.
  await panel.getByRole('switch', { name: 'Restrict access by IP address' }).check();
  await panel.getByRole('radio', { name: /Allow list/ }).check();
  await panel.getByRole('button', { name: 'Save' }).click();
  const ask = portal.getByRole('dialog', { name: 'Block your own address?' });
  await visible(page, ask);
  expect(await ask.textContent()).toContain(`This would block your own address (${myIp})`);
  await expectAccessible(page, 'admin ip restrictions self-lockout question');
  await shots(page, 'admin-ip-restrictions-lockout');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await ask.waitFor({ state: 'detached' });
  expect((await read<{ isActive: boolean }>(page, SecurityPaths.ipRestrictionsConfig)).isActive).toBe(false);

  // Add my IP: the owner's address, described My IP, on the allow list; now the allow list saves without a question.
  await panel.getByRole('button', { name: 'Add my IP' }).click();
  await visible(page, panel.getByRole('status').getByText(`Your address ${myIp} was added to the allowed list`));
  const myRow = panel.getByRole('row', { name: new RegExp(MY_IP_DESCRIPTION) });
  await visible(page, myRow);
  expect(await myRow.getByRole('cell').first().textContent()).toBe(MY_IP_DESCRIPTION);
  await panel.getByRole('button', { name: 'Save' }).click();
  await visible(page, panel.getByRole('status').getByText('IP restriction settings saved'));
  expect(await read(page, SecurityPaths.ipRestrictionsConfig)).toEqual({ isActive: true, strategy: 'ALLOW' });
  const list = await read<{ items: { ip: string; description: string; strategy: string }[] }>(page, SecurityPaths.ipRestrictions);
  expect(list.items.map((e) => [e.description, e.strategy]).sort()).toEqual([['Branch office', 'ALLOW'], [MY_IP_DESCRIPTION, 'ALLOW']]);
  await visible(page, panel.getByText(`Your address ${myIp} is allowed.`));

  // Error path 2: not an address; the server's 400 shows under the field, the dialog keeps what was typed.
  await panel.getByRole('button', { name: 'Add address' }).click();
  dialog = portal.getByRole('dialog', { name: 'Add an address or range' });
  const ip = dialog.getByLabel('IP address or range');
  await ip.fill('10.0.0.300');
  await dialog.getByRole('button', { name: 'Add address' }).click();
  const fieldError = dialog.locator(`[id="${await ip.getAttribute('id')}-error"]`);
  await visible(page, fieldError);
  expect(await ip.getAttribute('aria-invalid')).toBe('true');
  expect(await ip.inputValue()).toBe('10.0.0.300');
  await expectAccessible(page, 'admin ip restrictions invalid address');
  await shots(page, 'admin-ip-restrictions-invalid');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect((await read<{ total: number }>(page, SecurityPaths.ipRestrictions)).total).toBe(2);

  await expectAccessible(page, 'admin ip restrictions');
  await shots(page, 'admin-ip-restrictions');
  expect(errors.filter((e) => !/status of (400|409)/.test(e))).toEqual([]);
  await context.close();
});

it('domain restrictions: adds and deletes a domain, saves the config, and refuses text that is not a domain at its field', { timeout: 240_000 }, async () => {
  const { browser, server } = ctx;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await signUpThroughApi(page, server.url, `owner+${Date.now()}@example.com`);
  const { portal, panel } = await openSecurityTab(page, 'Domain restrictions');

  await visible(page, panel.getByText('No domains yet.'));
  await panel.getByLabel('Domain', { exact: true }).fill('Competitor.example');
  await panel.getByRole('button', { name: 'Add domain' }).click();
  await visible(page, panel.getByRole('row', { name: /competitor\.example/ }));
  await panel.getByRole('switch', { name: 'Restrict sign-up by email domain' }).check();
  await panel.getByRole('checkbox', { name: /Block public email domains/ }).check();
  await panel.getByRole('button', { name: 'Save' }).click();
  await visible(page, panel.getByRole('status').getByText('Email domain settings saved'));
  expect(await read(page, SecurityPaths.emailDomainRestrictionsConfig)).toEqual({ active: true, listType: 'BLOCK', blockPublicDomains: true });
  expect((await read<{ items: { domain: string; type: string }[] }>(page, SecurityPaths.emailDomainRestrictions)).items.map((d) => [d.domain, d.type])).toEqual([['competitor.example', 'BLOCK']]);

  // Error path: not a domain; refused at the field, which keeps the text.
  const domain = panel.getByLabel('Domain', { exact: true });
  await domain.fill('not a domain');
  await panel.getByRole('button', { name: 'Add domain' }).click();
  await visible(page, panel.locator(`[id="${await domain.getAttribute('id')}-error"]`));
  expect(await domain.getAttribute('aria-invalid')).toBe('true');
  expect(await domain.inputValue()).toBe('not a domain');
  await expectAccessible(page, 'admin domain restrictions invalid domain');
  await shots(page, 'admin-domain-restrictions-invalid');

  await panel.getByRole('button', { name: 'Delete competitor.example' }).click();
  await portal.getByRole('dialog', { name: 'Delete competitor.example' }).getByRole('button', { name: 'Delete' }).click();
  await visible(page, panel.getByText('No domains yet.'));
  expect((await read<{ total: number }>(page, SecurityPaths.emailDomainRestrictions)).total).toBe(0);
  await expectAccessible(page, 'admin domain restrictions');
  await shots(page, 'admin-domain-restrictions');
  expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  await context.close();
});
