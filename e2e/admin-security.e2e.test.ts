/**
 * The admin portal's Security section in Chromium against the real server (issue 12): an owner who
 * signed up turns on the idle timeout (minutes, hours or days; the server keeps seconds) and forces
 * MFA after the dry run's preview ("Forcing MFA will ask 1 of 1 user to enrol…"), each read back
 * through the API; a forced re-login longer than the vendor's and a lockout looser than the
 * vendor's are refused at their fields, naming the vendor's value. Axe-clean, at 1280 and 390 px,
 * light and dark.
 */
import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { SecurityPaths } from '@gatehouse/shared/admin-paths';
import { expectAccessible } from './support/axe';
import { screenshotPath } from './support/browser';
import { PASSWORD, signUpThroughApi, visible } from './support/journey';
import { accessToken, screenshotsAtBothWidths } from './support/portal';
import { useBrowserAndServer } from './support/server';

// The vendor's floor: lockout after 5 wrong passwords, forced re-login after a day.
const ctx = useBrowserAndServer({ LOCKOUT_MAX_ATTEMPTS: '5', SESSION_FORCE_RELOGIN: '86400' });

async function policy(page: Page, path: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${ctx.server.url}${path}`, { headers: { authorization: `Bearer ${await accessToken(page)}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** Save, then Confirm when the dry run previews effects; resolves with the preview's text ('' when none). */
async function saveThroughPreview(page: Page, scope: Locator, saved: string): Promise<string> {
  await scope.getByRole('button', { name: 'Save' }).click();
  const confirm = scope.getByRole('button', { name: 'Confirm and save' });
  const status = scope.getByRole('status').getByText(saved);
  await visible(page, confirm.or(status));
  if (!(await confirm.isVisible())) return '';
  const preview = (await scope.getByRole('group', { name: 'Before you save' }).textContent()) ?? '';
  await confirm.click();
  await visible(page, status);
  return preview;
}

function shots(page: Page, name: string): Promise<void> {
  return screenshotsAtBothWidths(page, name, {
    atWidth: async (width) => {
      // Nothing in the section is wider than the window, the tab row included (its tabs wrap).
      const wide = await page.locator('.gh-ap-sec').evaluate((section) =>
        [section, ...section.querySelectorAll('*')].filter((el) => !['INPUT', 'SELECT', 'OPTION'].includes(el.tagName) && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible').map((el) => el.className),
      );
      expect(wide, `${name} at ${width} px`).toEqual([]);
    },
  });
}

it('saves session and MFA policies through the dry-run preview, and refuses values looser than the vendor’s at their fields', { timeout: 240_000 }, async () => {
  const { browser, server } = ctx;
  // axe opens a page beside this one, so the page lives in a context of its own.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const email = `owner+${Date.now()}@example.com`;
  await signUpThroughApi(page, server.url, email);

  await page.getByRole('button', { name: 'Admin portal' }).click();
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  await visible(page, portal);
  await portal.getByRole('button', { name: 'Security', exact: true }).click();
  await visible(page, portal.getByRole('heading', { name: 'Security', exact: true }));
  const tabs = portal.getByRole('tablist', { name: 'Security settings' }).getByRole('tab');
  expect(await tabs.allTextContents()).toEqual(['Session management', 'General settings', 'IP restrictions', 'Domain restrictions']);

  // sessionManagement: the vendor's forced re-login shows in days; the idle timeout goes on at 2 hours.
  const sessions = portal.getByRole('tabpanel', { name: 'Session management' });
  await visible(page, sessions.getByLabel('Idle for', { exact: true }));
  expect(await sessions.getByLabel('Sign in again after', { exact: true }).inputValue()).toBe('1');
  expect(await sessions.getByLabel('Unit of “Sign in again after”').inputValue()).toBe('days');
  await sessions.getByRole('switch', { name: 'Sign out idle sessions' }).check();
  await sessions.getByLabel('Idle for', { exact: true }).fill('2');
  await sessions.getByLabel('Unit of “Idle for”').selectOption('hours');
  await saveThroughPreview(page, sessions, 'Session settings saved');
  expect((await policy(page, SecurityPaths.sessionsPolicy)).sessionIdleTimeoutConfiguration).toEqual({ isActive: true, timeout: 7_200 });
  await expectAccessible(page, 'admin security sessionManagement');
  await shots(page, 'admin-security-sessions');

  // Error path: a forced re-login of 2 days is looser than the vendor's day; refused at its field.
  const relogin = sessions.getByLabel('Sign in again after', { exact: true });
  await relogin.fill('2');
  await sessions.getByRole('button', { name: 'Save' }).click();
  const reloginError = sessions.locator(`[id="${await relogin.getAttribute('id')}-error"]`);
  await visible(page, reloginError);
  expect(await reloginError.textContent()).toBe('This is longer than the vendor allows: at most 1 day.');
  expect(await relogin.getAttribute('aria-invalid')).toBe('true');
  expect(await relogin.inputValue()).toBe('2');
  expect((await policy(page, SecurityPaths.sessionsPolicy)).sessionTimeoutConfiguration).toEqual({ isActive: true, timeout: 86_400 });
  await page.screenshot({ path: screenshotPath('admin-security-sessions-refused') });

  // generalSettings, reached with the keyboard: force MFA, previewed as the one unenrolled user asked to enrol.
  await tabs.first().focus();
  await page.keyboard.press('ArrowRight');
  const general = portal.getByRole('tabpanel', { name: 'General settings' });
  const mfa = general.getByRole('region', { name: 'Multi-factor authentication' });
  await visible(page, mfa.getByLabel('Require MFA'));
  await mfa.getByLabel('Require MFA').selectOption('Force');
  await mfa.getByRole('button', { name: 'Save' }).click();
  const preview = mfa.getByRole('group', { name: 'Before you save' });
  await visible(page, preview);
  expect(await preview.textContent()).toContain('Forcing MFA will ask 1 of 1');
  await expectAccessible(page, 'admin security generalSettings preview');
  await shots(page, 'admin-security-general-preview');
  await mfa.getByRole('button', { name: 'Confirm and save' }).click();
  await visible(page, mfa.getByRole('status').getByText('MFA policy saved'));
  const saved = await policy(page, SecurityPaths.mfaPolicy);
  expect(saved.enforceMFAType).toBe('Force');
  expect(typeof saved.id).toBe('string');

  // Error path: 10 attempts is looser than the vendor's 5; the field says so and keeps the value.
  const lockout = general.getByRole('region', { name: 'Account lockout' });
  const attempts = lockout.getByLabel('Failed attempts before lockout');
  await attempts.fill('10');
  await lockout.getByRole('button', { name: 'Save' }).click();
  await visible(page, lockout.getByText("Cannot be more than the vendor's 5"));
  expect(await attempts.getAttribute('aria-invalid')).toBe('true');
  expect(await attempts.inputValue()).toBe('10');
  expect((await policy(page, SecurityPaths.lockoutPolicy)).maxAttempts).toBe(5);
  await expectAccessible(page, 'admin security generalSettings refused');
  await shots(page, 'admin-security-general-refused');

  expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);

  // In Hebrew the section reads right to left, in its own words.
  const hebrew = await browser.newContext({ locale: 'he-IL', viewport: { width: 1280, height: 900 }, storageState: await context.storageState() });
  await context.close();
  // A session of its own: refresh tokens rotate, so the saved cookie serves one context only.
  expect((await hebrew.request.post(`${server.url}/identity/resources/auth/v1/user`, { data: { email, password: PASSWORD } })).status()).toBe(200);
  const rtl = await hebrew.newPage();
  await rtl.goto(`${server.url}/`);
  await visible(rtl, rtl.getByTestId('signed-in-user'));
  await rtl.getByRole('button', { name: 'Admin portal' }).click();
  const portalHe = rtl.getByRole('dialog', { name: 'פורטל הניהול' });
  await visible(rtl, portalHe);
  await portalHe.getByRole('button', { name: 'אבטחה', exact: true }).click();
  await visible(rtl, portalHe.getByRole('tab', { name: 'ניהול סשנים' }));
  await portalHe.getByRole('tab', { name: 'הגדרות כלליות' }).click();
  await visible(rtl, portalHe.getByRole('region', { name: 'נעילת חשבון' }).getByRole('button', { name: 'שמירה' }));
  expect(await rtl.locator('.gh-ap').first().getAttribute('dir')).toBe('rtl');
  await expectAccessible(rtl, 'admin security generalSettings hebrew');
  await shots(rtl, 'admin-security-general-he');
  await portalHe.getByRole('tab', { name: 'ניהול סשנים' }).click();
  await visible(rtl, portalHe.getByRole('group', { name: 'זמן חוסר פעילות' }));
  await shots(rtl, 'admin-security-sessions-he');
  await hebrew.close();
});
