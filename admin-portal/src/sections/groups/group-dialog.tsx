import { useId, useRef, useState, type FormEvent } from 'react';
import type { Group, Role } from '@gatehouse/shared/wire';
import { Modal } from '../users/modal';
import { RolesPicker } from '../users/roles-picker';
import { errorMessage } from '../users/users-format';
import type { GroupInput } from './groups-api';
import { useRefocusOnError } from '../roles/refocus';

const COLOR = /^#[0-9a-fA-F]{6}$/;

/** Create or edit a group: name, description, color and roles. */
export function GroupDialog({ group, roles, save, onClose }: { group: Group | null; roles: Role[]; save: (input: GroupInput) => Promise<void>; onClose: () => void }) {
  const [input, setInput] = useState<GroupInput>({
    name: group?.name ?? '',
    description: group?.description ?? '',
    color: group?.color ?? '',
    roleIds: group?.roles.map((r) => r.id) ?? [],
  });
  const [problems, setProblems] = useState<{ name?: string; color?: string }>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLFormElement>(null);
  useRefocusOnError(error, busy, ref);
  const ids = useId();
  const set = (patch: Partial<GroupInput>) => setInput((current) => ({ ...current, ...patch }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: { name?: string; color?: string } = {};
    if (!input.name.trim()) found.name = 'Enter a name';
    if (input.color && !COLOR.test(input.color)) found.color = 'Enter a color such as #3366ff';
    setProblems(found);
    if (found.name || found.color) return;
    setBusy(true);
    setError(null);
    try {
      await save({ ...input, name: input.name.trim() });
    } catch (thrown) {
      setError(errorMessage(thrown));
      setBusy(false);
    }
  }

  return (
    <Modal title={group ? `Edit group ${group.name}` : 'Add group'} onClose={onClose} busy={busy}>
      <form ref={ref} className="gh-ap-form" onSubmit={submit} noValidate>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${ids}-name`}>Name</label>
          <input id={`${ids}-name`} className="gh-ap-input" value={input.name} autoComplete="off" disabled={busy} data-autofocus aria-invalid={Boolean(problems.name)} aria-describedby={problems.name ? `${ids}-name-error` : undefined} onChange={(e) => set({ name: e.target.value })} />
          {problems.name && <p id={`${ids}-name-error`} className="gh-ap-field-error" role="alert">{problems.name}</p>}
        </div>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${ids}-description`}>Description (optional)</label>
          <input id={`${ids}-description`} className="gh-ap-input" value={input.description} autoComplete="off" disabled={busy} onChange={(e) => set({ description: e.target.value })} />
        </div>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${ids}-color`}>Color (optional)</label>
          <div className="gh-ap-color">
            <input id={`${ids}-color`} className="gh-ap-input" value={input.color} placeholder="#3366ff" autoComplete="off" spellCheck={false} disabled={busy} aria-invalid={Boolean(problems.color)} aria-describedby={problems.color ? `${ids}-color-error` : undefined} onChange={(e) => set({ color: e.target.value.trim() })} />
            <input type="color" aria-label="Pick a color" value={COLOR.test(input.color) ? input.color : '#5b6cff'} disabled={busy} onChange={(e) => set({ color: e.target.value })} />
          </div>
          {problems.color && <p id={`${ids}-color-error`} className="gh-ap-field-error" role="alert">{problems.color}</p>}
        </div>
        <RolesPicker roles={roles} selected={input.roleIds} onChange={(roleIds) => set({ roleIds })} disabled={busy} idPrefix={ids} />
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>Cancel</button>
          <button type="submit" className="gh-ap-button" disabled={busy} aria-busy={busy}>
            {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
            {group ? 'Save group' : 'Add group'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
