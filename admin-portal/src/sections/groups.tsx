import { useCallback, useMemo, useState } from 'react';
import type { Group, Role } from '@gatehouse/shared/wire';
import { holdsPermission } from '../access';
import { Permissions } from '../contract';
import type { SectionProps } from './section-props';
import { actionMode } from './dialogs/action-mode';
import { DeleteDialog } from './dialogs/delete-dialog';
import { ListSection, useListSection } from './dialogs/list-section';
import { RowMenu, type RowMenuItem } from './dialogs/row-menu';
import { useErrorText } from '../i18n/errors';
import { useT } from '../i18n/i18n-context';
import { GroupDialog } from './groups/group-dialog';
import { createGroupsApi } from './groups/groups-api';
import { MembersDialog } from './groups/members-dialog';
import css from './users/users.css?inline';
import ownCss from './roles/roles.css?inline';

type Dialog = { kind: 'edit'; group: Group | null } | { kind: 'users'; group: Group } | { kind: 'delete'; group: Group };

/** Who manages a group, in the tenant's terms: this account's admins, or the directory or identity provider that syncs it. */
function managerKey(managedBy: string | null | undefined): string | null {
  if (!managedBy || managedBy === 'frontegg') return null;
  return managedBy === 'scim2' ? 'SCIM' : managedBy.toUpperCase();
}

/**
 * Groups (seed 001 sections 2, 3, 6, 7): the tenant's groups with name, description, color, roles
 * and users; admins holding fe.secure.write.groups add, edit and delete groups and choose their roles
 * and users. Groups managed by an identity provider are read-only here. The host can hide or show
 * view-only the actions `create`, `edit`, `users` and `delete` (`adminPortal.fieldVisibility.groups`).
 */
export default function GroupsSection({ title, headingId, user, api, options }: SectionProps) {
  const t = useT();
  const toError = useErrorText();
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
      setError(toError(thrown));
    }
  }

  const col = { roles: t.t('groups.column.roles'), users: t.t('groups.column.users'), managedBy: t.t('groups.column.managedBy') };
  const itemsOf = (group: Group): RowMenuItem[] => {
    const items: RowMenuItem[] = [];
    if (mode('edit') !== 'hidden') items.push({ key: 'edit', label: t.t('groups.action.edit'), disabled: mode('edit') === 'viewOnly', onSelect: () => void withRoles({ kind: 'edit', group }) });
    if (mode('users') !== 'hidden') items.push({ key: 'users', label: t.t('groups.action.users'), disabled: mode('users') === 'viewOnly', onSelect: () => open({ kind: 'users', group }) });
    if (mode('delete') !== 'hidden') items.push({ key: 'delete', label: t.t('common.delete'), danger: true, disabled: mode('delete') === 'viewOnly', onSelect: () => open({ kind: 'delete', group }) });
    return items;
  };

  const search = useCallback((filter: string) => groups.searchUsers(filter), [groups]);

  return (
    <ListSection
      state={state}
      title={title}
      headingId={headingId}
      buttons={
        mode('create') !== 'hidden' && (
          <button type="button" className="gh-ap-button" disabled={mode('create') === 'viewOnly'} onClick={() => void withRoles({ kind: 'edit', group: null })}>{t.t('groups.add')}</button>
        )
      }
      note={list?.some((group) => group.managedBy === 'scim2') ? t.t('groups.scimNote') : undefined}
      caption={t.t('groups.caption')}
      columns={[t.t('groups.column.group'), col.roles, col.users, col.managedBy]}
      items={list}
      empty={mode('create') === 'editable' ? t.t('groups.empty.add') : t.t('groups.empty.none')}
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
          <td data-label={col.roles}>{group.roles.map((r) => r.name).join(', ') || t.t('groups.none')}</td>
          <td data-label={col.users}>{group.users.length === 0 ? t.t('groups.none') : group.users.map((u) => u.name).join(', ')}</td>
          <td data-label={col.managedBy}>{managerKey(group.managedBy) ? <span className="gh-ap-badge">{managerKey(group.managedBy)}</span> : t.t('groups.managedHere')}</td>
        </>
      )}
      actions={
        rowActions
          ? (group) =>
              managerKey(group.managedBy) ? (
                <span className="gh-ap-hint">{t.t('groups.readOnly')}</span>
              ) : (
                <RowMenu label={t.t('groups.actionsFor', { name: group.name })} items={itemsOf(group)} />
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
                await finish(t.t(dialog.group ? 'groups.done.saved' : 'groups.done.added', { name: input.name }));
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
                await finish(t.t('groups.done.users', { name: dialog.group.name }));
              }}
            />
          )}
          {dialog?.kind === 'delete' && (
            <DeleteDialog
              title={t.t('groups.delete.title', { name: dialog.group.name })}
              text={t.t('groups.delete.text', { name: dialog.group.name })}
              onClose={close}
              run={async () => {
                await groups.remove(dialog.group.id);
                await finish(t.t('groups.done.deleted', { name: dialog.group.name }));
              }}
            />
          )}
        </>
      }
    />
  );
}
