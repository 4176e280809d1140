import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { UserFilterPreset } from '@gatehouse/shared/admin-paths';
import type { ApplicationData, Role, TenantUser, UsersPage } from '@gatehouse/shared/wire';
import { holdsPermission } from '../access';
import { Permissions } from '../contract';
import { adoptCss } from '../host-styles';
import { userLabel } from '../format';
import { errorText } from '../i18n/errors';
import { useT } from '../i18n/i18n-context';
import { Toast } from '../toast';
import type { SectionProps } from './section-props';
import { actionMode } from './dialogs/action-mode';
import { ApplicationsDialog } from './users/applications-dialog';
import { BulkInviteDialog } from './users/bulk-invite-dialog';
import { ConfirmDialog } from './users/confirm-dialog';
import { InviteDialog } from './users/invite-dialog';
import { InviteLinkDialog } from './users/invite-link-dialog';
import { subscriptionOpener } from './subscription/open-subscription';
import { RolesDialog } from './users/roles-dialog';
import { TemporaryDialog } from './users/temporary-dialog';
import { createUsersApi, type UserAction, type UsersQuery } from './users/users-api';
import { UsersTable, type ExtraAction } from './users/users-table';
import { isManagedByScim } from './users/users-format';
import css from './users/users.css?inline';
import { Pager } from '../controls/pager';

const PRESETS: { value: UserFilterPreset | ''; key: string }[] = [
  { value: '', key: 'users.preset.all' },
  { value: 'mfa-unenrolled', key: 'users.preset.mfaUnenrolled' },
  { value: 'breached-passwords', key: 'users.preset.breached' },
  { value: 'inactive', key: 'users.preset.inactive' },
];

const DONE: Record<UserAction, string> = { remove: 'users.done.remove', disable: 'users.done.disable', enable: 'users.done.enable', lock: 'users.done.lock', unlock: 'users.done.unlock' };

type Dialog =
  | { kind: 'invite' }
  | { kind: 'inviteLink' }
  | { kind: 'bulk' }
  | { kind: 'roles'; user: TenantUser }
  | { kind: 'applications'; user: TenantUser }
  | { kind: 'confirm'; user: TenantUser; action: UserAction }
  | { kind: 'temporary'; user: TenantUser }
  | null;

/**
 * Users (the team, seed 001 sections 2-5): the tenant's users 20 a page, sorted by name, searched by
 * name or email, filtered by the presets; admins holding fe.secure.write.users invite users, edit
 * roles, disable, lock and remove them, share the invite link, add users in bulk, resend activation
 * and make users temporary or permanent, and assign the vendor's applications (issue 15); holders of
 * fe.secure.write.impersonate impersonate them. The host can hide or show view-only the actions
 * `invite`, `inviteLink`, `bulkInvite`, `editRoles`, `editApplications`,
 * `disable`, `lock`, `delete`, `resendActivation`, `temporary` and `impersonate` (`adminPortal.fieldVisibility.users`).
 */
