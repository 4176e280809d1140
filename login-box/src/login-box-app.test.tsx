/**
 * The box as a whole: the language (the `locale` option, else the browser), Hebrew right to left,
 * the tenant's custom login look, and no landmark elements that could clash with the host page's.
 */
import { act, fireEvent, waitFor } from '@testing-library/react';
import { resolveTheme } from '@gatehouse/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { autoCleanup, json, mountLoginBox } from './test/harness';
import { brandColorVariables } from './custom-login-look';

const PUBLIC_SETTINGS = 'GET /tenants/resources/account-settings/v1/public';

autoCleanup();
afterEach(() => vi.restoreAllMocks());

describe('language', () => {
  it('speaks the language of the locale option', async () => {
    const { view, shadow } = await mountLoginBox('/account/login', {}, { mountOptions: { locale: 'de' } });
    expect(await view.findByRole('heading', { name: 'Anmelden' })).toBeTruthy();
    expect(view.getByLabelText('E-Mail-Adresse')).toBeTruthy();
    const root = shadow.querySelector('.gh-root')!;
    expect(root.getAttribute('lang')).toBe('de');
    expect(root.getAttribute('dir')).toBe('ltr');
  });

  it('without the option, follows the browser’s languages', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['es-MX', 'en']);
    const { view } = await mountLoginBox('/account/sign-up');
    expect(await view.findByRole('heading', { name: 'Crea tu cuenta' })).toBeTruthy();
  });

  it('lays Hebrew out right to left on the box root', async () => {
    const { view, shadow } = await mountLoginBox('/account/login', {}, { mountOptions: { locale: 'he' } });
    expect(await view.findByRole('heading', { name: 'כניסה' })).toBeTruthy();
    const root = shadow.querySelector('.gh-root')!;
    expect(root.getAttribute('dir')).toBe('rtl');
    expect(root.getAttribute('lang')).toBe('he');
    // The email field reads left to right inside the right-to-left box.
    expect(view.getByLabelText('אימייל').getAttribute('dir')).toBe('ltr');
  });

  it('isolates a filled-in email in a Hebrew sentence, so its direction cannot scramble the sentence', async () => {
    const { view } = await mountLoginBox('/account/forget-password', { 'GET /identity/resources/users/v1/passwords/recovery/strategies': () => json({ strategies: [{ strategy: 'email', isActive: true }, { strategy: 'sms', isActive: true }] }) }, { mountOptions: { locale: 'he' } });
    const email = await view.findByLabelText('אימייל');
    fireEvent.change(email, { target: { value: 'a11y-he-1@example.com' } });
    fireEvent.submit((email as HTMLInputElement).form!);
    expect(await view.findByText('איך לאפס את הסיסמה של \u2068a11y-he-1@example.com\u2069?')).toBeTruthy();
  });

  it('falls back to English for a language it does not have', async () => {
    const { view } = await mountLoginBox('/account/login', {}, { mountOptions: { locale: 'fr' } });
    expect(await view.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
  });
});

describe('dark mode', () => {
  it('follows the system by default, and the host’s theme option forces a scheme', async () => {
    const system = await mountLoginBox('/account/login');
    expect(system.domElement.getAttribute('data-gh-scheme')).toBe('system');
    const forced = await mountLoginBox('/account/login', {}, { mountOptions: { theme: 'dark' } });
    expect(forced.domElement.getAttribute('data-gh-scheme')).toBe('dark');
    // The tenant's metadata (through the loader's theme setter) does not override the host's choice.
    act(() => forced.themeSetter()!(resolveTheme({ theme: { mode: 'light' } })));
    expect(forced.domElement.getAttribute('data-gh-scheme')).toBe('dark');
  });
});

describe('custom login look', () => {
  it('shows the tenant’s title and logo and uses its colour when custom login is on', async () => {
    const { view, shadow, calls } = await mountLoginBox('/account/login?tenantId=t1', {
      [PUBLIC_SETTINGS]: () => json({ applicationUrl: null, hasCustomLogin: true, logo: 'https://cdn.example.com/acme.png', companyName: 'Acme', loginTitle: 'Welcome to Acme', loginColor: '#0b5394' }),
    });
    expect(await view.findByText('Welcome to Acme')).toBeTruthy();
    expect(view.getByRole('img', { name: 'Acme' }).getAttribute('src')).toBe('https://cdn.example.com/acme.png');
    const root = shadow.querySelector<HTMLElement>('.gh-root')!;
    expect(root.style.getPropertyValue('--gh-primary')).toBe('#0b5394');
    expect(calls.find((c) => c.key === PUBLIC_SETTINGS)!.url.searchParams.get('tenantId')).toBe('t1');
  });

  it('changes nothing while custom login is off, and refuses a logo that is not http(s)', async () => {
    const { view, shadow } = await mountLoginBox('/account/login?tenantId=t1', {
      [PUBLIC_SETTINGS]: () => json({ applicationUrl: null, hasCustomLogin: false, logo: null, companyName: 'Acme', loginTitle: null, loginColor: null }),
    });
    await view.findByRole('heading', { name: 'Sign in' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(shadow.querySelector('.gh-brand')).toBeNull();
    const off = await mountLoginBox('/account/login?tenantId=t2', {
      [PUBLIC_SETTINGS]: () => json({ applicationUrl: null, hasCustomLogin: true, logo: 'javascript:alert(1)', companyName: 'Evil', loginTitle: 'Hi', loginColor: null }),
    });
    await off.view.findByText('Hi');
    expect(off.shadow.querySelector('img')).toBeNull();
  });

  it('keeps a brand colour only in the schemes where it stays readable (WCAG AA)', () => {
    expect(brandColorVariables('#0b5394')).toMatchObject({ '--gh-primary': '#0b5394' });
    expect(brandColorVariables('#0b5394')).not.toHaveProperty('--gh-dark-primary');
    // Yellow: unreadable on white, fine on the dark surface with dark text on it.
    expect(brandColorVariables('#ffff00')).not.toHaveProperty('--gh-primary');
    expect(brandColorVariables('#ffff00')).toMatchObject({ '--gh-dark-primary': '#ffff00', '--gh-dark-on-primary': '#111827' });
    expect(brandColorVariables('red; background: url(x)')).toBeUndefined();
  });
});

describe('landmarks', () => {
  it('renders no main, header, footer or nav on any of its first screens', async () => {
    for (const path of ['/account/login', '/account/sign-up', '/account/forget-password']) {
      const { shadow, view } = await mountLoginBox(path);
      await waitFor(() => expect(view.getAllByRole('heading').length).toBeGreaterThan(0));
      expect(shadow.querySelectorAll('main, header, footer, nav, aside, [role=main], [role=banner], [role=contentinfo], [role=navigation]')).toHaveLength(0);
    }
  });
});
