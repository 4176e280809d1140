/**
 * The security center page in Chromium against the real server (issue 12): an owner who signed up
 * opens it from the navigation and sees the score as a meter with its level, the 90-day history
 * with its text alternative, the "Sign-in protection" panel (flag security-center-show-login-flows
 * on), recommendations, insights and the MFA-unenrolled table listing the owner; "Adjust idle
 * timeout" opens the Security section's session management tab. Error path: the recommendations
 * fail to load, the page says so and "Try again" loads them. Axe-clean; 1280 and 390 px, light and
 * dark (Hebrew and the overflow check: admin-portal-layout.e2e.test.ts walks every section).
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SecurityPaths } from '@gatehouse/shared/admin-paths';
import { expectAccessible } from './support/axe';
import { screenshotPath } from './support/browser';
import { PASSWORD, signUpThroughApi, visible } from './support/journey';
import { screenshotsAtBothWidths } from './support/portal';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer({ GATEHOUSE_FLAGS: JSON.stringify({ 'security-center-show-login-flows': 'on' }) });

const shots = (page: Page, name: string) => screenshotsAtBothWidths(page, name, { fullPage: true });

it('shows score, history, sign-in protection, recommendations, insights and users; an action opens the Security section; a failed load retries', { timeout: 240_000 }, async () => {
  const { browser, server } = ctx;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const email = `owner+${Date.now()}@example.com`;
  await signUpThroughApi(page, server.url, email);

  await page.getByRole('button', { name: 'Admin portal' }).click();
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  await visible(page, portal);
  const nav = portal.getByRole('navigation', { name: 'Admin portal sections' });
  await nav.getByRole('button', { name: 'Security center' }).click();
  await visible(page, portal.getByRole('heading', { name: 'Security center' }));

  const meter = portal.getByRole('meter', { name: 'Security score' });
  await visible(page, meter);
  const score = Number(await meter.getAttribute('aria-valuenow'));
  expect(score).toBeGreaterThanOrEqual(0);
  expect(score).toBeLessThanOrEqual(100);
  expect(await meter.getAttribute('aria-valuetext')).toMatch(new RegExp(`^${score} of 100, (Vulnerable|Fair|Good|Strong|Fortified)$`));

  // Reading the recommendations records today's point: the chart has one, said in words.
  const history = portal.getByRole('region', { name: 'Score over the last 90 days' });
  await visible(page, history.getByRole('img'));
  expect(await history.getByRole('img').getAttribute('aria-labelledby')).toBeTruthy();
  expect(await history.locator('figcaption').textContent()).toMatch(new RegExp(`^One day recorded so far: ${score} on \\d{4}-\\d{2}-\\d{2}\\.$`));

  const flows = portal.getByRole('region', { name: 'Sign-in protection' });
  await visible(page, flows.getByText('Multi-factor authentication'));
  expect(await flows.locator('dt').allTextContents()).toEqual(expect.arrayContaining(['Multi-factor authentication', 'Lockout', 'Idle timeout', 'Concurrent sessions']));

  const recommendations = portal.getByRole('region', { name: 'Recommendations' });
  await visible(page, recommendations.getByRole('heading', { name: 'Turn on the idle timeout' }));
  await visible(page, portal.getByRole('region', { name: 'Insights' }).getByText('No session limits'));
  const unenrolled = portal.getByRole('region', { name: /Not enrolled in MFA/ });
  await visible(page, unenrolled.getByRole('cell', { name: email }));

  await expectAccessible(page, 'admin security center');
  await shots(page, 'admin-security-center');
  // The page scrolls inside the portal: the lower parts photographed where they are.
  for (const [part, name] of [[recommendations, 'recommendations'], [portal.getByRole('region', { name: 'Insights' }), 'insights'], [unenrolled, 'users']] as const) {
    await part.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`admin-security-center-${name}`) });
  }

  // The idle-timeout recommendation's action opens Security at session management.
  await recommendations.getByRole('button', { name: 'Adjust idle timeout' }).click();
  await visible(page, portal.getByRole('heading', { name: 'Security', exact: true }));
  expect(await portal.getByRole('tab', { name: 'Session management' }).getAttribute('aria-selected')).toBe('true');
  expect(await nav.getByRole('button', { name: 'Security', exact: true }).getAttribute('aria-current')).toBe('page');

  // Error path: the recommendations fail (whatever the client retries); the page says so, and "Try again" loads them once the server is back.
  let failing = true;
  await page.route(`**${SecurityPaths.securityCenterRecommendations}`, (route) =>
    failing ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ errors: ['The security center is resting'] }) }) : route.continue(),
  );
  await nav.getByRole('button', { name: 'Security center' }).click();
  const alert = portal.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Try again' }) });
  await visible(page, alert);
  await expectAccessible(page, 'admin security center load failed');
  await page.screenshot({ path: screenshotPath('admin-security-center-load-failed') });
  failing = false;
  await alert.getByRole('button', { name: 'Try again' }).click();
  await visible(page, portal.getByRole('meter', { name: 'Security score' }));
  await alert.waitFor({ state: 'detached' });
  await page.unroute(`**${SecurityPaths.securityCenterRecommendations}`);

  expect(errors.filter((e) => !/status of 500/.test(e))).toEqual([]);

  // In Hebrew, right to left: the same page, axe-clean, photographed wide and narrow.
  const state = await context.storageState();
  await context.close();
  const hebrew = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'he-IL', storageState: state });
  // A session of its own: refresh tokens rotate, so the saved cookie serves one context only.
  expect((await hebrew.request.post(`${server.url}/identity/resources/auth/v1/user`, { data: { email, password: PASSWORD } })).status()).toBe(200);
  const rtl = await hebrew.newPage();
  await rtl.goto(`${server.url}/`);
  await visible(rtl, rtl.getByTestId('signed-in-user'));
  await rtl.getByRole('button', { name: 'Admin portal' }).click();
  const hePortal = rtl.getByRole('dialog', { name: 'פורטל הניהול' });
  await visible(rtl, hePortal);
  await hePortal.getByRole('navigation').locator('.gh-ap-nav-full').getByRole('button', { name: 'מרכז האבטחה' }).click();
  const heMeter = hePortal.getByRole('meter', { name: 'ציון אבטחה' });
  await visible(rtl, heMeter);
  expect(await heMeter.getAttribute('aria-valuetext')).toMatch(/^\d+ מתוך 100, /);
  await visible(rtl, hePortal.getByRole('heading', { name: 'המלצות' }));
  await expectAccessible(rtl, 'admin security center hebrew');
  await rtl.screenshot({ path: screenshotPath('admin-security-center-he-1280') });
  await rtl.setViewportSize({ width: 390, height: 844 });
  await rtl.screenshot({ path: screenshotPath('admin-security-center-he-390') });
  await hebrew.close();
});
