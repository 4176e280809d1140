/**
 * The admin portal's Operator area in Chromium against the built server (issue 13): a tenant admin
 * who signed up does not see the Operator entry; promoted to super user with the CLI (`npm run
 * gatehouse -- users promote <email>`, on the e2e server's data directory), the same admin sees it
 * and creates a feature with a linked permission, a plan granting it with a limit (price typed in
 * major units), and a feature flag with a targeting rule; the server holds exactly that. The billing
 * configuration shows its write-only secrets empty and the webhook URL. Axe-clean; 1280 and 390 px,
 * light and dark; Hebrew right to left.
 */
import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { expectAccessible } from './support/axe';
import { screenshotPath } from './support/browser';
import { signUpThroughApi, visible } from './support/journey';
import { accessToken, screenshotsAtBothWidths, signedInCopy } from './support/portal';
import { useBrowserAndServer, promoteSuperUser } from './support/server';

const ctx = useBrowserAndServer();

/** Opens the portal from the demo host page's button (English in every language); `title` is the portal's, in the page's language. */
async function openPortal(page: Page, title = 'Admin portal'): Promise<Locator> {
  const portal = page.getByRole('dialog', { name: title });
  if (!(await portal.isVisible())) {
    await page.getByRole('button', { name: 'Admin portal' }).click();
    await visible(page, portal);
  }
  return portal;
}

async function api<T>(page: Page, method: string, path: string): Promise<T> {
  const res = await fetch(`${ctx.server.url}${path}`, { method, headers: { authorization: `Bearer ${await accessToken(page)}` } });
  expect(res.status, `${method} ${path}`).toBe(200);
  return (await res.json()) as T;
}

