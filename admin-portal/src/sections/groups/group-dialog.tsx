import { useId, useState, type FormEvent } from 'react';
import type { Group, Role } from '@gatehouse/shared/wire';
import { DialogFooter } from '../dialogs/dialog-footer';
import { TextField } from '../dialogs/text-field';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';
import { RolesPicker } from '../users/roles-picker';
import { useT } from '../../i18n/i18n-context';
import type { GroupInput } from './groups-api';

const COLOR = /^#[0-9a-fA-F]{6}$/;

/** Create or edit a group: name, description, color and roles. */
export function GroupDialog({ group, roles, save, onClose }: { group: Group | null; roles: Role[]; save: (input: GroupInput) => Promise<void>; onClose: () => void }) {
  const [input, setInput] = useState<GroupInput>({
    name: group?.name ?? '',
    description: group?.description ?? '',
    color: group?.color ?? '',
    roleIds: group?.roles.map((r) => r.id) ?? [],
  });
  const t = useT();
  const [problems, setProblems] = useState<{ name?: string; color?: string }>({});
  const { busy, error, run } = useSave();
  const ids = useId();
  const set = (patch: Partial<GroupInput>) => setInput((current) => ({ ...current, ...patch }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: { name?: string; color?: string } = {};
    if (!input.name.trim()) found.name = t.t('groups.dialog.nameMissing');
    if (input.color && !COLOR.test(input.color)) found.color = t.t('groups.dialog.colorInvalid');
    setProblems(found);
    if (found.name || found.color) return;
    await run(() => save({ ...input, name: input.name.trim() }));
  }

  return (
    <Modal title={group ? t.t('groups.dialog.editTitle', { name: group.name }) : t.t('groups.add')} onClose={onClose} busy={busy}>
      <form className="gh-ap-form" onSubmit={submit} noValidate>
        <TextField id={`${ids}-name`} label={t.t('groups.dialog.name')} value={input.name} busy={busy} problem={problems.name ?? ''} autofocus onChange={(name) => set({ name })} />
        <TextField id={`${ids}-description`} label={t.t('groups.dialog.description')} value={input.description} busy={busy} onChange={(description) => set({ description })} />
        <TextField
          id={`${ids}-color`}
          label={t.t('groups.dialog.color')}
          value={input.color}
          placeholder="#3366ff"
          code
          busy={busy}
          problem={problems.color ?? ''}
          onChange={(color) => set({ color: color.trim() })}
          extra={<input type="color" aria-label={t.t('groups.dialog.pickColor')} value={COLOR.test(input.color) ? input.color : '#5b6cff'} disabled={busy} onChange={(e) => set({ color: e.target.value })} />}
        />
        <RolesPicker roles={roles} selected={input.roleIds} onChange={(roleIds) => set({ roleIds })} disabled={busy} idPrefix={ids} />
        <DialogFooter error={error} busy={busy} label={group ? t.t('groups.dialog.save') : t.t('groups.add')} onClose={onClose} />
      </form>
    </Modal>
  );
}