export default function UsersSection({ title, headingId, user, api, options, openSection }: SectionProps) {
  const t = useT();
  const users = useMemo(() => createUsersApi(api), [api]);
  const writeMode = actionMode(options, 'users', Boolean(user.superUser) || holdsPermission(user, Permissions.usersWrite));
  // Impersonation needs its own permission (no built-in role has it); super users always may (the server's rule).
  const impersonateMode = actionMode(options, 'users', Boolean(user.superUser) || holdsPermission(user, Permissions.impersonate));
  const mode = (action: string) => (action === 'impersonate' ? impersonateMode(action) : writeMode(action));
  const [query, setQuery] = useState<UsersQuery>({ page: 0, search: '', sortDirection: 'asc', preset: '' });
  const [typed, setTyped] = useState('');
  const [page, setPage] = useState<UsersPage | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [roles, setRoles] = useState<Role[] | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  // The vendor's applications (none: no column) and the shown users' assignments, by user id.
  const [apps, setApps] = useState<ApplicationData[]>([]);
  const [userApps, setUserApps] = useState<Record<string, string[]>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const behindRef = useRef<HTMLDivElement>(null);
  const ids = useId();

  useEffect(() => (sectionRef.current ? adoptCss(sectionRef.current, css) : undefined), []);
  // While a dialog is open the list behind it is inert: no focus, no clicks (React 18 has no inert prop).
  useEffect(() => {
    behindRef.current?.toggleAttribute('inert', dialog !== null);
  }, [dialog]);

  // The newest request wins: an older answer arriving late is dropped.
  const latest = useRef(0);
  const load = useCallback(async (q: UsersQuery) => {
    const ticket = ++latest.current;
    setLoading(true);
    setError(null);
    try {
      const result = await users.list(q);
      if (ticket === latest.current) setPage(result);
    } catch (thrown) {
      // Seed 001 section 4: a failed load reports the error and resets the list to empty.
      if (ticket === latest.current) {
        setError(errorText(t, thrown));
        setPage(null);
      }
    } finally {
      if (ticket === latest.current) setLoading(false);
    }
  }, [users, t]);

  useEffect(() => {
    void load(query);
  }, [load, query]);

  // The applications column is extra: if it cannot load, the table still shows the users.
  useEffect(() => {
    let live = true;
    users.applications().then(
      (list) => live && setApps(Array.isArray(list) ? list : []),
      () => live && setApps([]),
    );
    return () => {
      live = false;
    };
  }, [users]);

  const loadUserApps = useCallback(async (shown: TenantUser[]) => {
    if (shown.length === 0) return;
    try {
      const rows = await users.usersApplications(shown.map((u) => u.id));
      if (Array.isArray(rows)) setUserApps((known) => ({ ...known, ...Object.fromEntries(rows.map((r) => [r.userId, r.appIds])) }));
    } catch {
      // The column stays empty for these rows; the dialog reports a failed assignment itself.
    }
  }, [users]);

  useEffect(() => {
    if (apps.length > 0 && page) void loadUserApps(page.items);
  }, [apps.length, page, loadUserApps]);

  const appName = useMemo(() => new Map(apps.map((a) => [a.id, a.name])), [apps]);
  const applicationsOf = apps.length > 0 ? (u: TenantUser) => userApps[u.id]?.map((id) => appName.get(id) ?? id) : null;

  // Searching waits for a pause in typing, then starts from the first page.
  useEffect(() => {
    if (typed === query.search) return;
    const timer = setTimeout(() => setQuery((q) => ({ ...q, search: typed, page: 0, cursor: undefined })), 300);
    return () => clearTimeout(timer);
  }, [typed, query.search]);

  async function withRoles(next: (roles: Role[]) => Dialog) {
    setNotice(null);
    try {
      const list = roles ?? (await users.roles()).roles;
      setRoles(list);
      setDialog(next(list));
    } catch (thrown) {
      setError(errorText(t, thrown));
    }
  }

  // The dialog stays (busy) until the list shows the change; then it closes and the outcome is announced.
  const finish = async (message: string) => {
    await load(query);
    setDialog(null);
    setNotice(message);
  };

  // The row actions that need no dialog: each reports its outcome in the status line.
  async function extra(target: TenantUser, action: ExtraAction) {
    setNotice(null);
    setError(null);
    if (action === 'temporary') return setDialog({ kind: 'temporary', user: target });
    try {
      if (action === 'resend') {
        await users.resendActivation(target.id);
        setNotice(t.t('users.done.resend', { who: target.email ?? userLabel(target, t) }));
      } else if (action === 'permanent') {
        await users.setTemporary(target.id, null);
        await load(query);
        setNotice(t.t('users.done.permanent', { who: userLabel(target, t) }));
      } else {
        // The login box's impersonation route spends the single-use token and signs in as the user.
        const { url } = await users.impersonate(target.id);
        setNotice(t.t('users.done.impersonating', { who: userLabel(target, t) }));
        window.location.assign(url);
      }
    } catch (thrown) {
      setError(errorText(t, thrown));
    }
  }

  // Next and Previous go by the shown page's cursors (keyset); page one, or a page without one, by offset.
  const cursorTo = (p: number) => (p === 0 ? undefined : ((p === query.page + 1 ? page?.nextCursor : p === query.page - 1 ? page?.prevCursor : null) ?? undefined));
  const total = page?._metadata.totalItems ?? 0;
  const pages = Math.max(1, page?._metadata.totalPages ?? 1);

  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide" aria-labelledby={headingId}>
      <div ref={behindRef} className="gh-ap-users">
        <div className="gh-ap-users-head">
          <h2 id={headingId} className="gh-ap-section-title">{title}</h2>
          <span className="gh-ap-users-head-actions">
          {mode('inviteLink') !== 'hidden' && (
            <button type="button" className="gh-ap-button-secondary" disabled={mode('inviteLink') === 'viewOnly'} onClick={() => { setNotice(null); setDialog({ kind: 'inviteLink' }); }}>
              {t.t('users.inviteLink')}
            </button>
          )}
          {mode('bulkInvite') !== 'hidden' && (
            <button type="button" className="gh-ap-button-secondary" disabled={mode('bulkInvite') === 'viewOnly'} onClick={() => void withRoles(() => ({ kind: 'bulk' }))}>
              {t.t('users.bulkInvite')}
            </button>
          )}
          {mode('invite') !== 'hidden' && (
            <button type="button" className="gh-ap-button" disabled={mode('invite') === 'viewOnly'} onClick={() => void withRoles(() => ({ kind: 'invite' }))}>
              {t.t('users.invite')}
            </button>
          )}
          </span>
        </div>
        <div className="gh-ap-users-tools" role="search">
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-search`}>{t.t('users.search')}</label>
            <input id={`${ids}-search`} className="gh-ap-input" type="search" placeholder={t.t('users.searchPlaceholder')} value={typed} autoComplete="off" onChange={(event) => setTyped(event.target.value)} />
          </div>
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-preset`}>{t.t('users.show')}</label>
            <select id={`${ids}-preset`} className="gh-ap-select" value={query.preset} onChange={(event) => setQuery((q) => ({ ...q, preset: event.target.value as UserFilterPreset | '', page: 0, cursor: undefined }))}>
              {PRESETS.map((p) => (
                <option key={p.value} value={p.value}>{t.t(p.key)}</option>
              ))}
            </select>
          </div>
        </div>
        <Toast message={notice} />
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        {page?.items.some(isManagedByScim) && <p className="gh-ap-hint gh-ap-users-note">{t.t('users.scimNote')}</p>}
        <UsersTable
          page={page}
          loading={loading}
          currentUserId={user.id}
          mode={mode}
          sortDirection={query.sortDirection}
          onSort={() => setQuery((q) => ({ ...q, sortDirection: q.sortDirection === 'asc' ? 'desc' : 'asc', page: 0, cursor: undefined }))}
          onRoles={(target) => void withRoles(() => ({ kind: 'roles', user: target }))}
          applicationsOf={applicationsOf}
          onApplications={(target) => {
            setNotice(null);
            setDialog({ kind: 'applications', user: target });
          }}
          onAction={(target, action) => {
            setNotice(null);
            setDialog({ kind: 'confirm', user: target, action });
          }}
          onExtra={(target, action) => void extra(target, action)}
          empty={query.search || query.preset ? t.t('users.empty.filtered') : mode('invite') === 'editable' ? t.t('users.empty.invite') : t.t('users.empty.none')}
        />
        <Pager label={t.t('users.pages')} summary={loading && !page ? '' : t.t('users.count', { count: total })} page={query.page} pages={pages} busy={loading} onPage={(p) => setQuery((q) => ({ ...q, page: p, cursor: cursorTo(p) }))} />
      </div>

      {dialog?.kind === 'invite' && roles && (
        <InviteDialog
          roles={roles}
          onClose={() => setDialog(null)}
          openSubscription={subscriptionOpener({ user, options, openSection })}
          invite={async (input) => {
            await users.invite(input);
            await finish(t.t('users.done.invited', { email: input.email }));
          }}
        />
      )}
      {dialog?.kind === 'inviteLink' && <InviteLinkDialog api={users} onClose={() => setDialog(null)} onChanged={setNotice} />}
      {dialog?.kind === 'bulk' && roles && (
        <BulkInviteDialog
          roles={roles}
          onClose={() => setDialog(null)}
          invite={(emails, roleIds) => users.bulkInvite(emails, roleIds)}
          onDone={(result) => {
            setNotice(t.t('users.done.bulk', { invited: result.allowed.length, refused: result.unallowed.length }));
            void load(query);
          }}
        />
      )}
      {dialog?.kind === 'temporary' && (
        <TemporaryDialog
          user={dialog.user}
          onClose={() => setDialog(null)}
          save={async (seconds) => {
            await users.setTemporary(dialog.user.id, seconds);
            await finish(t.t('users.done.temporary', { who: userLabel(dialog.user, t) }));
          }}
        />
      )}
      {dialog?.kind === 'roles' && roles && (
        <RolesDialog
          user={dialog.user}
          roles={roles}
          onClose={() => setDialog(null)}
          save={async (roleIds) => {
            await users.setRoles(dialog.user.id, roleIds);
            await finish(t.t('users.done.roles', { who: userLabel(dialog.user, t) }));
          }}
        />
      )}
      {dialog?.kind === 'applications' && (
        <ApplicationsDialog
          user={dialog.user}
          apps={apps}
          assigned={userApps[dialog.user.id] ?? []}
          onClose={() => setDialog(null)}
          save={async ({ assign, unassign }) => {
            const target = dialog.user;
            if (assign.length) await users.assignApplications(target.id, assign, user.tenantId);
            if (unassign.length) await users.unassignApplications(target.id, unassign, user.tenantId);
            await loadUserApps([target]);
            setDialog(null);
            setNotice(t.t('users.done.applications', { who: userLabel(target, t) }));
          }}
        />
      )}
      {dialog?.kind === 'confirm' && (
        <ConfirmDialog
          user={dialog.user}
          action={dialog.action}
          onClose={() => setDialog(null)}
          run={async () => {
            await users.act(dialog.user.id, dialog.action);
            await finish(t.t(DONE[dialog.action], { who: userLabel(dialog.user, t) }));
          }}
        />
      )}
    </section>
  );
}
