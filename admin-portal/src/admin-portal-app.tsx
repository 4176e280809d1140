import { Suspense, useCallback, useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { isFlagOn } from '@gatehouse/shared';
import { MULTI_APPS_ADMIN_PORTAL_FLAG } from '@gatehouse/shared/admin-paths';
import type { AdminPortalProps } from './admin-portal-props';
import type { Locale } from './contract';
import { trapTab } from './focus';
import { useNamespaces } from './i18n/i18n-context';
import { SECTION_NAMESPACES } from './i18n/namespaces';
import { visibleEntries, type NavigationEntry, type SectionId } from './navigation';
import { readAdminPortalOptions } from './options';
import { forgetSection, sectionComponent } from './sections';
import { SectionBoundary } from './section-boundary';
import { SectionSkeleton } from './skeleton';
import { useAuthSnapshot } from './use-auth-snapshot';
import { UserBadge } from './user-badge';
import { TenantSwitcher } from './tenant-switcher';
import { NotificationBell, seesNotifications } from './notifications/notification-bell';
import { slackReturn } from './sections/connectivity/slack-return';

/**
 * The admin portal shell: full-screen dialog with navigation and the active section. It renders no
 * page landmark of its own (no main, no banner): it sits inside someone else's page, which has them.
 */
export function AdminPortalApp(props: AdminPortalProps) {
  const { store, api, onClose } = props;
  const t = useNamespaces(['shell']);
  const snapshot = useAuthSnapshot(store);
  const user = snapshot.user;
  const options = useMemo(
    () => ({ ...readAdminPortalOptions(props.options.adminPortal), flags: props.options.flags ?? {} }),
    [props.options.adminPortal, props.options.flags],
  );
  // Multi-app mode (seed 000 section 2.1) only while the flag is on, whatever the runtime asked.
  const multiApps = props.multiApps === true && isFlagOn(props.options.flags, MULTI_APPS_ADMIN_PORTAL_FLAG);
  const entries = useMemo(
    () => visibleEntries({ user, overrides: options.navigation, flags: props.options.flags, multiApps }),
    [user, options.navigation, props.options.flags, multiApps],
  );
  // Multi-app mode opens on the Applications view (and goes there when the shown portal switches to it).
  // Back from Slack's consent (`?code=&state=` on the page) it opens on Connectivity, whose Slack tab finishes the connection.
  const [selected, setSelected] = useState<SectionId | null>(multiApps ? 'applications' : typeof window !== 'undefined' && slackReturn(window.location) ? 'webhooks' : null);
  useEffect(() => {
    if (multiApps) setSelected('applications');
  }, [multiApps]);
  // Where `openSection` asked the opened section to go (a tab, or `<tab>:<setting>`); picking a section from the navigation clears it.
  const [target, setTarget] = useState<{ section: SectionId; target: string } | null>(null);
  const active = entries.find((entry) => entry.section === selected) ?? entries[0];
  const choose = (section: SectionId) => {
    setTarget(null);
    setSelected(section);
  };
  /** Issue 12: one section opens another (the security center opens Security at a setting); unknown or hidden sections are ignored. */
  const openSection = useCallback(
    (section: string, at?: string) => {
      const entry = entries.find((candidate) => candidate.section === section);
      if (!entry) return;
      setTarget(at ? { section: entry.section, target: at } : null);
      setSelected(entry.section);
    },
    [entries],
  );
  const label = (entry: NavigationEntry) => t.t(`nav.${entry.key}`);

  const dialogRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const titleId = useId();
  const headingId = useId();
  const selectId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    dialog.focus();
    // A document listener catches Escape and Tab even when focus has slipped out of the dialog.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        onCloseRef.current();
      } else if (event.key === 'Tab') {
        trapTab(dialog, event);
      }
    };
    const doc = dialog.ownerDocument;
    doc.addEventListener('keydown', onKeyDown);
    return () => doc.removeEventListener('keydown', onKeyDown);
  }, []);

  const groups = (['personal', 'workspace'] as const)
    .map((group) => ({ group, items: entries.filter((entry) => entry.group === group) }))
    .filter(({ items }) => items.length > 0);
  const tenantName = user?.tenants.find((tenant) => tenant.tenantId === user.tenantId)?.name ?? null;

  return (
    <div className="gh-ap" dir={t.dir} lang={t.locale}>
      <div ref={dialogRef} className="gh-ap-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <div className="gh-ap-header">
          <h1 id={titleId} className="gh-ap-title">{t.t('shell.title')}</h1>
          {user && <UserBadge user={user} tenantName={tenantName} />}
          {user && <TenantSwitcher store={store} user={user} />}
          {/* Keyed by tenant: a switch opens a new stream for the new tenant's notifications. */}
          {user && seesNotifications(user) && <NotificationBell key={user.tenantId} api={api} />}
          <button type="button" className="gh-ap-close" aria-label={t.t('shell.close')} onClick={() => onClose()}>
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 6l12 12M18 6L6 18" /></svg>
          </button>
        </div>
        <div className="gh-ap-body">
          {entries.length > 0 && active && (
            <nav className="gh-ap-nav" aria-label={t.t('shell.sections')}>
              <div className="gh-ap-nav-compact">
                <label htmlFor={selectId} className="gh-ap-label">{t.t('shell.sectionSelect')}</label>
                <select
                  id={selectId}
                  className="gh-ap-select"
                  value={active.section}
                  onChange={(event: ChangeEvent<HTMLSelectElement>) => choose(event.target.value as SectionId)}
                >
                  {groups.map(({ group, items }) => (
                    <optgroup key={group} label={t.t(`shell.group.${group}`)}>
                      {items.map((entry) => <option key={entry.key} value={entry.section}>{label(entry)}</option>)}
                    </optgroup>
                  ))}
                </select>
              </div>
              <div className="gh-ap-nav-full">
                {groups.map(({ group, items }) => (
                  <div key={group} className="gh-ap-nav-group">
                    <p className="gh-ap-nav-heading">{t.t(`shell.group.${group}`)}</p>
                    <ul className="gh-ap-nav-list">
                      {items.map((entry) => (
                        <li key={entry.key}>
                          <button
                            type="button"
                            className="gh-ap-nav-item"
                            aria-current={entry === active ? 'page' : undefined}
                            onClick={() => choose(entry.section)}
                          >
                            {label(entry)}
                          </button>
                        </li>
                      ))}
                    </ul>
                  </div>
                ))}
              </div>
            </nav>
          )}
          <div className="gh-ap-content">
            {user && active ? (
              <SectionBoundary key={active.section} onRetry={() => forgetSection(active.section, t.locale)}>
                {() => {
                  const Section = sectionComponent(active.section, t.locale as Locale, SECTION_NAMESPACES[active.section]);
                  return (
                    <Suspense fallback={<SectionSkeleton label={t.t('shell.loadingSection', { section: label(active) })} />}>
                      <Section title={label(active)} headingId={headingId} user={user} snapshot={snapshot} store={store} api={api} options={options} stepUpUrl={props.routes?.stepUpUrl} oidcRedirectUrl={props.routes?.oidcRedirectUrl} navigate={props.navigate} openSection={openSection} target={target?.section === active.section ? target.target : undefined} checkout={props.checkout} />
                    </Suspense>
                  );
                }}
              </SectionBoundary>
            ) : (
              <section className="gh-ap-section" aria-labelledby={headingId}>
                <h2 id={headingId} className="gh-ap-section-title">{t.t('shell.notSignedIn.title')}</h2>
                <p className="gh-ap-empty-text">{t.t('shell.notSignedIn.text')}</p>
              </section>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
