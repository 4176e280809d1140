import { useId, useRef, useState, type FormEvent } from 'react';
import type { Permission, PermissionCategory, Role } from '@gatehouse/shared/wire';
import { Modal } from '../users/modal';
import { errorMessage } from '../users/users-format';
import { PermissionsPicker } from './permissions-picker';
import type { RoleInput } from './roles-api';
import { useRefocusOnError } from './refocus';

const KEY = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

/** Create or edit a role: key, name, description, default flag and permissions. Checked here before sending. */
export function RoleDialog({ role, permissions, categories, save, onClose }: {
  role: Role | null;
  permissions: Permission[];
  categories: PermissionCategory[];
  save: (input: RoleInput) => Promise<void>;
  onClose: () => void;
}) {
  const [input, setInput] = useState<RoleInput>({
    key: role?.key ?? '',
    name: role?.name ?? '',
    description: role?.description ?? '',
    isDefault: role?.isDefault ?? false,
    permissionIds: role?.permissions ?? [],
  });
  const [problems, setProblems] = useState<{ key?: string; name?: string }>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLFormElement>(null);
  useRefocusOnError(error, busy, ref);
  const ids = useId();
  const set = (patch: Partial<RoleInput>) => setInput((current) => ({ ...current, ...patch }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: { key?: string; name?: string } = {};
    if (!KEY.test(input.key.trim())) found.key = 'Enter a key of letters, digits and . _ : -';
    if (!input.name.trim()) found.name = 'Enter a name';
    setProblems(found);
    if (found.key || found.name) return;
    setBusy(true);
    setError(null);
    try {
      await save({ ...input, key: input.key.trim(), name: input.name.trim() });
    } catch (thrown) {
      setError(errorMessage(thrown));
      setBusy(false);
    }
  }

  return (
    <Modal title={role ? `Edit role ${role.name}` : 'Add role'} onClose={onClose} busy={busy}>
      <form ref={ref} className="gh-ap-form" onSubmit={submit} noValidate>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${ids}-name`}>Name</label>
          <input id={`${ids}-name`} className="gh-ap-input" value={input.name} autoComplete="off" disabled={busy} data-autofocus aria-invalid={Boolean(problems.name)} aria-describedby={problems.name ? `${ids}-name-error` : undefined} onChange={(e) => set({ name: e.target.value })} />
          {problems.name && <p id={`${ids}-name-error`} className="gh-ap-field-error" role="alert">{problems.name}</p>}
        </div>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${ids}-key`}>Key</label>
          <input id={`${ids}-key`} className="gh-ap-input" value={input.key} autoComplete="off" spellCheck={false} disabled={busy} aria-invalid={Boolean(problems.key)} aria-describedby={problems.key ? `${ids}-key-error` : undefined} onChange={(e) => set({ key: e.target.value })} />
          {problems.key && <p id={`${ids}-key-error`} className="gh-ap-field-error" role="alert">{problems.key}</p>}
        </div>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${ids}-description`}>Description (optional)</label>
          <input id={`${ids}-description`} className="gh-ap-input" value={input.description} autoComplete="off" disabled={busy} onChange={(e) => set({ description: e.target.value })} />
        </div>
        <label className="gh-ap-check" htmlFor={`${ids}-default`}>
          <input id={`${ids}-default`} type="checkbox" checked={input.isDefault} disabled={busy} onChange={(e) => set({ isDefault: e.target.checked })} />
          <span>
            Default role
            <span className="gh-ap-hint"> Granted to invited users when no role is chosen</span>
          </span>
        </label>
        <PermissionsPicker permissions={permissions} categories={categories} selected={input.permissionIds} onChange={(permissionIds) => set({ permissionIds })} disabled={busy} idPrefix={ids} />
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>Cancel</button>
          <button type="submit" className="gh-ap-button" disabled={busy} aria-busy={busy}>
            {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
            {role ? 'Save role' : 'Add role'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
