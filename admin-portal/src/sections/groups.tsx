import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Group, Role } from '@gatehouse/shared/wire';
import { holdsPermission } from '../access';
import { Permissions } from '../contract';
import { adoptCss } from '../host-styles';
import type { SectionProps } from './section-props';
import { GroupDialog } from './groups/group-dialog';
import { createGroupsApi } from './groups/groups-api';
import { MembersDialog } from './groups/members-dialog';
import { DeleteDialog } from './roles/delete-dialog';
import { errorMessage } from './users/users-format';
import css from './users/users.css?inline';
import ownCss from './roles/roles.css?inline';

type Dialog = { kind: 'edit'; group: Group | null } | { kind: 'users'; group: Group } | { kind: 'delete'; group: Group } | null;

/** Who manages a provider-owned group, as the table says it. */
function managerLabel(managedBy: string): string {
  return managedBy === 'scim2' ? 'SCIM' : managedBy === 'frontegg' ? 'Gatehouse' : managedBy.toUpperCase();
}

/**
 * Groups (seed 001 sections 2, 3, 6, 7): the tenant's groups with name, description, color, roles
 * and users; admins holding fe.secure.write.groups add, edit and delete groups and choose their roles
 * and users. Groups managed by an identity provider are read-only here.
 */
export default function GroupsSection({ title, headingId, user, api }: SectionProps) {
  const groups = useMemo(() => createGroupsApi(api), [api]);
  const canWrite = Boolean(user.superUser) || holdsPermission(user, Permissions.groupsWrite);
  const [list, setList] = useState<Group[] | null>(null);
  const [roles, setRoles] = useState<Role[] | null>(null);
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
      const result = await groups.list();
      if (ticket === latest.current) setList(result.groups);
    } catch (thrown) {
      if (ticket === latest.current) {
        setError(errorMessage(thrown));
        setList(null);
      }
    } finally {
      if (ticket === latest.current) setLoading(false);
    }
  }, [groups]);

  useEffect(() => {
    void load();
  }, [load]);

  // The roles a group can hold are loaded when a group dialog first needs them.
  async function withRoles(next: Dialog) {
    setNotice(null);
    try {
      setRoles(roles ?? (await groups.roles()));
      setDialog(next);
    } catch (thrown) {
      setError(errorMessage(thrown));
    }
  }

  const finish = async (message: string) => {
    await load();
    setDialog(null);
    setNotice(message);
  };
  const search = useCallback((filter: string) => groups.searchUsers(filter), [groups]);

  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide" aria-labelledby={headingId}>
      <div ref={behindRef} className="gh-ap-users">
        <div className="gh-ap-users-head">
          <h2 id={headingId} className="gh-ap-section-title">{title}</h2>
          {canWrite && (
            <button type="button" className="gh-ap-button" onClick={() => void withRoles({ kind: 'edit', group: null })}>Add group</button>
          )}
        </div>
        <p className="gh-ap-status" role="status">{notice ?? ''}</p>
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-table-wrap">
          <table className="gh-ap-table" aria-busy={loading}>
            <caption className="gh-ap-visually-hidden">Groups of this account</caption>
            <thead>
              <tr>
                <th scope="col">Group</th>
                <th scope="col">Roles</th>
                <th scope="col">Users</th>
                <th scope="col">Managed by</th>
                {canWrite && <th scope="col"><span className="gh-ap-visually-hidden">Actions</span></th>}
              </tr>
            </thead>
            <tbody>
              {list?.map((group) => (
                <tr key={group.id}>
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
                  {canWrite && (
                    <td>
                      {group.managedBy ? (
                        <span className="gh-ap-hint">Read-only</span>
                      ) : (
                        <div className="gh-ap-row-actions">
                          <button type="button" className="gh-ap-link" aria-label={`Edit group ${group.name}`} onClick={() => void withRoles({ kind: 'edit', group })}>Edit</button>
                          <button type="button" className="gh-ap-link" aria-label={`Users of ${group.name}`} onClick={() => { setNotice(null); setDialog({ kind: 'users', group }); }}>Users</button>
                          <button type="button" className="gh-ap-link gh-ap-link-danger" aria-label={`Delete group ${group.name}`} onClick={() => { setNotice(null); setDialog({ kind: 'delete', group }); }}>Delete</button>
                        </div>
                      )}
                    </td>
                  )}
                </tr>
              ))}
              {(loading && !list) || (!loading && (list?.length ?? 0) === 0) ? (
                <tr>
                  <td colSpan={canWrite ? 5 : 4}>
                    <div className="gh-ap-table-empty">
                      {loading && !list ? (<><span className="gh-ap-spinner" aria-hidden="true" /> Loading groups…</>) : 'No groups yet'}
                    </div>
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
      </div>

      {dialog?.kind === 'edit' && roles && (
        <GroupDialog
          group={dialog.group}
          roles={roles}
          onClose={() => setDialog(null)}
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
          onClose={() => setDialog(null)}
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
          onClose={() => setDialog(null)}
          run={async () => {
            await groups.remove(dialog.group.id);
            await finish(`Group ${dialog.group.name} deleted`);
          }}
        />
      )}
    </section>
  );
}
