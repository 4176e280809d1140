import { fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveTheme, type ResolvedTheme } from '@gatehouse/shared';
import { createTestStore, makeUser, portalProps, shadowMountPoint } from './test/fake-store';
import { cleanupPortals, mountPortal, unmountPortal } from './test/mount-portal';
import { rememberSlackState } from './sections/connectivity/slack-return';

afterEach(cleanupPortals);

/** The adopted sheets that carry the shell's own rules. */
const shellSheets = (sheets: readonly CSSStyleSheet[]) => sheets.filter((sheet) => [...sheet.cssRules].some((rule) => rule.cssText.includes('.gh-ap-dialog')));

const navButtons = (container: HTMLElement) =>
  within(within(container).getByRole('navigation', { name: 'Admin portal sections' })).getAllByRole('button').map((b) => b.textContent);

describe('admin portal shell', () => {
  it('renders a labelled modal dialog with the user, email and tenant in the header', async () => {
    const { domElement } = shadowMountPoint();
    await mountPortal(portalProps(domElement, createTestStore(makeUser())));
    const dialog = within(domElement).getByRole('dialog', { name: 'Admin portal' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const header = within(dialog.querySelector<HTMLElement>('.gh-ap-header')!);
    expect(header.getByText('Ada Lovelace')).toBeTruthy();
    expect(header.getByText('ada@example.com')).toBeTruthy();
    expect(header.getByText('Analytical Engines')).toBeTruthy();
  });

  it('renders no page landmark of its own: no main, no banner header, no contentinfo footer (the host page has them)', async () => {
    const { domElement } = shadowMountPoint();
    await mountPortal(portalProps(domElement, createTestStore(makeUser())));
    await within(domElement).findByLabelText('Name');
    expect(domElement.querySelectorAll('main, header, footer, [role="main"], [role="banner"], [role="contentinfo"]')).toHaveLength(0);
  });

  it('speaks the locale option, else the browser’s language: German labels, Hebrew right to left', async () => {
    const { domElement } = shadowMountPoint();
    await mountPortal(portalProps(domElement, createTestStore(makeUser()), { locale: 'de-AT' }));
    const dialog = await within(domElement).findByRole('dialog', { name: 'Verwaltungsportal' });
    const nav = within(domElement).getByRole('navigation', { name: 'Bereiche des Verwaltungsportals' });
    expect(within(nav).getAllByRole('button').map((b) => b.textContent)).toEqual(['Profil', 'Datenschutz']);
    expect(dialog.closest('.gh-ap')!.getAttribute('lang')).toBe('de');
    expect(dialog.closest('.gh-ap')!.getAttribute('dir')).toBe('ltr');
    await cleanupPortals();

    const hebrew = shadowMountPoint();
    await mountPortal(portalProps(hebrew.domElement, createTestStore(makeUser()), { locale: 'he' }));
    const rtl = await within(hebrew.domElement).findByRole('dialog', { name: 'פורטל הניהול' });
    expect(rtl.closest('.gh-ap')!.getAttribute('dir')).toBe('rtl');
    expect(await within(hebrew.domElement).findByRole('heading', { name: 'פרופיל' })).toBeTruthy();
  });

  it(`opens at once: the shell's shape while its language loads, then a section skeleton, never bare "Loading…" text`, async () => {
    const { domElement } = shadowMountPoint();
    await mountPortal(portalProps(domElement, createTestStore(makeUser()), { locale: 'es' }));
    // Spanish is not loaded yet: the frame is there at once, busy, without words.
    const frame = domElement.querySelector<HTMLElement>('.gh-ap-dialog')!;
    expect(frame.getAttribute('aria-busy')).toBe('true');
    expect(frame.querySelectorAll('.gh-ap-skeleton-bar').length).toBeGreaterThan(0);
    expect(domElement.textContent).toBe('');
    const dialog = await within(domElement).findByRole('dialog', { name: 'Portal de administración' });
    // The section's chunk and catalog follow: its skeleton says what loads to screen readers only.
    const busy = dialog.querySelector('.gh-ap-skeleton[aria-busy="true"]');
    if (busy) expect(within(busy as HTMLElement).getByRole('status').className).toBe('gh-ap-visually-hidden');
    expect(await within(domElement).findByRole('heading', { name: 'Perfil' })).toBeTruthy();
    expect(domElement.textContent).not.toMatch(/Loading|Cargando/);
  });

  it('adopts the stylesheet into the shadow root and applies theme tokens as --gh-* properties', async () => {
    const { root, domElement } = shadowMountPoint();
    let setter: ((theme: ResolvedTheme) => void) | undefined;
    await mountPortal(portalProps(domElement, createTestStore(makeUser()), { setThemeSetter: (fn) => (setter = fn) }));
    // The shell's sheet, once (a section's own sheets may follow it once the section shows).
    expect(shellSheets(root.adoptedStyleSheets)).toHaveLength(1);
    setter!(resolveTheme({ theme: { primaryColor: '#ff0066', borderRadius: '4px' } }));
    expect(domElement.style.getPropertyValue('--gh-primary')).toBe('#ff0066');
    expect(domElement.style.getPropertyValue('--gh-radius')).toBe('4px');
  });

  it('shows navigation entries by permission: no permissions -> profile and privacy only', async () => {
    const { domElement } = shadowMountPoint();
    await mountPortal(portalProps(domElement, createTestStore(makeUser())));
    expect(navButtons(domElement)).toEqual(['Profile', 'Privacy']);
    expect(await within(domElement).findByLabelText('Name')).toBeTruthy();
  });

  it('shows always entries the user may read, and hidden ones the options turn on', async () => {
    const user = makeUser({ permissions: ['fe.secure.read.users', 'fe.secure.read.audits', 'fe.secure.read.roles'].map((key, i) => ({ id: String(i), key, name: key })) });
    const { domElement } = shadowMountPoint();
    await mountPortal(portalProps(domElement, createTestStore(user), { adminPortal: { navigation: { roles: { visibility: 'always' }, webhooks: { visibility: 'always' } } } }));
    expect(navButtons(domElement)).toEqual(['Profile', 'Privacy', 'Users', 'Roles', 'Audit logs']);
  });

  it('shows every entry to a super user (the seed’s sixteen, the security center, Reports and, last, the Operator area)', async () => {
    const { domElement } = shadowMountPoint();
    await mountPortal(portalProps(domElement, createTestStore(makeUser({ superUser: true }))));
    expect(navButtons(domElement)).toHaveLength(19);
    expect(navButtons(domElement).at(-1)).toBe('Operator');
  });

  it('opens the Connectivity section (the webhooks entry) with only the tabs its reader may read, from the list or the compact select', async () => {
    const user = makeUser({ permissions: [{ id: '1', key: 'fe.connectivity.read.webhooks', name: 'Read webhooks' }] });
    const { domElement } = shadowMountPoint();
    await mountPortal(portalProps(domElement, createTestStore(user), { adminPortal: { navigation: { webhooks: { visibility: 'always' } } } }));
    const view = within(domElement);
    fireEvent.click(view.getByRole('button', { name: 'Connectivity' }));
    const panel = await view.findByRole('region', { name: 'Connectivity' }, { timeout: 5000 });
    expect(within(panel).getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Webhooks']);
    expect(within(panel).queryByText('Coming soon')).toBeNull();
    expect(view.getByRole('button', { name: 'Connectivity' }).getAttribute('aria-current')).toBe('page');
    fireEvent.change(view.getByLabelText('Section'), { target: { value: 'privacy' } });
    // The Privacy chunk loads first: on a loaded machine that takes more than the default second.
    expect(await view.findByRole('region', { name: 'Privacy' }, { timeout: 5000 })).toBeTruthy();
  });

  it('opens on the Connectivity section’s Slack tab when the page is Slack’s return (?code=&state=), and the tab takes them out of the address bar', async () => {
    rememberSlackState('st4te');
    window.history.replaceState(null, '', '/admin?code=c0de&state=st4te');
    try {
      const keys = ['fe.secure.read.users', 'fe.connectivity.read.webhooks', 'fe.connectivity.read.slackApp', 'fe.connectivity.write.slackApp'];
      const user = makeUser({ permissions: keys.map((key, i) => ({ id: String(i), key, name: key })) });
      const { domElement } = shadowMountPoint();
      await mountPortal(portalProps(domElement, createTestStore(user), { adminPortal: { navigation: { webhooks: { visibility: 'byPermissions' } } } }));
      const view = within(domElement);
      const panel = await view.findByRole('region', { name: 'Connectivity' }, { timeout: 5000 });
      expect(within(panel).getByRole('tab', { name: 'Slack' }).getAttribute('aria-selected')).toBe('true');
      // The tab took the code and state out of the address bar as it sent them.
      await waitFor(() => expect(window.location.search).toBe(''));
    } finally {
      window.history.replaceState(null, '', '/');
      localStorage.clear();
    }
  });

  it('calls onClose on Escape and on the Close button', async () => {
    const onClose = vi.fn();
    const { domElement } = shadowMountPoint();
    await mountPortal(portalProps(domElement, createTestStore(makeUser()), { onClose }));
    const dialog = within(domElement).getByRole('dialog');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.click(within(domElement).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('moves focus into the dialog, keeps Tab inside it, and gives focus back on unmount', async () => {
    const opener = document.createElement('button');
    opener.textContent = 'Open portal';
    document.body.append(opener);
    opener.focus();
    const { root, domElement } = shadowMountPoint();
    const props = portalProps(domElement, createTestStore(makeUser()));
    const parcel = await mountPortal(props);
    const dialog = within(domElement).getByRole('dialog');
    expect(root.activeElement).toBe(dialog);
    const save = await within(domElement).findByRole('button', { name: 'Save' });
    save.focus();
    fireEvent.keyDown(save, { key: 'Tab' });
    expect(root.activeElement).toBe(within(domElement).getByRole('button', { name: 'Close' }));
    fireEvent.keyDown(root.activeElement!, { key: 'Tab', shiftKey: true });
    expect(root.activeElement).toBe(save);
    await unmountPortal(parcel, props);
    expect(document.activeElement).toBe(opener);
  });

  it('leaves no DOM, stylesheet, theme, store subscription or document listener behind on unmount', async () => {
    const added = vi.spyOn(document, 'addEventListener');
    const removed = vi.spyOn(document, 'removeEventListener');
    const store = createTestStore(makeUser());
    const { root, domElement } = shadowMountPoint();
    let setter: ((theme: ResolvedTheme) => void) | undefined;
    const props = portalProps(domElement, store, { setThemeSetter: (fn) => (setter = fn) });
    const parcel = await mountPortal(props);
    await within(domElement).findByLabelText('Name');
    setter!(resolveTheme({ theme: { primaryColor: 'red' } }));
    const keydownAdds = added.mock.calls.filter(([type]) => type === 'keydown');
    expect(keydownAdds).toHaveLength(1);

    await unmountPortal(parcel, props);
    expect(domElement.childNodes).toHaveLength(0);
    expect(root.adoptedStyleSheets).toHaveLength(0);
    expect(domElement.hasAttribute('style')).toBe(false);
    expect(store.listenerCount()).toBe(0);
    expect(removed.mock.calls.filter(([type, fn]) => type === 'keydown' && fn === keydownAdds[0]![1])).toHaveLength(1);
    setter!(resolveTheme({ theme: { primaryColor: 'blue' } }));
    expect(domElement.hasAttribute('style')).toBe(false);
    added.mockRestore();
    removed.mockRestore();
  });

  it('works in light DOM too, adopting the sheet into the document', async () => {
    const domElement = document.createElement('div');
    document.body.append(domElement);
    const before = document.adoptedStyleSheets.length;
    const props = portalProps(domElement, createTestStore(makeUser()));
    const parcel = await mountPortal(props);
    expect(shellSheets(document.adoptedStyleSheets)).toHaveLength(1);
    await unmountPortal(parcel, props);
    expect(document.adoptedStyleSheets.length).toBe(before);
  });
});

describe('sections opening one another (issue 12)', () => {
  it('the security center’s "Adjust idle timeout" opens the Security section (current in the navigation) with the target; the navigation clears it', async () => {
    const { domElement } = shadowMountPoint();
    const user = makeUser({ permissions: [{ id: 'p1', key: 'fe.secure.read.securityPolicy', name: 'read' }] });
    const props = portalProps(domElement, createTestStore(user));
    const recommendations = { score: 40, level: 'Fair', recommendations: [{ code: 'ENABLE_IDLE_SESSION', severity: 'WARNING', category: 'SESSIONS', description: 'Sessions never time out when idle.', points: 5, action: 'ADJUST_IDLE_TIMEOUT' }] };
    const requests: string[] = [];
    props.api = {
      ...props.api,
      request: async (method: string, path: string) => {
        requests.push(`${method} ${path}`);
        if (path === '/security-center/resources/recommendations/v1') return recommendations;
        if (path === '/security-center/resources/insights/v1') return { insights: [] };
        if (path === '/security-center/resources/score-history/v1') return { points: [] };
        if (path === '/team/resources/members/v1') return { items: [], _metadata: { totalItems: 0, totalPages: 0 } };
        throw Object.assign(new Error('Not in this test'), { statusCode: 404 });
      },
    } as typeof props.api;
    const seen: (string | undefined)[] = [];
    // The Security section is another part's; what the shell hands it is read from its props here.
    const sections = await import('./sections');
    const original = sections.sectionComponent;
    const spy = vi.spyOn(sections, 'sectionComponent').mockImplementation((id, locale, namespaces) => {
      if (id !== 'security') return original(id, locale, namespaces);
      const Probe = (p: { target?: string; headingId: string; title: string }) => {
        seen.push(p.target);
        return <h2 id={p.headingId}>{p.title}</h2>;
      };
      return Probe as unknown as ReturnType<typeof original>;
    });
    await mountPortal(props);
    const view = within(domElement);
    fireEvent.click(await view.findByRole('button', { name: 'Security center' }));
    fireEvent.click(await view.findByRole('button', { name: 'Adjust idle timeout' }));
    expect(await view.findByRole('heading', { name: 'Security' })).toBeTruthy();
    const nav = within(view.getByRole('navigation', { name: 'Admin portal sections' }));
    expect(nav.getByRole('button', { name: 'Security' }).getAttribute('aria-current')).toBe('page');
    expect(seen.at(-1)).toBe('sessionManagement:idleTimeout');
    fireEvent.click(nav.getByRole('button', { name: 'Profile' }));
    fireEvent.click(nav.getByRole('button', { name: 'Security' }));
    await view.findByRole('heading', { name: 'Security' });
    expect(seen.at(-1)).toBeUndefined();
    spy.mockRestore();
  });
});
