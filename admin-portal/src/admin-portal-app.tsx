import { Suspense, useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
import type { AdminPortalProps } from './admin-portal-props';
import { trapTab } from './focus';
import { visibleEntries, type NavigationEntry, type SectionId } from './navigation';
import { readAdminPortalOptions } from './options';
import { forgetSection, sectionComponent } from './sections';
import { SectionBoundary } from './section-boundary';
import { useAuthSnapshot } from './use-auth-snapshot';
import { UserBadge } from './user-badge';

const GROUP_LABELS: Record<NavigationEntry['group'], string> = { personal: 'My account', workspace: 'Administration' };

/** The admin portal shell: full-screen dialog with navigation and the active section. */
export function AdminPortalApp(props: AdminPortalProps) {
  const { store, api, onClose } = props;
  const snapshot = useAuthSnapshot(store);
  const user = snapshot.user;
  const options = useMemo(() => readAdminPortalOptions(props.options.adminPortal), [props.options.adminPortal]);
  const entries = useMemo(
    () => visibleEntries({ user, overrides: options.navigation, flags: props.options.flags }),
    [user, options.navigation, props.options.flags],
  );
  const [selected, setSelected] = useState<SectionId | null>(null);
  const active = entries.find((entry) => entry.section === selected) ?? entries[0];

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
    <div className="gh-ap">
      <div ref={dialogRef} className="gh-ap-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <header className="gh-ap-header">
          <h1 id={titleId} className="gh-ap-title">Admin portal</h1>
          {user && <UserBadge user={user} tenantName={tenantName} />}
          <button type="button" className="gh-ap-close" aria-label="Close" onClick={() => onClose()}>
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 6l12 12M18 6L6 18" /></svg>
          </button>
        </header>
        <div className="gh-ap-body">
          {entries.length > 0 && active && (
            <nav className="gh-ap-nav" aria-label="Admin portal sections">
              <div className="gh-ap-nav-compact">
                <label htmlFor={selectId} className="gh-ap-label">Section</label>
                <select
                  id={selectId}
                  className="gh-ap-select"
                  value={active.section}
                  onChange={(event: ChangeEvent<HTMLSelectElement>) => setSelected(event.target.value as SectionId)}
                >
                  {groups.map(({ group, items }) => (
                    <optgroup key={group} label={GROUP_LABELS[group]}>
                      {items.map((entry) => <option key={entry.key} value={entry.section}>{entry.label}</option>)}
                    </optgroup>
                  ))}
                </select>
              </div>
              <div className="gh-ap-nav-full">
                {groups.map(({ group, items }) => (
                  <div key={group} className="gh-ap-nav-group">
                    <p className="gh-ap-nav-heading">{GROUP_LABELS[group]}</p>
                    <ul className="gh-ap-nav-list">
                      {items.map((entry) => (
                        <li key={entry.key}>
                          <button
                            type="button"
                            className="gh-ap-nav-item"
                            aria-current={entry === active ? 'page' : undefined}
                            onClick={() => setSelected(entry.section)}
                          >
                            {entry.label}
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
              <SectionBoundary key={active.section} onRetry={() => forgetSection(active.section)}>
                {() => {
                  const Section = sectionComponent(active.section);
                  return (
                    <Suspense fallback={<p className="gh-ap-loading" role="status">Loading {active.label}…</p>}>
                      <Section title={active.label} headingId={headingId} user={user} snapshot={snapshot} store={store} api={api} options={options} />
                    </Suspense>
                  );
                }}
              </SectionBoundary>
            ) : (
              <section className="gh-ap-section" aria-labelledby={headingId}>
                <h2 id={headingId} className="gh-ap-section-title">Not signed in</h2>
                <p className="gh-ap-empty-text">Sign in to manage your account.</p>
              </section>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
