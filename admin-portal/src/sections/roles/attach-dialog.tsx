import { useId, useRef, useState, type FormEvent } from 'react';
import type { Permission, Role } from '@gatehouse/shared/wire';
import { Modal } from '../users/modal';
import { RolesPicker } from '../users/roles-picker';
import { errorMessage } from '../users/users-format';
import { useRefocusOnError } from './refocus';

/** One permission added to many roles (seed 001 section 6). */
export function AttachPermissionDialog({ roles, permissions, save, onClose }: {
  roles: Role[];
  permissions: Permission[];
  save: (permissionId: string, roleIds: string[]) => Promise<void>;
  onClose: () => void;
}) {
  const [permissionId, setPermissionId] = useState(permissions[0]?.id ?? '');
  const [roleIds, setRoleIds] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLFormElement>(null);
  useRefocusOnError(error, busy, ref);
  const ids = useId();
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (roleIds.length === 0) {
      setProblem('Choose at least one role');
      return;
    }
    setProblem(null);
    setBusy(true);
    setError(null);
    try {
      await save(permissionId, roleIds);
    } catch (thrown) {
      setError(errorMessage(thrown));
      setBusy(false);
    }
  }
  return (
    <Modal title="Add a permission to roles" onClose={onClose} busy={busy}>
      <form ref={ref} className="gh-ap-form" onSubmit={submit} noValidate>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${ids}-permission`}>Permission</label>
          <select id={`${ids}-permission`} className="gh-ap-select" value={permissionId} disabled={busy} data-autofocus onChange={(e) => setPermissionId(e.target.value)}>
            {permissions.map((p) => (
              <option key={p.id} value={p.id}>{`${p.name} (${p.key})`}</option>
            ))}
          </select>
        </div>
        <RolesPicker roles={roles} selected={roleIds} onChange={setRoleIds} disabled={busy} idPrefix={ids} />
        {problem && <p className="gh-ap-field-error" role="alert">{problem}</p>}
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>Cancel</button>
          <button type="submit" className="gh-ap-button" disabled={busy || !permissionId} aria-busy={busy}>
            {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
            Add permission
          </button>
        </div>
      </form>
    </Modal>
  );
}
