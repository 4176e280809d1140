/**
 * axe-core on every login-box step this server can reach (inside the shadow root), in light mode,
 * dark mode (prefers-color-scheme) and Hebrew (the browser's language): 0 serious, 0 critical.
 * Screenshots of the sign-in and sign-up steps in each are written for people to look at; only
 * what is stable is asserted (direction, language, scheme, and that the card fits the viewport).
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './support/axe';
import { screenshotPath } from './support/browser';
import { linkIn, type OutboxMessage } from './support/mailbox';
import { useBrowserAndServer } from './support/server';
import { PASSWORD, visible } from './support/journey';

const env = useBrowserAndServer({ LOCKOUT_MAX_ATTEMPTS: '3' });

interface Variant {
  name: string;
  context: BrowserContextOptions;
  /** The words of the steps this test clicks through, in the variant's language. */
  words: Record<'signIn' | 'continue' | 'signUp' | 'createAccount' | 'name' | 'company' | 'email' | 'password' | 'confirmNew' | 'newPassword' | 'checkEmail' | 'forgot' | 'resetPassword' | 'byEmail' | 'setNew' | 'activated' | 'verifyTitle', string>;
  dir: 'ltr' | 'rtl';
  lang: string;
  dark: boolean;
}

const ENGLISH: Variant['words'] = {
  signIn: 'Sign in',
  continue: 'Continue',
  signUp: 'Sign up',
  createAccount: 'Create your account',
  name: 'Name',
  company: 'Company name',
  email: 'Email',
  password: 'Password',
  confirmNew: 'Confirm new password',
  newPassword: 'New password',
  checkEmail: 'Check your email',
  forgot: 'Forgot password?',
  resetPassword: 'Reset password',
  byEmail: 'Email me a reset link',
  setNew: 'Set new password',
  activated: 'Account activated',
  verifyTitle: 'Verify it’s you',
};

const VARIANTS: Variant[] = [
  { name: 'light', context: { colorScheme: 'light', locale: 'en-US' }, words: ENGLISH, dir: 'ltr', lang: 'en', dark: false },
  { name: 'dark', context: { colorScheme: 'dark', locale: 'en-US' }, words: ENGLISH, dir: 'ltr', lang: 'en', dark: true },
  {
    name: 'hebrew',
    context: { colorScheme: 'light', locale: 'he-IL' },
    words: {
      signIn: 'כניסה',
      continue: 'המשך',
      signUp: 'הרשמה',
      createAccount: 'יצירת חשבון',
      name: 'שם',
      company: 'שם החברה',
      email: 'אימייל',
      password: 'סיסמה',
      confirmNew: 'אימות הסיסמה החדשה',
      newPassword: 'סיסמה חדשה',
      checkEmail: 'בדיקת האימייל',
      forgot: 'שכחת את הסיסמה?',
      resetPassword: 'איפוס הסיסמה',
      byEmail: 'קישור באימייל',
      setNew: 'שמירת הסיסמה החדשה',
      activated: 'החשבון הופעל',
      verifyTitle: 'אימות זהות',
    },
    dir: 'rtl',
    lang: 'he',
    dark: false,
  },
];

