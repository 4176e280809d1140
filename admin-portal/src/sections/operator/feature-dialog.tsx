import { useId, useState, type FormEvent } from 'react';
import { Permissions } from '@gatehouse/shared/admin-paths';
import type { Feature } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { DialogFooter } from '../dialogs/dialog-footer';
import { TextField } from '../dialogs/text-field';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';
import { ListInput } from './rule-editor';

/** The server's key rule (shared/src/wire/operator/operator.ts). */
export const KEY = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
/** Permission keys offered for linking; any other key or a pattern (`app.reports.*`) may be typed. */
const PERMISSION_KEYS = [...new Set(Object.values(Permissions))].sort();

/** Add or edit a feature: key, name, description and the permissions it gates (seed 000 section 6). */
export function FeatureDialog({ feature, save, onClose }: { feature: Feature | null; save: (body: Record<string, unknown>) => Promise<void>; onClose: () => void }) {
  const t = useT();
  const id = useId().replace(/:/g, '');
  const saving = useSave();
  const [key, setKey] = useState(feature?.key ?? '');
  const [name, setName] = useState(feature?.name ?? '');
  const [description, setDescription] = useState(feature?.description ?? '');
  const [permissions, setPermissions] = useState<string[]>(feature?.linkedPermissions ?? []);
  const [problems, setProblems] = useState<{ key?: string; name?: string; description?: string; permissions?: string }>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof problems = {};
    if (!KEY.test(key) || key.length > 100) found.key = t.t('operator.problem.key');
    if (!name.trim()) found.name = t.t('operator.problem.name');
    if (description.length > 1000) found.description = t.t('operator.problem.description');
    if (permissions.some((p) => p.length > 200)) found.permissions = t.t('operator.features.problem.permission');
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    await saving.run(() => save({ key, name: name.trim(), description, linkedPermissions: permissions }));
  }

  return (
    <Modal title={feature ? t.t('operator.features.editTitle', { name: feature.name }) : t.t('operator.features.add')} onClose={onClose} busy={saving.busy}>
      <form className="gh-ap-form gh-ap-op-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="gh-ap-op-row">
          <TextField id={`${id}-key`} label={t.t('operator.field.key')} value={key} busy={saving.busy} problem={problems.key} code autofocus hint={t.t('operator.field.keyHint')} onChange={setKey} />
          <TextField id={`${id}-name`} label={t.t('operator.field.name')} value={name} busy={saving.busy} problem={problems.name} onChange={setName} />
        </div>
        <TextField id={`${id}-description`} label={t.t('operator.field.description')} value={description} busy={saving.busy} problem={problems.description} onChange={setDescription} />
        <ListInput id={`${id}-permissions`} label={t.t('operator.features.permissions')} hint={t.t('operator.features.permissionsHint')} values={permissions} onChange={setPermissions} problem={problems.permissions} suggestions={PERMISSION_KEYS} />
        <DialogFooter error={saving.error} busy={saving.busy} label={feature ? t.t('operator.features.save') : t.t('operator.features.add')} onClose={onClose} />
      </form>
    </Modal>
  );
}
