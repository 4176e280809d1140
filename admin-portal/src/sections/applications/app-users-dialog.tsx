import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ApplicationData, TenantUser, UsersPage } from '@gatehouse/shared/wire';
import { userLabel } from '../../format';
import { errorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { Modal } from '../users/modal';
import type { ApplicationsApi } from './applications-api';
import { Pager } from '../../controls/pager';

/**
 * The users of one application in this account (multi-app mode): the account's users, searched and
 * paged, each marked assigned or not, with Assign / Unassign (seed 001 section 7, `{ userId, appIds,
 * tenantId }`). A failed call shows seed 001 section 8's sentence and changes nothing shown.
 */
export function AppUsersDialog({ app, assigned, canWrite, api, tenantId, onChanged, onClose }: {
  app: ApplicationData;
  /** The ids of the account's users assigned to the application. */
  assigned: ReadonlySet<string>;
  canWrite: boolean;
  api: ApplicationsApi;
  tenantId: string;
  /** The user's assignment to this application after a successful call. */
  onChanged: (userId: string, isAssigned: boolean) => void;
  onClose: () => void;
}) {
  const t = useT();
  const ids = useId();
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState({ page: 0, search: '' });
  const [page, setPage] = useState<UsersPage | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busyUser, setBusyUser] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [notice, setNotice] = useState('');
  const latest = useRef(0);

  const load = useCallback(async (q: { page: number; search: string }) => {
    const ticket = ++latest.current;
    setLoadError(null);
    try {
      const result = await api.users(q.page, q.search.trim());
      if (ticket === latest.current) setPage(result);
    } catch (thrown) {
      if (ticket === latest.current) {
        setLoadError(errorText(t, thrown));
        setPage(null);
      }
    }
  }, [api, t]);

  useEffect(() => {
    void load(query);
  }, [load, query]);

  // Searching waits for a pause in typing, then starts from the first page.
  useEffect(() => {
    if (typed === query.search) return;
    const timer = setTimeout(() => setQuery({ page: 0, search: typed }), 300);
    return () => clearTimeout(timer);
  }, [typed, query.search]);

  async function toggle(target: TenantUser) {
    const isAssigned = assigned.has(target.id);
    setBusyUser(target.id);
    setFailed(false);
    setNotice('');
    try {
      const answer = isAssigned ? await api.unassign(target.id, app.id, tenantId) : await api.assign(target.id, app.id, tenantId);
      const now = answer.appIds.includes(app.id);
      onChanged(target.id, now);
      setNotice(t.t(now ? 'users.apps.done.assigned' : 'users.apps.done.unassigned', { who: userLabel(target, t), app: app.name }));
    } catch {
      setFailed(true);
    } finally {
      setBusyUser(null);
    }
  }

  const pages = Math.max(1, page?._metadata.totalPages ?? 1);
  const rows = page?.items ?? [];
  return (
    <Modal title={t.t('users.apps.dialogTitle', { app: app.name })} onClose={onClose} busy={busyUser !== null}>
      <p className="gh-ap-modal-text">{t.t(app.accessType === 'MANAGED_ACCESS' ? 'users.apps.dialogManaged' : 'users.apps.dialogFree', { count: assigned.size })}</p>
      <div className="gh-ap-field" role="search">
        <label className="gh-ap-label" htmlFor={`${ids}-search`}>{t.t('users.search')}</label>
        <input id={`${ids}-search`} className="gh-ap-input" type="search" placeholder={t.t('users.searchPlaceholder')} value={typed} autoComplete="off" onChange={(event) => setTyped(event.target.value)} data-autofocus />
      </div>
      {loadError && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{loadError}</p>}
      {failed && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{t.t('users.appsDialog.failed')}</p>}
      <p className="gh-ap-visually-hidden" role="status">{notice}</p>
      <ul className="gh-ap-app-users" aria-label={t.t('users.apps.usersList', { app: app.name })} aria-busy={page === null && !loadError}>
        {rows.map((u) => {
          const isAssigned = assigned.has(u.id);
          const who = userLabel(u, t);
          const action = t.t(isAssigned ? 'users.apps.unassign' : 'users.apps.assign');
          return (
            <li key={u.id} className="gh-ap-app-user">
              <span className="gh-ap-app-user-text">
                <span className="gh-ap-app-user-name">{u.name || u.email}</span>
                <span className="gh-ap-app-user-meta">{u.email ?? u.phoneNumber}</span>
              </span>
              <span className="gh-ap-app-user-side">
                <span className="gh-ap-badge">{t.t(isAssigned ? 'users.apps.assigned' : 'users.apps.notAssigned')}</span>
                {canWrite && (
                  // The name starts with the visible word (WCAG 2.5.3), then says whom: "Assign: Grace Hopper".
                  <button type="button" className={isAssigned ? 'gh-ap-button-secondary' : 'gh-ap-button'} aria-label={`${action}: ${who}`} disabled={busyUser !== null} aria-busy={busyUser === u.id} onClick={() => void toggle(u)}>
                    {action}
                  </button>
                )}
              </span>
            </li>
          );
        })}
      </ul>
      {page && rows.length === 0 && <p className="gh-ap-empty-text">{t.t(query.search ? 'users.empty.filtered' : 'users.empty.none')}</p>}
      {pages > 1 && (
        <Pager label={t.t('users.pages')} page={query.page} pages={pages} onPage={(p) => setQuery((q) => ({ ...q, page: p }))} />
      )}
      <div className="gh-ap-modal-actions">
        <button type="button" className="gh-ap-button" onClick={onClose} disabled={busyUser !== null}>{t.t('users.apps.close')}</button>
      </div>
    </Modal>
  );
}
