import { useCallback, useMemo, useState } from 'react';
import type { Group, Role } from '@gatehouse/shared/wire';
import { holdsPermission } from '../access';
import { Permissions } from '../contract';
import type { SectionProps } from './section-props';
import { actionMode } from './dialogs/action-mode';
import { DeleteDialog } from './dialogs/delete-dialog';
import { ListSection, useListSection } from './dialogs/list-section';
import { RowAction } from './dialogs/row-action';
import { GroupDialog } from './groups/group-dialog';
import { createGroupsApi } from './groups/groups-api';
import { MembersDialog } from './groups/members-dialog';
import { errorMessage } from './users/users-format';
import css from './users/users.css?inline';
import ownCss from './roles/roles.css?inline';

type Dialog = { kind: 'edit'; group: Group | null } | { kind: 'users'; group: Group } | { kind: 'delete'; group: Group };

/** Who manages a provider-owned group, as the table says it. */
function managerLabel(managedBy: string): string {
  return managedBy === 'scim2' ? 'SCIM' : managedBy === 'frontegg' ? 'Gatehouse' : managedBy.toUpperCase();
}

/**
 * Groups (seed 001 sections 2, 3, 6, 7): the tenant's groups with name, description, color, roles
 * and users; admins holding fe.secure.write.groups add, edit and delete groups and choose their roles
 * and users. Groups managed by an identity provider are read-only here. The host can hide or show
 * view-only the actions `create`, `edit`, `users` and `delete` (`adminPortal.fieldVisibility.groups`).
 */
export default function GroupsSection({ title, headingId, user, api, options }: SectionProps) {
  const groups = useMemo(() => createGroupsApi(api), [api]);
  const mode = actionMode(options, 'groups', Boolean(user.superUser) || holdsPermission(user, Permissions.groupsWrite));
  const fetchList = useCallback(async () => (await groups.list()).groups, [groups]);
  const state = useListSection<Group[], Dialog>(fetchList, `${css}\n${ownCss}`);
  const { data: list, dialog, open, close, finish, setNotice, setError } = state;
  const [roles, setRoles] = useState<Role[] | null>(null);
  const rowActions = (['edit', 'users', 'delete'] as const).some((action) => mode(action) !== 'hidden');

  // The roles a group can hold are loaded when a group dialog first needs them.
  async function withRoles(next: Dialog) {
    setNotice(null);
    try {
      setRoles(roles ?? (await groups.roles()));
      open(next);
    } catch (thrown) {
      setError(errorMessage(thrown));
    }
  }

  const search = useCallback((filter: string) => groups.searchUsers(filter), [groups]);

  return (
    <ListSection
      state={state}
      title={title}
      headingId={headingId}
      buttons={
        mode('create') !== 'hidden' && (
          <button type="button" className="gh-ap-button" disabled={mode('create') === 'viewOnly'} onClick={() => void withRoles({ kind: 'edit', group: null })}>Add group</button>
        )
      }
      caption="Groups of this account"
      columns={['Group', 'Roles', 'Users', 'Managed by']}
      items={list}
      noun="groups"
      row={(group) => (
        <>
          <th scope="row">
            <div className="gh-ap-user-cell">
              <span className="gh-ap-swatch" aria-hidden="true" style={{ background: group.color ?? 'transparent' }} />
              <div className="gh-ap-user-text">
                <span>{group.name}</span>
                {group.description && <span className="gh-ap-hint">{group.description}</span>}
              </div>
            </div>
          </th>
          <td>{group.roles.map((r) => r.name).join(', ') || 'None'}</td>
          <td>{group.users.length === 0 ? 'None' : group.users.map((u) => u.name).join(', ')}</td>
          <td>{group.managedBy ? <span className="gh-ap-badge">{managerLabel(group.managedBy)}</span> : 'Gatehouse'}</td>
        </>
      )}
      actions={
        rowActions
          ? (group) =>
              group.managedBy ? (
                <span className="gh-ap-hint">Read-only</span>
              ) : (
                <div className="gh-ap-row-actions">
                  {mode('edit') !== 'hidden' && <RowAction label={`Edit group ${group.name}`} viewOnly={mode('edit') === 'viewOnly'} onClick={() => void withRoles({ kind: 'edit', group })}>Edit</RowAction>}
                  {mode('users') !== 'hidden' && <RowAction label={`Users of ${group.name}`} viewOnly={mode('users') === 'viewOnly'} onClick={() => open({ kind: 'users', group })}>Users</RowAction>}
                  {mode('delete') !== 'hidden' && <RowAction label={`Delete group ${group.name}`} viewOnly={mode('delete') === 'viewOnly'} danger onClick={() => open({ kind: 'delete', group })}>Delete</RowAction>}
                </div>
              )
          : undefined
      }
      dialogs={
        <>
          {dialog?.kind === 'edit' && roles && (
            <GroupDialog
              group={dialog.group}
              roles={roles}
              onClose={close}
              save={async (input) => {
                if (dialog.group) await groups.update(dialog.group, input);
                else await groups.create(input);
                await finish(dialog.group ? `Group ${input.name} saved` : `Group ${input.name} added`);
              }}
            />
          )}
          {dialog?.kind === 'users' && (
            <MembersDialog
              group={dialog.group}
              search={search}
              onClose={close}
              save={async (userIds) => {
                await groups.setUsers(dialog.group, userIds);
                await finish(`Users of ${dialog.group.name} saved`);
              }}
            />
          )}
          {dialog?.kind === 'delete' && (
            <DeleteDialog
              title={`Delete group ${dialog.group.name}`}
              text={`Its users will lose the roles they hold through ${dialog.group.name}. This cannot be undone.`}
              onClose={close}
              run={async () => {
                await groups.remove(dialog.group.id);
                await finish(`Group ${dialog.group.name} deleted`);
              }}
            />
          )}
        </>
      }
    />
  );
}