it('a super user (promoted with the CLI) creates a feature, a plan granting it and a flag with a rule; a tenant admin sees no Operator entry', { timeout: 300_000 }, async () => {
  const { browser, server } = ctx;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const email = `vendor+${Date.now()}@example.com`;
  await signUpThroughApi(page, server.url, email);

  // A tenant admin (owner of the tenant signed up) has no Operator entry, and the API refuses them.
  let portal = await openPortal(page);
  await visible(page, portal.getByRole('navigation').getByRole('button', { name: 'Users' }));
  expect(await portal.getByRole('navigation').getByRole('button', { name: 'Operator' }).count()).toBe(0);
  expect((await fetch(`${server.url}/operator/resources/plans/v1`, { headers: { authorization: `Bearer ${await accessToken(page)}` } })).status).toBe(403);

  // Promoted by the CLI: after a reload the entry is there.
  expect(await promoteSuperUser(ctx.server, email)).toContain(email);
  await page.reload();
  await visible(page, page.getByTestId('signed-in-user'));
  portal = await openPortal(page);
  await portal.getByRole('navigation').getByRole('button', { name: 'Operator' }).click();
  await visible(page, portal.getByRole('heading', { name: 'Operator', level: 2 }));
  await visible(page, portal.getByRole('tab', { name: 'Plans', selected: true }));
  await visible(page, portal.getByText(/No plans yet|Free|Premium/));

  // Features: one with a linked permission, chosen from the chips input.
  await portal.getByRole('tab', { name: 'Features' }).click();
  await portal.getByRole('button', { name: 'Add feature' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add feature' });
  await dialog.getByLabel('Key').fill('advanced-reports');
  await dialog.getByLabel('Name').fill('Advanced reports');
  await dialog.getByLabel('Linked permissions').fill('app.reports.*');
  await dialog.getByLabel('Linked permissions').press('Enter');
  await visible(page, dialog.getByRole('button', { name: 'Remove app.reports.*' }));
  await dialog.getByRole('button', { name: 'Add feature' }).click();
  await visible(page, portal.getByRole('status').getByText('Feature Advanced reports added'));
  await visible(page, portal.getByRole('row', { name: /Advanced reports/ }));

  // Plans: a plan granting it with a limit; the price is typed in major units.
  await portal.getByRole('tab', { name: 'Plans' }).click();
  await portal.getByRole('button', { name: 'Add plan' }).click();
  dialog = page.getByRole('dialog', { name: 'Add plan' });
  await dialog.getByLabel('Name').fill('Team Plus');
  expect(await dialog.getByLabel('Slug').inputValue()).toBe('team-plus');
  await dialog.getByLabel('Price').fill('49.90');
  await dialog.getByLabel('Trial days').fill('14');
  await dialog.getByLabel('Seat limit').fill('20');
  await dialog.getByLabel(/^Advanced reports/).check();
  await dialog.getByLabel('Limit for Advanced reports').fill('5');
  await page.screenshot({ path: screenshotPath('admin-operator-plan-dialog') });
  await expectAccessible(page, 'operator plan dialog');
  await dialog.getByRole('button', { name: 'Add plan' }).click();
  await visible(page, portal.getByRole('status').getByText('Plan Team Plus added'));
  const planRow = portal.getByRole('row', { name: /Team Plus/ });
  await visible(page, planRow);
  expect(await planRow.textContent()).toContain('$49.90 / month');

  // Feature flags: on, granting the feature, with a rule on the email domain (and a field error first).
  await portal.getByRole('tab', { name: 'Feature flags' }).click();
  await portal.getByRole('button', { name: 'Add flag' }).click();
  dialog = page.getByRole('dialog', { name: 'Add flag' });
  await dialog.getByLabel('Key').fill('reports-beta');
  await dialog.getByLabel('Name').fill('Reports beta');
  await dialog.getByRole('switch', { name: /^On/ }).check();
  await dialog.getByLabel(/^Advanced reports/).check();
  await dialog.getByRole('button', { name: 'Add rule' }).click();
  const condition = dialog.getByRole('listitem', { name: 'Condition 1' });
  await condition.getByLabel('Attribute').fill('frontegg.email');
  await condition.getByLabel('Operation').selectOption('ends_with');
  await dialog.getByRole('button', { name: 'Add flag' }).click();
  await visible(page, condition.getByRole('alert').getByText('Add at least one value'));
  // "ends with any of": the list chips, like "is one of".
  const values = condition.getByLabel('Values');
  await values.fill('@example.com');
  await values.press('Enter');
  await visible(page, condition.getByRole('button', { name: 'Remove @example.com' }));
  await page.screenshot({ path: screenshotPath('admin-operator-flag-dialog') });
  await expectAccessible(page, 'operator flag dialog');
  await dialog.getByRole('button', { name: 'Add flag' }).click();
  await visible(page, portal.getByRole('status').getByText('Flag Reports beta added'));
  const flagRow = portal.getByRole('row', { name: /Reports beta/ });
  expect(await flagRow.getByRole('switch', { name: 'Flag Reports beta on' }).getAttribute('aria-checked')).toBe('true');
  await screenshotsAtBothWidths(page, 'admin-operator-flags');
  await expectAccessible(page, 'operator flags tab');

  // The server holds exactly what was entered.
  const features = await api<Array<{ key: string; linkedPermissions: string[] }>>(page, 'GET', '/operator/resources/features/v1');
  expect(features.find((f) => f.key === 'advanced-reports')?.linkedPermissions).toEqual(['app.reports.*']);
  const plans = await api<Array<{ slug: string; price: unknown; trialDays: number; seatLimit: number; features: unknown }>>(page, 'GET', '/operator/resources/plans/v1');
  expect(plans.find((p) => p.slug === 'team-plus')).toMatchObject({ price: { amount: 4990, currency: 'usd' }, trialDays: 14, seatLimit: 20, features: [{ featureKey: 'advanced-reports', limit: 5 }] });
  const flags = await api<Array<{ key: string; on: boolean; featureKeys: string[]; rules: unknown }>>(page, 'GET', '/operator/resources/feature-flags/v1');
  expect(flags.find((f) => f.key === 'reports-beta')).toMatchObject({
    on: true,
    featureKeys: ['advanced-reports'],
    rules: [{ conditionLogic: 'and', treatment: 'true', conditions: [{ attribute: 'frontegg.email', op: 'ends_with', value: { list: ['@example.com'] }, negate: false }] }],
  });

  // Billing: secrets are write-only (empty password fields), the webhook URL is this server's.
  await portal.getByRole('tab', { name: 'Billing' }).click();
  const secret = portal.getByLabel(/^Secret key/);
  await visible(page, secret);
  expect(await secret.inputValue()).toBe('');
  expect(await secret.getAttribute('type')).toBe('password');
  expect(await secret.getAttribute('autocomplete')).toBe('new-password');
  expect(await portal.getByLabel('Webhook endpoint URL', { exact: true }).inputValue()).toBe(`${server.url}/subscriptions/resources/billing/stripe/webhooks/v1`);
  await screenshotsAtBothWidths(page, 'admin-operator-billing', { fullPage: true });
  await expectAccessible(page, 'operator billing tab');

  await portal.getByRole('tab', { name: 'Plans' }).click();
  await visible(page, planRow);
  await screenshotsAtBothWidths(page, 'admin-operator-plans');
  await expectAccessible(page, 'operator plans tab');
  expect(errors).toEqual([]);

  // Hebrew: the same area right to left.
  const hebrew = await signedInCopy(browser, page, server.url, email, 'he-IL');
  const hePortal = await openPortal(hebrew, 'פורטל הניהול');
  await hePortal.getByRole('navigation').getByRole('button', { name: 'מפעיל' }).click();
  await visible(hebrew, hePortal.getByRole('row', { name: /Team Plus/ }));
  expect(await hePortal.locator('xpath=..').getAttribute('dir')).toBe('rtl');
  await hebrew.screenshot({ path: screenshotPath('admin-operator-plans-hebrew') });
  await expectAccessible(hebrew, 'operator plans tab, Hebrew');
  await hePortal.getByRole('tab', { name: 'דגלי תכונה' }).click();
  await visible(hebrew, hePortal.getByRole('row', { name: /Reports beta/ }));
  await hePortal.getByRole('button', { name: 'פעולות לדגל Reports beta' }).click();
  await hebrew.getByRole('menu').getByRole('menuitem', { name: 'עריכה' }).click();
  const heDialog = hebrew.getByRole('dialog', { name: 'עריכת הדגל Reports beta' });
  await visible(hebrew, heDialog.getByRole('listitem', { name: 'תנאי 1' }));
  await hebrew.screenshot({ path: screenshotPath('admin-operator-flag-dialog-hebrew') });
  await expectAccessible(hebrew, 'operator flag dialog, Hebrew');
  await hebrew.context().close();
});
