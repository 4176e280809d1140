import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ApplicationData } from '@gatehouse/shared/wire';
import { holdsPermission } from '../access';
import { Permissions } from '../contract';
import { adoptCss } from '../host-styles';
import { errorText } from '../i18n/errors';
import { useT } from '../i18n/i18n-context';
import type { SectionProps } from './section-props';
import { actionMode } from './dialogs/action-mode';
import { createApplicationsApi } from './applications/applications-api';
import { AppUsersDialog } from './applications/app-users-dialog';
import usersCss from './users/users.css?inline';
import css from './applications/applications.css?inline';

/**
 * Applications (multi-app mode, seed 000 section 2.1; issue 15): the vendor's applications as this
 * account sees them (logo, name, URL, access type, how many of its users are assigned), and per
 * application its users with Assign / Unassign. Reading needs fe.secure.read.users, assigning
 * fe.secure.write.users (the users table's applications column and dialog need the same); the host
 * can hide or show view-only the assigning with `adminPortal.fieldVisibility.users.editApplications`.
 */
export default function ApplicationsSection({ title, headingId, user, api, options }: SectionProps) {
  const t = useT();
  const calls = useMemo(() => createApplicationsApi(api), [api]);
  const mode = actionMode(options, 'users', Boolean(user.superUser) || holdsPermission(user, Permissions.usersWrite))('editApplications');
  const [apps, setApps] = useState<ApplicationData[] | null>(null);
  // Per application, the ids of this account's users assigned to it.
  const [assigned, setAssigned] = useState<Record<string, Set<string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<ApplicationData | null>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const behindRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const root = sectionRef.current;
    if (!root) return;
    const removeUsers = adoptCss(root, usersCss);
    const removeOwn = adoptCss(root, css);
    return () => {
      removeOwn?.();
      removeUsers?.();
    };
  }, []);
  useEffect(() => {
    behindRef.current?.toggleAttribute('inert', open !== null);
  }, [open]);

  const load = useCallback(async () => {
    setError(null);
    try {
      const [list, users] = await Promise.all([calls.applications(), calls.applicationsUsers()]);
      setApps(list);
      setAssigned(Object.fromEntries(users.map((entry) => [entry.id, new Set(entry.userIds)])));
    } catch (thrown) {
      setError(errorText(t, thrown));
      setApps([]);
    }
  }, [calls, t]);

  useEffect(() => {
    void load();
  }, [load]);

  const col = { url: t.t('users.apps.column.url'), access: t.t('users.apps.column.access'), users: t.t('users.apps.column.users') };
  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide" aria-labelledby={headingId}>
      <div ref={behindRef} className="gh-ap-users">
        <h2 id={headingId} className="gh-ap-section-title">{title}</h2>
        <p className="gh-ap-hint">{t.t('users.apps.intro')}</p>
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-table-wrap" aria-busy={apps === null}>
          <table className="gh-ap-table gh-ap-users-table">
            <caption className="gh-ap-visually-hidden">{t.t('users.apps.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t.t('users.apps.column.application')}</th>
                <th scope="col">{col.url}</th>
                <th scope="col">{col.access}</th>
                <th scope="col">{col.users}</th>
                <th scope="col" className="gh-ap-cell-actions"><span className="gh-ap-visually-hidden">{t.t('common.actions')}</span></th>
              </tr>
            </thead>
            <tbody>
              {(apps ?? []).map((app) => {
                const manage = t.t(mode === 'editable' ? 'users.apps.manage' : 'users.apps.view');
                return (
                  <tr key={app.id}>
                    <th scope="row">
                      <span className="gh-ap-app-cell">
                        {app.logo ? <img className="gh-ap-app-logo" src={app.logo} alt="" width={32} height={32} /> : <span className="gh-ap-app-logo gh-ap-app-initial" aria-hidden="true">{app.name.slice(0, 1).toUpperCase()}</span>}
                        <span>{app.name}</span>
                      </span>
                    </th>
                    <td data-label={col.url}>{app.url ? <a className="gh-ap-app-url" href={app.url} target="_blank" rel="noopener noreferrer">{app.url}</a> : t.t('common.none')}</td>
                    <td data-label={col.access}>{t.t(app.accessType === 'MANAGED_ACCESS' ? 'users.apps.managed' : 'users.apps.free')}</td>
                    <td data-label={col.users}>{t.t('users.apps.userCount', { count: assigned[app.id]?.size ?? 0 })}</td>
                    <td className="gh-ap-cell-actions">
                      {/* Readers see who is assigned too. The name starts with the visible words (WCAG 2.5.3), then names the application. */}
                      <button type="button" className="gh-ap-button-secondary" aria-label={`${manage}: ${app.name}`} onClick={() => setOpen(app)}>{manage}</button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {apps !== null && apps.length === 0 && !error && <p className="gh-ap-empty-text gh-ap-table-empty">{t.t('users.apps.empty')}</p>}
        </div>
      </div>
      {open && (
        <AppUsersDialog
          app={open}
          assigned={assigned[open.id] ?? new Set()}
          canWrite={mode === 'editable'}
          api={calls}
          tenantId={user.tenantId}
          onChanged={(userId, isAssigned) =>
            setAssigned((known) => {
              const next = new Set(known[open.id] ?? []);
              if (isAssigned) next.add(userId);
              else next.delete(userId);
              return { ...known, [open.id]: next };
            })
          }
          onClose={() => setOpen(null)}
        />
      )}
    </section>
  );
}
