import type { TenantUser, UsersPage } from '@gatehouse/shared/wire';
import { Avatar } from '../../user-badge';
import type { UserAction } from './users-api';
import { badgesOf, shortDate, userLabel } from './users-format';

interface Props {
  page: UsersPage | null;
  loading: boolean;
  currentUserId: string;
  canWrite: boolean;
  sortDirection: 'asc' | 'desc';
  onSort: () => void;
  onRoles: (user: TenantUser) => void;
  onAction: (user: TenantUser, action: UserAction) => void;
}

/** The users table (seed 001 section 2: user, groups, roles, joinedAt, lastSeen, managedBy), with row actions for admins. */
export function UsersTable({ page, loading, currentUserId, canWrite, sortDirection, onSort, onRoles, onAction }: Props) {
  const rows = page?.items ?? [];
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
            {canWrite && <th scope="col"><span className="gh-ap-visually-hidden">Actions</span></th>}
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
              {canWrite && (
                <td>
                  {u.id !== currentUserId && (
                    <span className="gh-ap-row-actions">
                      <button type="button" className="gh-ap-link" aria-label={`Edit roles of ${userLabel(u)}`} onClick={() => onRoles(u)}>Roles</button>
                      <button type="button" className="gh-ap-link" aria-label={`${u.isDisabled ? 'Enable' : 'Disable'} ${userLabel(u)}`} onClick={() => onAction(u, u.isDisabled ? 'enable' : 'disable')}>
                        {u.isDisabled ? 'Enable' : 'Disable'}
                      </button>
                      <button type="button" className="gh-ap-link" aria-label={`${u.isLocked ? 'Unlock' : 'Lock'} ${userLabel(u)}`} onClick={() => onAction(u, u.isLocked ? 'unlock' : 'lock')}>
                        {u.isLocked ? 'Unlock' : 'Lock'}
                      </button>
                      <button type="button" className="gh-ap-link gh-ap-link-danger" aria-label={`Remove ${userLabel(u)}`} onClick={() => onAction(u, 'remove')}>Remove</button>
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
