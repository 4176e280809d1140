import { useId, useState, type FormEvent } from 'react';
import type { Permission, Role } from '@gatehouse/shared/wire';
import { DialogFooter } from '../dialogs/dialog-footer';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';
import { RolesPicker } from '../users/roles-picker';
import { useT } from '../../i18n/i18n-context';

/** One permission added to many roles (seed 001 section 6). */
export function AttachPermissionDialog({ roles, permissions, save, onClose }: {
  roles: Role[];
  permissions: Permission[];
  save: (permissionId: string, roleIds: string[]) => Promise<void>;
  onClose: () => void;
}) {
  const t = useT();
  const [permissionId, setPermissionId] = useState(permissions[0]?.id ?? '');
  const [roleIds, setRoleIds] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, error, run } = useSave();
  const ids = useId();
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (roleIds.length === 0) {
      setProblem(t.t('roles.attachDialog.noRole'));
      return;
    }
    setProblem(null);
    await run(() => save(permissionId, roleIds));
  }
  return (
    <Modal title={t.t('roles.attach')} onClose={onClose} busy={busy}>
      <form className="gh-ap-form" onSubmit={submit} noValidate>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${ids}-permission`}>{t.t('roles.permission')}</label>
          <select id={`${ids}-permission`} className="gh-ap-select" value={permissionId} disabled={busy} data-autofocus onChange={(e) => setPermissionId(e.target.value)}>
            {permissions.map((p) => (
              <option key={p.id} value={p.id}>{`${p.name} (${p.key})`}</option>
            ))}
          </select>
        </div>
        <RolesPicker roles={roles} selected={roleIds} onChange={setRoleIds} disabled={busy} idPrefix={ids} />
        {problem && <p className="gh-ap-field-error" role="alert">{problem}</p>}
        <DialogFooter error={error} busy={busy} label={t.t('roles.attachDialog.confirm')} onClose={onClose} disabled={!permissionId} />
      </form>
    </Modal>
  );
}
