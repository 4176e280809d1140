import type { TenantUser, UsersPage } from '@gatehouse/shared/wire';
import { managerLabel, shortDate, userLabel } from '../../format';
import { useT } from '../../i18n/i18n-context';
import type { FieldVisibility } from '../../options';
import { Avatar } from '../../user-badge';
import { RowMenu, type RowMenuItem } from '../dialogs/row-menu';
import type { UserAction } from './users-api';
import { badgesOf, isManagedByScim } from './users-format';

interface Props {
  page: UsersPage | null;
  loading: boolean;
  currentUserId: string;
  /** How each row action is offered ('hidden' for all when the caller may not write users). */
  mode: (action: UserRowAction) => FieldVisibility;
  sortDirection: 'asc' | 'desc';
  onSort: () => void;
  onRoles: (user: TenantUser) => void;
  /**
   * The applications column (issue 15): the names of a user's applications, or null while the vendor
   * has no applications (no column then, and no action).
   */
  applicationsOf: ((user: TenantUser) => string[] | undefined) | null;
  onApplications: (user: TenantUser) => void;
  onAction: (user: TenantUser, action: UserAction) => void;
  /** Resend activation, make temporary or permanent, impersonate. */
  onExtra: (user: TenantUser, action: ExtraAction) => void;
  /** What the empty table tells the admin to do next (depends on the search and on what they may do). */
  empty: string;
}

export type ExtraAction = 'resend' | 'temporary' | 'permanent' | 'impersonate';

/** The row actions, by their field visibility names (`adminPortal.fieldVisibility.users.<name>`). */
export type UserRowAction = 'editRoles' | 'editApplications' | 'disable' | 'lock' | 'delete' | 'resendActivation' | 'temporary' | 'impersonate';
const ROW_ACTIONS: UserRowAction[] = ['editRoles', 'editApplications', 'disable', 'lock', 'delete', 'resendActivation', 'temporary', 'impersonate'];

/**
 * The users table (seed 001 section 2: user, applications, groups, roles, joinedAt, lastSeen,
 * managedBy; applications only while the vendor has some). An
 * admin's actions on a row sit in its "⋯" menu, so the table fits the pane; under 640 px each row
 * is a card.
 */
