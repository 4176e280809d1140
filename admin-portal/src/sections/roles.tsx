import { useCallback, useMemo } from 'react';
import type { Permission, PermissionCategory, Role } from '@gatehouse/shared/wire';
import { holdsPermission } from '../access';
import { Permissions } from '../contract';
import type { SectionProps } from './section-props';
import { actionMode } from './dialogs/action-mode';
import { DeleteDialog } from './dialogs/delete-dialog';
import { ListSection, useListSection } from './dialogs/list-section';
import { RowMenu, type RowMenuItem } from './dialogs/row-menu';
import { useT } from '../i18n/i18n-context';
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
  const t = useT();
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
  const col = { key: t.t('roles.column.key'), permissions: t.t('roles.column.permissions'), users: t.t('roles.column.users') };
  const itemsOf = (role: Role): RowMenuItem[] => [
    ...(mode('edit') !== 'hidden' ? [{ key: 'edit', label: t.t('roles.action.edit'), disabled: mode('edit') === 'viewOnly', onSelect: () => open({ kind: 'edit', role }) }] : []),
    ...(mode('delete') !== 'hidden' ? [{ key: 'delete', label: t.t('common.delete'), danger: true, disabled: mode('delete') === 'viewOnly', onSelect: () => open({ kind: 'delete', role }) }] : []),
  ];

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
                {t.t('roles.attach')}
              </button>
            )}
            {mode('create') !== 'hidden' && (
              <button type="button" className="gh-ap-button" disabled={mode('create') === 'viewOnly'} onClick={() => open({ kind: 'edit', role: null })}>{t.t('roles.add')}</button>
            )}
          </div>
        )
      }
      caption={t.t('roles.caption')}
      columns={[t.t('roles.column.role'), col.key, col.permissions, col.users]}
      items={data?.roles ?? null}
      empty={mode('create') === 'editable' ? t.t('roles.empty.add') : t.t('roles.empty.none')}
      row={(role) => (
        <>
          <th scope="row">
            <div className="gh-ap-role-text">
              <span>{role.name}</span>
              {role.description && <span className="gh-ap-hint">{role.description}</span>}
              {role.isDefault && <span className="gh-ap-badges"><span className="gh-ap-badge">{t.t('roles.default')}</span></span>}
            </div>
          </th>
          <td data-label={col.key}><code>{role.key}</code></td>
          <td data-label={col.permissions} title={role.permissions.map((id) => permissionNames.get(id) ?? id).join(', ')}>
            {t.t('roles.permissionCount', { count: role.permissions.length })}
          </td>
          <td data-label={col.users}>{t.formatNumber(role.userCount)}</td>
        </>
      )}
      actions={
        rowActions
          ? (role) => <RowMenu label={t.t('roles.actionsFor', { name: role.name })} items={itemsOf(role)} />
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
                await finish(t.t(dialog.role ? 'roles.done.saved' : 'roles.done.added', { name: input.name }));
              }}
            />
          )}
          {dialog?.kind === 'delete' && (
            <DeleteDialog
              title={t.t('roles.delete.title', { name: dialog.role.name })}
              text={t.t('roles.delete.text', { name: dialog.role.name })}
              onClose={close}
              run={async () => {
                await roles.remove(dialog.role.id);
                await finish(t.t('roles.done.deleted', { name: dialog.role.name }));
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
                await finish(t.t('roles.done.attached', { permission: permissionNames.get(permissionId) ?? t.t('roles.permission'), count: roleIds.length }));
              }}
            />
          )}
        </>
      }
    />
  );
}