/** The newest link to `path` mailed to `to` (the emails speak the user's language, so no subject is matched). */
async function emailedLink(baseUrl: string, to: string, path: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const messages = (await (await fetch(`${baseUrl}/dev/mailbox.json`)).json()) as OutboxMessage[];
    const found = messages.find((m) => m.to.includes(to) && m.text.includes(path));
    if (found) return linkIn(found, path);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to} with a link to ${path}`);
}

const box = (page: Page) => page.locator('.gh-root');
const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });

async function newPage(browser: Browser, variant: Variant): Promise<Page> {
  const context = await browser.newContext({ ...variant.context, viewport: { width: 1280, height: 800 } });
  return context.newPage();
}

/** The box's root: its language, direction and the background of its card, as the browser computed them. */
async function boxLook(page: Page) {
  return box(page).evaluate((root) => {
    const card = root.querySelector('.gh-card')!;
    const rect = card.getBoundingClientRect();
    return { dir: root.getAttribute('dir'), lang: root.getAttribute('lang'), background: getComputedStyle(card).backgroundColor, right: rect.right, width: rect.width };
  });
}

describe.each(VARIANTS)('login box accessibility ($name)', (variant) => {
  const w = variant.words;
  const email = `a11y-${variant.name}-${Date.now()}@example.com`;

  it('sign-in, its errors, sign-up, its errors and success, the unverified notice, activation, step-up, recovery and the failed links have no serious or critical violation', async () => {
    const page = await newPage(env.browser, variant);
    const url = env.server.url;

    // Sign in: the identifier step, then its own validation at the field.
    await page.goto(`${url}/account/login`);
    await visible(page, heading(page, w.signIn));
    const look = await boxLook(page);
    expect(look).toMatchObject({ dir: variant.dir, lang: variant.lang });
    // Dark: the card's surface is the dark palette's (#111827); light: the tenant's light surface.
    const [r, g, b] = look.background.match(/\d+/g)!.map(Number) as [number, number, number];
    const brightness = (r + g + b) / 3;
    if (variant.dark) expect(look.background).toBe('rgb(17, 24, 39)');
    else expect(brightness).toBeGreaterThan(230);
    expect(look.right).toBeLessThanOrEqual(1280);
    await page.screenshot({ path: screenshotPath(`login-box-${variant.name}-login`) });
    expect(existsSync(screenshotPath(`login-box-${variant.name}-login`))).toBe(true);
    await expectAccessible(page, `${variant.name}: login`);
    await page.getByRole('button', { name: w.continue }).click();
    await visible(page, page.locator('[aria-invalid="true"]'));
    await expectAccessible(page, `${variant.name}: login, empty email`);

    // Sign up: errors at the fields, the policy and the strength meter, then success.
    await page.goto(`${url}/account/sign-up`);
    await visible(page, heading(page, w.createAccount));
    await page.getByRole('button', { name: w.signUp, exact: true }).click();
    await visible(page, page.locator('[aria-invalid="true"]'));
    await expectAccessible(page, `${variant.name}: sign-up, errors at fields`);
    await page.getByLabel(w.name, { exact: true }).fill('Ada Lovelace');
    await page.getByLabel(w.company, { exact: true }).fill('Analytical Engines');
    await page.getByLabel(w.email, { exact: true }).fill(email);
    await page.getByLabel(w.password, { exact: true }).fill(PASSWORD);
    await visible(page, page.locator('.gh-strength[data-score="4"], .gh-strength[data-score="3"]'));
    await page.screenshot({ path: screenshotPath(`login-box-${variant.name}-signup`) });
    await expectAccessible(page, `${variant.name}: sign-up with strength meter`);
    await page.getByRole('button', { name: w.signUp, exact: true }).click();
    await visible(page, heading(page, w.checkEmail));
    await expectAccessible(page, `${variant.name}: sign-up success`);

    // The right password before activation: the verify-your-email notice with its resend button.
    await page.goto(`${url}/account/login`);
    await page.getByLabel(w.email, { exact: true }).fill(email);
    await page.getByRole('button', { name: w.continue }).click();
    await page.getByLabel(w.password, { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: w.signIn, exact: true }).click();
    await visible(page, page.locator('.gh-notice[data-kind="warning"]'));
    await page.screenshot({ path: screenshotPath(`login-box-${variant.name}-unverified`) });
    await expectAccessible(page, `${variant.name}: unverified notice`);

    // A wrong password: the generic message.
    await page.getByLabel(w.password, { exact: true }).fill('not the password at all');
    await page.getByRole('button', { name: w.signIn, exact: true }).click();
    await visible(page, page.locator('.gh-alert'));
    await expectAccessible(page, `${variant.name}: wrong password`);

    // Activation: the success state with Continue (audited before the seed's 5 s are up).
    const activation = await emailedLink(url, email, '/account/activate');
    await page.goto(activation);
    await visible(page, heading(page, w.activated));
    await expectAccessible(page, `${variant.name}: activation success`);
    await page.getByRole('button', { name: w.continue }).click();
    await page.waitForURL(`${url}/`, { timeout: 5000 });

    // Step-up without a second factor: the enrolment step (QR code, secret, code field).
    await page.goto(`${url}/account/step-up`);
    await visible(page, heading(page, w.verifyTitle));
    await visible(page, page.locator('.gh-card button'));
    await expectAccessible(page, `${variant.name}: step-up, choose a second factor`);
    await page.locator('.gh-card button').first().click();
    await visible(page, page.locator('.gh-card img'));
    await expectAccessible(page, `${variant.name}: step-up, set up an authenticator app`);

    // Recovery: the email step, the channel chooser, the sent notice, then the emailed link.
    const anonymous = await newPage(env.browser, variant);
    await anonymous.goto(`${url}/account/forget-password`);
    await visible(anonymous, heading(anonymous, w.forgot));
    await expectAccessible(anonymous, `${variant.name}: forgot password`);
    await anonymous.getByLabel(w.email, { exact: true }).fill(email);
    await anonymous.getByRole('button', { name: w.resetPassword }).click();
    await visible(anonymous, anonymous.getByRole('button', { name: w.byEmail }));
    await anonymous.screenshot({ path: screenshotPath(`login-box-${variant.name}-recovery-choice`) });
    await expectAccessible(anonymous, `${variant.name}: recovery method chooser`);
    await anonymous.getByRole('button', { name: w.byEmail }).click();
    await visible(anonymous, heading(anonymous, w.checkEmail));
    await expectAccessible(anonymous, `${variant.name}: recovery email sent`);
    const reset = await emailedLink(url, email, '/account/reset-password');
    await anonymous.goto(reset);
    await visible(anonymous, anonymous.getByLabel(w.newPassword, { exact: true }));
    await anonymous.getByLabel(w.newPassword, { exact: true }).fill('a new passphrase for ada 9');
    await anonymous.getByLabel(w.confirmNew, { exact: true }).fill('something else');
    await anonymous.getByRole('button', { name: w.setNew }).click();
    await visible(anonymous, anonymous.locator('[aria-invalid="true"]'));
    await expectAccessible(anonymous, `${variant.name}: reset, confirmation error`);
    await anonymous.getByLabel(w.confirmNew, { exact: true }).fill('a new passphrase for ada 9');
    await anonymous.getByRole('button', { name: w.setNew }).click();
    await visible(anonymous, anonymous.locator('.gh-success'));
    await expectAccessible(anonymous, `${variant.name}: reset success`);

    // Links that do not work: activation, unlock, magic link, invitation.
    for (const [path, label] of [
      ['/account/activate?userId=nobody&token=bad', 'activation failed, resend form'],
      ['/account/unlock?token=bad', 'unlock failed'],
      ['/account/login/magic-link', 'magic link invalid'],
      ['/account/invitation/accept?userId=u1', 'invitation link incomplete'],
    ] as const) {
      await anonymous.goto(`${url}${path}`);
      await visible(anonymous, anonymous.locator('.gh-alert'));
      await expectAccessible(anonymous, `${variant.name}: ${label}`);
    }
    await anonymous.context().close();
    await page.context().close();
    // 19 steps with axe on each: more than the default budget under a loaded CI machine.
  }, 180_000);
});