export function UsersTable({ page, loading, currentUserId, mode, sortDirection, onSort, onRoles, applicationsOf, onApplications, onAction, onExtra, empty }: Props) {
  const t = useT();
  const rows = page?.items ?? [];
  // Applications are offered only while the vendor has some.
  const anyAction = ROW_ACTIONS.some((action) => mode(action) !== 'hidden' && (action !== 'editApplications' || applicationsOf !== null));
  const shown = (action: UserRowAction) => mode(action) !== 'hidden';
  const viewOnly = (action: UserRowAction) => mode(action) === 'viewOnly';
  const col = {
    applications: t.t('users.column.applications'),
    groups: t.t('users.column.groups'),
    roles: t.t('users.column.roles'),
    joined: t.t('users.column.joined'),
    lastSeen: t.t('users.column.lastSeen'),
    managedBy: t.t('users.column.managedBy'),
  };

  function itemsOf(u: TenantUser): RowMenuItem[] {
    const items: RowMenuItem[] = [];
    // A user managed by SCIM is changed in the identity provider (issue 15): the portal offers no
    // change to it (the admin API refuses them too, ER-02502), except what the account itself grants:
    // its roles and applications. Impersonating changes nothing of the user.
    const readOnly = isManagedByScim(u);
    const add = (action: UserRowAction, key: string, label: string, onSelect: () => void, danger = false) => {
      // Applications are assigned here, never by the identity provider: offered for SCIM users too.
      if (readOnly && action !== 'impersonate' && action !== 'editRoles' && action !== 'editApplications') return;
      if (shown(action)) items.push({ key, label, onSelect, danger, disabled: viewOnly(action) });
    };
    add('editRoles', 'roles', t.t('users.action.editRoles'), () => onRoles(u));
    if (applicationsOf) add('editApplications', 'applications', t.t('users.action.editApplications'), () => onApplications(u));
    add('disable', 'disable', t.t(u.isDisabled ? 'users.action.enable' : 'users.action.disable'), () => onAction(u, u.isDisabled ? 'enable' : 'disable'));
    add('lock', 'lock', t.t(u.isLocked ? 'users.action.unlock' : 'users.action.lock'), () => onAction(u, u.isLocked ? 'unlock' : 'lock'));
    if (u.invitationPending) add('resendActivation', 'resend', t.t('users.action.resendActivation'), () => onExtra(u, 'resend'));
    add('temporary', 'temporary', t.t(u.temporaryExpirationDate ? 'users.action.makePermanent' : 'users.action.makeTemporary'), () => onExtra(u, u.temporaryExpirationDate ? 'permanent' : 'temporary'));
    // The server refuses disabled users and super users as targets.
    if (!u.isDisabled && !u.superUser) add('impersonate', 'impersonate', t.t('users.action.impersonate'), () => onExtra(u, 'impersonate'));
    add('delete', 'remove', t.t('users.action.remove'), () => onAction(u, 'remove'), true);
    return items;
  }

  return (
    <div className="gh-ap-table-wrap" aria-busy={loading}>
      <table className="gh-ap-table gh-ap-users-table">
        <caption className="gh-ap-visually-hidden">{t.t('users.caption')}</caption>
        <thead>
          <tr>
            <th scope="col" aria-sort={sortDirection === 'asc' ? 'ascending' : 'descending'}>
              <button type="button" className="gh-ap-sort" onClick={onSort}>
                {t.t('users.column.user')} <span aria-hidden="true">{sortDirection === 'asc' ? '▲' : '▼'}</span>
                <span className="gh-ap-visually-hidden">{t.t(sortDirection === 'asc' ? 'users.sortedAsc' : 'users.sortedDesc')}</span>
              </button>
            </th>
            {applicationsOf && <th scope="col">{col.applications}</th>}
            <th scope="col">{col.groups}</th>
            <th scope="col">{col.roles}</th>
            <th scope="col">{col.joined}</th>
            <th scope="col">{col.lastSeen}</th>
            <th scope="col">{col.managedBy}</th>
            {anyAction && <th scope="col" className="gh-ap-cell-actions"><span className="gh-ap-visually-hidden">{t.t('common.actions')}</span></th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((u) => (
            <tr key={u.id}>
              <th scope="row">
                <span className="gh-ap-user-cell">
                  <Avatar name={userLabel(u, t)} src={u.profilePictureUrl} />
                  <span className="gh-ap-user-text">
                    <span className="gh-ap-user-name">{u.name || u.email}</span>
                    <span className="gh-ap-user-meta">{u.email ?? u.phoneNumber}</span>
                    {badgesOf(u, t).length > 0 && (
                      <span className="gh-ap-badges">
                        {badgesOf(u, t).map((badge) => (
                          <span key={badge} className="gh-ap-badge">{badge}</span>
                        ))}
                      </span>
                    )}
                  </span>
                </span>
              </th>
              {applicationsOf && <td data-label={col.applications}>{namesOrNone(applicationsOf(u), t.t('common.none'))}</td>}
              <td data-label={col.groups}>{u.groups.map((g) => g.name).join(', ') || t.t('common.none')}</td>
              <td data-label={col.roles}>{u.roles.map((r) => r.name).join(', ') || t.t('users.noRoles')}</td>
              <td data-label={col.joined} className="gh-ap-nowrap">{shortDate(t, u.joinedAt)}</td>
              <td data-label={col.lastSeen} className="gh-ap-nowrap">{shortDate(t, u.lastSeen)}</td>
              <td data-label={col.managedBy}>{managerLabel(t, u)}</td>
              {anyAction && (
                <td className="gh-ap-cell-actions">
                  {u.id !== currentUserId && <RowMenu label={t.t('common.actionsFor', { name: userLabel(u, t) })} items={itemsOf(u)} />}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {!loading && rows.length === 0 && <p className="gh-ap-empty-text gh-ap-table-empty">{empty}</p>}
      {loading && !page && <TableSkeleton />}
    </div>
  );
}

/** A user's application names; nothing yet while they load. */
function namesOrNone(names: string[] | undefined, none: string): string {
  if (names === undefined) return '';
  return names.join(', ') || none;
}

/** Rows in the shape of users while the first page loads. */
export function TableSkeleton({ rows = 4 }: { rows?: number }) {
  return (
    <div className="gh-ap-table-skeleton" aria-hidden="true">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="gh-ap-skeleton-row">
          <div className="gh-ap-skeleton-dot" />
          <div className="gh-ap-skeleton-bar" />
          <div className="gh-ap-skeleton-bar gh-ap-skeleton-short" />
        </div>
      ))}
    </div>
  );
}
