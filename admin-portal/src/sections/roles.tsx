import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Permission, PermissionCategory, Role } from '@gatehouse/shared/wire';
import { holdsPermission } from '../access';
import { Permissions } from '../contract';
import { adoptCss } from '../host-styles';
import type { SectionProps } from './section-props';
import { AttachPermissionDialog } from './roles/attach-dialog';
import { DeleteDialog } from './roles/delete-dialog';
import { RoleDialog } from './roles/role-dialog';
import { createRolesApi } from './roles/roles-api';
import { errorMessage } from './users/users-format';
import css from './users/users.css?inline';
import ownCss from './roles/roles.css?inline';

type Dialog = { kind: 'edit'; role: Role | null } | { kind: 'delete'; role: Role } | { kind: 'attach' } | null;

interface Catalogue {
  roles: Role[];
  permissions: Permission[];
  categories: PermissionCategory[];
}

/**
 * Roles (seed 001 sections 2, 6, 7): the tenant's roles with their permissions (by category), users
 * and default flag; admins holding fe.secure.write.roles add, edit and delete roles, set the default
 * role and add one permission to many roles.
 */
export default function RolesSection({ title, headingId, user, api }: SectionProps) {
  const roles = useMemo(() => createRolesApi(api), [api]);
  const canWrite = Boolean(user.superUser) || holdsPermission(user, Permissions.rolesWrite);
  const [data, setData] = useState<Catalogue | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const behindRef = useRef<HTMLDivElement>(null);

  useEffect(() => (sectionRef.current ? adoptCss(sectionRef.current, `${css}\n${ownCss}`) : undefined), []);
  useEffect(() => {
    behindRef.current?.toggleAttribute('inert', dialog !== null);
  }, [dialog]);

  const latest = useRef(0);
  const load = useCallback(async () => {
    const ticket = ++latest.current;
    setLoading(true);
    setError(null);
    try {
      const [list, permissions, categories] = await Promise.all([roles.list(), roles.permissions(), roles.categories()]);
      if (ticket === latest.current) setData({ roles: list, permissions, categories });
    } catch (thrown) {
      if (ticket === latest.current) {
        setError(errorMessage(thrown));
        setData(null);
      }
    } finally {
      if (ticket === latest.current) setLoading(false);
    }
  }, [roles]);

  useEffect(() => {
    void load();
  }, [load]);

  const finish = async (message: string) => {
    await load();
    setDialog(null);
    setNotice(message);
  };
  const open = (next: Dialog) => {
    setNotice(null);
    setDialog(next);
  };

  const permissionNames = new Map((data?.permissions ?? []).map((p) => [p.id, p.name]));

  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide" aria-labelledby={headingId}>
      <div ref={behindRef} className="gh-ap-users">
        <div className="gh-ap-users-head">
          <h2 id={headingId} className="gh-ap-section-title">{title}</h2>
          {canWrite && data && (
            <div className="gh-ap-modal-actions">
              <button type="button" className="gh-ap-button-secondary" disabled={data.roles.length === 0 || data.permissions.length === 0} onClick={() => open({ kind: 'attach' })}>
                Add a permission to roles
              </button>
              <button type="button" className="gh-ap-button" onClick={() => open({ kind: 'edit', role: null })}>Add role</button>
            </div>
          )}
        </div>
        <p className="gh-ap-status" role="status">{notice ?? ''}</p>
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-table-wrap">
          <table className="gh-ap-table" aria-busy={loading}>
            <caption className="gh-ap-visually-hidden">Roles of this account</caption>
            <thead>
              <tr>
                <th scope="col">Role</th>
                <th scope="col">Key</th>
                <th scope="col">Permissions</th>
                <th scope="col">Users</th>
                {canWrite && <th scope="col"><span className="gh-ap-visually-hidden">Actions</span></th>}
              </tr>
            </thead>
            <tbody>
              {data?.roles.map((role) => (
                <tr key={role.id}>
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
                  {canWrite && (
                    <td>
                      <div className="gh-ap-row-actions">
                        <button type="button" className="gh-ap-link" aria-label={`Edit role ${role.name}`} onClick={() => open({ kind: 'edit', role })}>Edit</button>
                        <button type="button" className="gh-ap-link gh-ap-link-danger" aria-label={`Delete role ${role.name}`} onClick={() => open({ kind: 'delete', role })}>Delete</button>
                      </div>
                    </td>
                  )}
                </tr>
              ))}
              {(loading && !data) || (!loading && (data?.roles.length ?? 0) === 0) ? (
                <tr>
                  <td colSpan={canWrite ? 5 : 4}>
                    <div className="gh-ap-table-empty">
                      {loading && !data ? (<><span className="gh-ap-spinner" aria-hidden="true" /> Loading roles…</>) : 'No roles yet'}
                    </div>
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
      </div>

      {dialog?.kind === 'edit' && data && (
        <RoleDialog
          role={dialog.role}
          permissions={data.permissions}
          categories={data.categories}
          onClose={() => setDialog(null)}
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
          onClose={() => setDialog(null)}
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
          onClose={() => setDialog(null)}
          save={async (permissionId, roleIds) => {
            await roles.attachPermission(permissionId, roleIds);
            await finish(`${permissionNames.get(permissionId) ?? 'Permission'} added to ${roleIds.length} ${roleIds.length === 1 ? 'role' : 'roles'}`);
          }}
        />
      )}
    </section>
  );
}
