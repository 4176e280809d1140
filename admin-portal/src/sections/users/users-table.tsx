import type { TenantUser, UsersPage } from '@gatehouse/shared/wire';
import type { FieldVisibility } from '../../options';
import { Avatar } from '../../user-badge';
import { RowAction } from '../dialogs/row-action';
import type { UserAction } from './users-api';
import { badgesOf, shortDate, userLabel } from './users-format';

interface Props {
  page: UsersPage | null;
  loading: boolean;
  currentUserId: string;
  /** How each row action is offered ('hidden' for all when the caller may not write users). */
  mode: (action: UserRowAction) => FieldVisibility;
  sortDirection: 'asc' | 'desc';
  onSort: () => void;
  onRoles: (user: TenantUser) => void;
  onAction: (user: TenantUser, action: UserAction) => void;
  /** Resend activation, make temporary or permanent, impersonate. */
  onExtra: (user: TenantUser, action: ExtraAction) => void;
}

export type ExtraAction = 'resend' | 'temporary' | 'permanent' | 'impersonate';

/** The row actions, by their field visibility names (`adminPortal.fieldVisibility.users.<name>`). */
export type UserRowAction = 'editRoles' | 'disable' | 'lock' | 'delete' | 'resendActivation' | 'temporary' | 'impersonate';
const ROW_ACTIONS: UserRowAction[] = ['editRoles', 'disable', 'lock', 'delete', 'resendActivation', 'temporary', 'impersonate'];

/** The users table (seed 001 section 2: user, groups, roles, joinedAt, lastSeen, managedBy), with row actions for admins. */
export function UsersTable({ page, loading, currentUserId, mode, sortDirection, onSort, onRoles, onAction, onExtra }: Props) {
  const rows = page?.items ?? [];
  const anyAction = ROW_ACTIONS.some((action) => mode(action) !== 'hidden');
  const shown = (action: UserRowAction) => mode(action) !== 'hidden';
  const viewOnly = (action: UserRowAction) => mode(action) === 'viewOnly';
  return (
    <div className="gh-ap-table-wrap" aria-busy={loading}>
      <table className="gh-ap-table">
        <thead>
          <tr>
            <th scope="col" aria-sort={sortDirection === 'asc' ? 'ascending' : 'descending'}>
              <button type="button" className="gh-ap-sort" onClick={onSort}>
                User <span aria-hidden="true">{sortDirection === 'asc' ? '▲' : '▼'}</span>
                <span className="gh-ap-visually-hidden">, sorted by name {sortDirection === 'asc' ? 'A to Z' : 'Z to A'}</span>
              </button>
            </th>
            <th scope="col">Groups</th>
            <th scope="col">Roles</th>
            <th scope="col">Joined</th>
            <th scope="col">Last seen</th>
            <th scope="col">Managed by</th>
            {anyAction && <th scope="col"><span className="gh-ap-visually-hidden">Actions</span></th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((u) => (
            <tr key={u.id}>
              <th scope="row">
                <span className="gh-ap-user-cell">
                  <Avatar name={userLabel(u)} src={u.profilePictureUrl} />
                  <span className="gh-ap-user-text">
                    <span className="gh-ap-user-name">{u.name || u.email}</span>
                    <span className="gh-ap-user-meta">{u.email ?? u.phoneNumber}</span>
                    {badgesOf(u).length > 0 && (
                      <span className="gh-ap-badges">
                        {badgesOf(u).map((badge) => (
                          <span key={badge} className="gh-ap-badge">{badge}</span>
                        ))}
                      </span>
                    )}
                  </span>
                </span>
              </th>
              <td>{u.groups.map((g) => g.name).join(', ') || '—'}</td>
              <td>{u.roles.map((r) => r.name).join(', ') || 'No roles'}</td>
              <td className="gh-ap-nowrap">{shortDate(u.joinedAt)}</td>
              <td className="gh-ap-nowrap">{shortDate(u.lastSeen)}</td>
              <td>{u.managedBy === 'scim2' ? 'SCIM' : 'Gatehouse'}</td>
              {anyAction && (
                <td>
                  {u.id !== currentUserId && (
                    <span className="gh-ap-row-actions">
                      {shown('editRoles') && <RowAction label={`Edit roles of ${userLabel(u)}`} viewOnly={viewOnly('editRoles')} onClick={() => onRoles(u)}>Roles</RowAction>}
                      {shown('disable') && (
                        <RowAction label={`${u.isDisabled ? 'Enable' : 'Disable'} ${userLabel(u)}`} viewOnly={viewOnly('disable')} onClick={() => onAction(u, u.isDisabled ? 'enable' : 'disable')}>
                          {u.isDisabled ? 'Enable' : 'Disable'}
                        </RowAction>
                      )}
                      {shown('lock') && (
                        <RowAction label={`${u.isLocked ? 'Unlock' : 'Lock'} ${userLabel(u)}`} viewOnly={viewOnly('lock')} onClick={() => onAction(u, u.isLocked ? 'unlock' : 'lock')}>
                          {u.isLocked ? 'Unlock' : 'Lock'}
                        </RowAction>
                      )}
                      {shown('resendActivation') && u.invitationPending && (
                        <RowAction label={`Resend activation to ${userLabel(u)}`} viewOnly={viewOnly('resendActivation')} onClick={() => onExtra(u, 'resend')}>Resend activation</RowAction>
                      )}
                      {shown('temporary') && (
                        <RowAction
                          label={`${u.temporaryExpirationDate ? 'Make permanent' : 'Make temporary'} ${userLabel(u)}`}
                          viewOnly={viewOnly('temporary')}
                          onClick={() => onExtra(u, u.temporaryExpirationDate ? 'permanent' : 'temporary')}
                        >
                          {u.temporaryExpirationDate ? 'Make permanent' : 'Make temporary'}
                        </RowAction>
                      )}
                      {/* The server refuses disabled users and super users as targets. */}
                      {shown('impersonate') && !u.isDisabled && !u.superUser && (
                        <RowAction label={`Impersonate ${userLabel(u)}`} viewOnly={viewOnly('impersonate')} onClick={() => onExtra(u, 'impersonate')}>Impersonate</RowAction>
                      )}
                      {shown('delete') && <RowAction label={`Remove ${userLabel(u)}`} viewOnly={viewOnly('delete')} danger onClick={() => onAction(u, 'remove')}>Remove</RowAction>}
                    </span>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {!loading && rows.length === 0 && <p className="gh-ap-empty-text gh-ap-table-empty">No users match.</p>}
      {loading && <p className="gh-ap-loading gh-ap-table-empty"><span className="gh-ap-spinner" aria-hidden="true" /> Loading users…</p>}
    </div>
  );
}
