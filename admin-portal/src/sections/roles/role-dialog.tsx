import { useId, useState, type FormEvent } from 'react';
import type { Permission, PermissionCategory, Role } from '@gatehouse/shared/wire';
import { DialogFooter } from '../dialogs/dialog-footer';
import { TextField } from '../dialogs/text-field';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';
import { useT } from '../../i18n/i18n-context';
import { PermissionsPicker } from './permissions-picker';
import type { RoleInput } from './roles-api';

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
  const t = useT();
  const [problems, setProblems] = useState<{ key?: string; name?: string }>({});
  const { busy, error, run } = useSave();
  const ids = useId();
  const set = (patch: Partial<RoleInput>) => setInput((current) => ({ ...current, ...patch }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: { key?: string; name?: string } = {};
    if (!KEY.test(input.key.trim())) found.key = t.t('roles.dialog.keyInvalid');
    if (!input.name.trim()) found.name = t.t('roles.dialog.nameMissing');
    setProblems(found);
    if (found.key || found.name) return;
    await run(() => save({ ...input, key: input.key.trim(), name: input.name.trim() }));
  }

  return (
    <Modal title={role ? t.t('roles.dialog.editTitle', { name: role.name }) : t.t('roles.add')} onClose={onClose} busy={busy}>
      <form className="gh-ap-form" onSubmit={submit} noValidate>
        <TextField id={`${ids}-name`} label={t.t('roles.dialog.name')} value={input.name} busy={busy} problem={problems.name ?? ''} autofocus onChange={(name) => set({ name })} />
        <TextField id={`${ids}-key`} label={t.t('roles.column.key')} value={input.key} busy={busy} problem={problems.key ?? ''} code onChange={(key) => set({ key })} />
        <TextField id={`${ids}-description`} label={t.t('roles.dialog.description')} value={input.description} busy={busy} onChange={(description) => set({ description })} />
        <label className="gh-ap-check" htmlFor={`${ids}-default`}>
          <input id={`${ids}-default`} type="checkbox" checked={input.isDefault} disabled={busy} onChange={(e) => set({ isDefault: e.target.checked })} />
          <span>
            {t.t('roles.dialog.default')}
            <span className="gh-ap-hint"> {t.t('roles.dialog.defaultHint')}</span>
          </span>
        </label>
        <PermissionsPicker permissions={permissions} categories={categories} selected={input.permissionIds} onChange={(permissionIds) => set({ permissionIds })} disabled={busy} idPrefix={ids} />
        <DialogFooter error={error} busy={busy} label={role ? t.t('roles.dialog.save') : t.t('roles.add')} onClose={onClose} />
      </form>
    </Modal>
  );
}
