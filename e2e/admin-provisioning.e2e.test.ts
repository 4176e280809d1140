/**
 * The admin portal's Provisioning section in Chromium against the real server (issue 15): an admin
 * who signed up creates a SCIM connection for Okta and copies its token (shown once) and the SCIM
 * base URL; a SCIM client with that token creates a user and deactivates it (Okta's PATCH); the
 * portal shows the user read-only (Users section: only its roles can change, the admin API refuses
 * disabling it) and the two requests in the connection's request
 * log with what changed; rotating the token stops the old one at once. Screenshots at 1280 and 390
 * px, light and dark, and in Hebrew; axe on the section and its dialogs.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/axe';
import { screenshotPath } from './support/browser';
import { accessToken, rowAction, screenshotsAtBothWidths } from './support/portal';
import { signUpAndActivate, visible } from './support/journey';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();

async function openSection(page: Page, name: string, title = 'Admin portal') {
  const portal = page.getByRole('dialog', { name: title });
  if (!(await portal.isVisible())) {
    // The demo host's own button, in English whatever the portal's language.
    await page.getByRole('button', { name: 'Admin portal' }).click();
    await visible(page, portal);
  }
  await portal.getByRole('navigation').getByRole('button', { name, exact: true }).click();
  await visible(page, portal.getByRole('heading', { name, exact: true, level: 2 }));
  return portal;
}

/** A SCIM 2.0 call as an identity provider makes it: the connection's bearer token, SCIM JSON. */
function scim(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/scim+json', ...(body ? { 'content-type': 'application/scim+json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

it('creates a SCIM connection, a SCIM client creates and deactivates a user, and the portal shows it read-only', async () => {
  const { browser, server } = ctx;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const stamp = Date.now();
  await signUpAndActivate(page, server.url, server.url, `scim-admin+${stamp}@example.com`);

  // No connection yet: the section says what to do.
  let portal = await openSection(page, 'Provisioning');
  await visible(page, portal.getByText(/^No connections yet\. Use “Add connection”/));
  await expectAccessible(page, 'provisioning: empty');
  await screenshotsAtBothWidths(page, 'admin-provisioning-empty');

  // Add a connection for Okta: the source is required, then the token is shown once.
  await portal.getByRole('button', { name: 'Add connection' }).click();
  const create = page.getByRole('dialog', { name: 'Add connection' });
  await create.getByRole('button', { name: 'Create connection' }).click();
  await visible(page, create.getByRole('alert').getByText('Choose where the users come from'));
  await create.getByRole('radio', { name: /^Okta/ }).check();
  await expectAccessible(page, 'provisioning: add connection dialog');
  await screenshotsAtBothWidths(page, 'admin-provisioning-add');
  await create.getByRole('button', { name: 'Create connection' }).click();

  const created = page.getByRole('dialog', { name: 'Okta connection created' });
  await visible(page, created);
  const token = await created.getByRole('textbox', { name: 'Bearer token' }).inputValue();
  const baseUrl = await created.getByRole('textbox', { name: 'SCIM base URL' }).inputValue();
  expect(token).toMatch(/^ghscim\./);
  expect(baseUrl).toBe(`${server.url}/scim/v2`);
  await created.getByRole('button', { name: 'Copy token' }).click();
  await visible(page, created.getByRole('button', { name: 'Copied: Bearer token' }).filter({ hasText: 'Copied' }));
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await expectAccessible(page, 'provisioning: token dialog');
  await screenshotsAtBothWidths(page, 'admin-provisioning-token');
  await created.getByRole('button', { name: 'Done' }).click();
  await created.waitFor({ state: 'detached' });
  await visible(page, portal.getByRole('status').getByText('Okta connection created'));
  // The token left the page with its dialog.
  expect(await page.locator(`input[value="${token}"]`).count()).toBe(0);
  expect(await page.getByText(token).count()).toBe(0);

  // The identity provider creates a user, then deactivates it the way Okta does (PATCH active).
  const userName = `grace+${stamp}@example.com`;
  const made = await scim(baseUrl, token, 'POST', '/Users', {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName,
    name: { givenName: 'Grace', familyName: 'Hopper' },
    emails: [{ value: userName, primary: true, type: 'work' }],
    active: true,
  });
  expect(made.status).toBe(201);
  const scimUser = (await made.json()) as { id: string };
  const deactivated = await scim(baseUrl, token, 'PATCH', `/Users/${scimUser.id}`, {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [{ op: 'replace', value: { active: false } }],
  });
  expect(deactivated.status).toBe(200);

  // The Users section shows the user read-only: marked, explained, and no change offered.
  portal = await openSection(page, 'Users');
  const row = portal.getByRole('row', { name: /Grace Hopper/ });
  await visible(page, row);
  expect(await row.textContent()).toContain('Read-only');
  expect(await row.textContent()).toContain('Disabled');
  expect(await row.textContent()).toContain('SCIM');
  // Only its roles are the account's to change; the admin API refuses the rest (ER-02502).
  await row.getByRole('button', { name: 'Actions for Grace Hopper' }).click();
  expect(await page.getByRole('menu').getByRole('menuitem').allTextContents()).toEqual(['Edit roles']);
  await page.keyboard.press('Escape');
  const session = await accessToken(page);
  const disable = await fetch(`${server.url}/identity/resources/tenants/users/v1/${scimUser.id}/disable`, { method: 'POST', headers: { authorization: `Bearer ${session}` } });
  expect(disable.status).toBe(403);
  expect(((await disable.json()) as { errorCode?: string }).errorCode).toBe('ER-02502');
  await visible(page, portal.getByText(/^Users marked Read-only are managed by your identity provider through SCIM/));
  await screenshotsAtBothWidths(page, 'admin-provisioning-users-read-only');

  // The connection counts its user, and its request log shows both requests and what changed.
  portal = await openSection(page, 'Provisioning');
  const connection = portal.getByRole('row', { name: /Okta/ });
  await visible(page, connection);
  expect((await connection.getByRole('cell').allTextContents()).slice(1, 3)).toEqual(['1', '0']);
  await rowAction(page, portal, /^Actions for the Okta connection/, 'Request log');
  const log = portal.getByRole('table', { name: 'SCIM requests from Okta' });
  await visible(page, log.getByRole('row', { name: /PATCH/ }));
  const patch = log.getByRole('row', { name: /PATCH/ });
  expect(await patch.textContent()).toContain(`/Users/${scimUser.id}`);
  expect(await patch.textContent()).toContain('200');
  await visible(page, log.getByRole('row', { name: /POST/ }).filter({ hasText: '201' }));
  await patch.getByText(/changes?$/).click();
  await visible(page, patch.locator('dt', { hasText: 'active' }));
  expect(await patch.locator('dd').first().textContent()).toMatch(/true.*false/);
  await expectAccessible(page, 'provisioning: request log');
  await screenshotsAtBothWidths(page, 'admin-provisioning-request-log', { fullPage: true });
  await portal.getByRole('button', { name: 'All connections' }).click();

  // Rotating the token: the new one is shown once, the old one is refused at once.
  await rowAction(page, portal, /^Actions for the Okta connection/, 'Rotate token');
  await page.getByRole('dialog', { name: 'Rotate the Okta token' }).getByRole('button', { name: 'Rotate token' }).click();
  const rotated = page.getByRole('dialog', { name: 'New token for Okta' });
  await visible(page, rotated);
  const fresh = await rotated.getByRole('textbox', { name: 'Bearer token' }).inputValue();
  expect(fresh).not.toBe(token);
  expect((await scim(baseUrl, token, 'GET', '/Users')).status).toBe(401);
  expect((await scim(baseUrl, fresh, 'GET', '/Users')).status).toBe(200);
  await rotated.getByRole('button', { name: 'Done' }).click();
  await rotated.waitFor({ state: 'detached' });
  await screenshotsAtBothWidths(page, 'admin-provisioning-list');

  // In Hebrew the section reads right to left, its table and request log included.
  const context = await browser.newContext({ locale: 'he-IL', viewport: { width: 1280, height: 900 }, storageState: await page.context().storageState() });
  const hebrew = await context.newPage();
  await hebrew.goto(`${server.url}/`);
  await visible(hebrew, hebrew.getByTestId('signed-in-user'));
  const heb = await openSection(hebrew, 'הקצאה', 'פורטל הניהול');
  await visible(hebrew, heb.getByRole('row', { name: /Okta/ }));
  await hebrew.screenshot({ path: screenshotPath('admin-provisioning-list-hebrew') });
  await rowAction(hebrew, heb, /^פעולות לחיבור Okta/, 'יומן בקשות');
  await visible(hebrew, heb.getByRole('heading', { name: 'יומן בקשות: Okta' }));
  await screenshotsAtBothWidths(hebrew, 'admin-provisioning-request-log-hebrew', { fullPage: true });
  await context.close();

  expect(errors).toEqual([]);
});
