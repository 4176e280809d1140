import { useCallback, useMemo } from 'react';
import type { Permission, PermissionCategory, Role } from '@gatehouse/shared/wire';
import { holdsPermission } from '../access';
import { Permissions } from '../contract';
import type { SectionProps } from './section-props';
import { actionMode } from './dialogs/action-mode';
import { DeleteDialog } from './dialogs/delete-dialog';
import { ListSection, useListSection } from './dialogs/list-section';
import { RowAction } from './dialogs/row-action';
import { AttachPermissionDialog } from './roles/attach-dialog';
import { RoleDialog } from './roles/role-dialog';
import { createRolesApi } from './roles/roles-api';
import css from './users/users.css?inline';
import ownCss from './roles/roles.css?inline';

type Dialog = { kind: 'edit'; role: Role | null } | { kind: 'delete'; role: Role } | { kind: 'attach' };

interface Catalogue {
  roles: Role[];
  permissions: Permission[];
  categories: PermissionCategory[];
}

/**
 * Roles (seed 001 sections 2, 6, 7): the tenant's roles with their permissions (by category), users
 * and default flag; admins holding fe.secure.write.roles add, edit and delete roles, set the default
 * role and add one permission to many roles. The host can hide or show view-only the actions
 * `create`, `edit`, `delete` and `attachPermission` (`adminPortal.fieldVisibility.roles`).
 */
export default function RolesSection({ title, headingId, user, api, options }: SectionProps) {
  const roles = useMemo(() => createRolesApi(api), [api]);
  const mode = actionMode(options, 'roles', Boolean(user.superUser) || holdsPermission(user, Permissions.rolesWrite));
  const fetchList = useCallback(async (): Promise<Catalogue> => {
    const [list, permissions, categories] = await Promise.all([roles.list(), roles.permissions(), roles.categories()]);
    return { roles: list, permissions, categories };
  }, [roles]);
  const state = useListSection<Catalogue, Dialog>(fetchList, `${css}\n${ownCss}`);
  const { data, dialog, open, close, finish } = state;
  const permissionNames = new Map((data?.permissions ?? []).map((p) => [p.id, p.name]));
  const rowActions = mode('edit') !== 'hidden' || mode('delete') !== 'hidden';

  return (
    <ListSection
      state={state}
      title={title}
      headingId={headingId}
      buttons={
        data && (mode('attachPermission') !== 'hidden' || mode('create') !== 'hidden') && (
          <div className="gh-ap-modal-actions">
            {mode('attachPermission') !== 'hidden' && (
              <button type="button" className="gh-ap-button-secondary" disabled={mode('attachPermission') === 'viewOnly' || data.roles.length === 0 || data.permissions.length === 0} onClick={() => open({ kind: 'attach' })}>
                Add a permission to roles
              </button>
            )}
            {mode('create') !== 'hidden' && (
              <button type="button" className="gh-ap-button" disabled={mode('create') === 'viewOnly'} onClick={() => open({ kind: 'edit', role: null })}>Add role</button>
            )}
          </div>
        )
      }
      caption="Roles of this account"
      columns={['Role', 'Key', 'Permissions', 'Users']}
      items={data?.roles ?? null}
      noun="roles"
      row={(role) => (
        <>
          <th scope="row">
            <div className="gh-ap-role-text">
              <span>{role.name}</span>
              {role.description && <span className="gh-ap-hint">{role.description}</span>}
              {role.isDefault && <span className="gh-ap-badges"><span className="gh-ap-badge">Default</span></span>}
            </div>
          </th>
          <td><code>{role.key}</code></td>
          <td title={role.permissions.map((id) => permissionNames.get(id) ?? id).join(', ')}>
            {role.permissions.length === 0 ? 'None' : `${role.permissions.length} ${role.permissions.length === 1 ? 'permission' : 'permissions'}`}
          </td>
          <td>{role.userCount}</td>
        </>
      )}
      actions={
        rowActions
          ? (role) => (
              <div className="gh-ap-row-actions">
                {mode('edit') !== 'hidden' && <RowAction label={`Edit role ${role.name}`} viewOnly={mode('edit') === 'viewOnly'} onClick={() => open({ kind: 'edit', role })}>Edit</RowAction>}
                {mode('delete') !== 'hidden' && <RowAction label={`Delete role ${role.name}`} viewOnly={mode('delete') === 'viewOnly'} danger onClick={() => open({ kind: 'delete', role })}>Delete</RowAction>}
              </div>
            )
          : undefined
      }
      dialogs={
        <>
          {dialog?.kind === 'edit' && data && (
            <RoleDialog
              role={dialog.role}
              permissions={data.permissions}
              categories={data.categories}
              onClose={close}
              save={async (input) => {
                if (dialog.role) await roles.update(dialog.role, input);
                else await roles.create(input);
                await finish(dialog.role ? `Role ${input.name} saved` : `Role ${input.name} added`);
              }}
            />
          )}
          {dialog?.kind === 'delete' && (
            <DeleteDialog
              title={`Delete role ${dialog.role.name}`}
              text={`Users and groups holding ${dialog.role.name} will lose it and its permissions. This cannot be undone.`}
              onClose={close}
              run={async () => {
                await roles.remove(dialog.role.id);
                await finish(`Role ${dialog.role.name} deleted`);
              }}
            />
          )}
          {dialog?.kind === 'attach' && data && (
            <AttachPermissionDialog
              roles={data.roles}
              permissions={data.permissions}
              onClose={close}
              save={async (permissionId, roleIds) => {
                await roles.attachPermission(permissionId, roleIds);
                await finish(`${permissionNames.get(permissionId) ?? 'Permission'} added to ${roleIds.length} ${roleIds.length === 1 ? 'role' : 'roles'}`);
              }}
            />
          )}
        </>
      }
    />
  );
}
