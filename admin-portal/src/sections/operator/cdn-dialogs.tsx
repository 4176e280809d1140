/** The CDN tab's dialogs (issue 18): a confirmation, a whole number (canary share, versions to keep), tenant ids to pin. */
import { useId, useState, type FormEvent } from 'react';
import { useT } from '../../i18n/i18n-context';
import { DialogFooter } from '../dialogs/dialog-footer';
import { TextField } from '../dialogs/text-field';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';

/** The server's tenant id rule (shared/src/wire/operator/cdn.ts CdnTenantId). */
const TENANT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** A whole number from `min` to `max` typed in a field, or null. */
const wholeNumber = (text: string, min: number, max: number) => (/^\d{1,4}$/.test(text.trim()) && Number(text) >= min && Number(text) <= max ? Number(text) : null);

export function ConfirmDialog({ title, text, label, run, onClose }: { title: string; text: string; label: string; run: () => Promise<void>; onClose: () => void }) {
  const save = useSave();
  return (
    <Modal title={title} onClose={onClose} busy={save.busy}>
      <p className="gh-ap-modal-text">{text}</p>
      <DialogFooter error={save.error} busy={save.busy} label={label} onClose={onClose} onConfirm={() => void save.run(run)} autofocus />
    </Modal>
  );
}

/** One whole-number field (a canary's share, the versions to keep), checked before anything is sent. */
export function NumberDialog({ title, text, field, confirm, danger = false, save, onClose }: {
  title: string;
  text: string;
  field: { label: string; hint: string; problem: string; min: number; max: number; initial: number };
  confirm: string;
  danger?: boolean;
  save: (value: number) => Promise<void>;
  onClose: () => void;
}) {
  const id = useId().replace(/:/g, '');
  const saving = useSave();
  const [value, setValue] = useState(String(field.initial));
  const [problem, setProblem] = useState<string>();
  async function submit(event: FormEvent) {
    event.preventDefault();
    const number = wholeNumber(value, field.min, field.max);
    setProblem(number === null ? field.problem : undefined);
    if (number !== null) await saving.run(() => save(number));
  }
  return (
    <Modal title={title} onClose={onClose} busy={saving.busy}>
      <form className="gh-ap-form gh-ap-op-form" onSubmit={(e) => void submit(e)} noValidate>
        <p className="gh-ap-modal-text">{text}</p>
        <TextField id={`${id}-number`} label={field.label} hint={field.hint} value={value} busy={saving.busy} problem={problem} autofocus onChange={setValue} />
        <DialogFooter error={saving.error} busy={saving.busy} label={confirm} onClose={onClose} danger={danger} />
      </form>
    </Modal>
  );
}

export function PinDialog({ title, save, onClose }: { title: string; save: (tenants: string[]) => Promise<void>; onClose: () => void }) {
  const t = useT();
  const id = useId().replace(/:/g, '');
  const saving = useSave();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();
  async function submit(event: FormEvent) {
    event.preventDefault();
    const tenants = [...new Set(text.split(/[\s,]+/).filter(Boolean))];
    const bad = tenants.find((tenant) => !TENANT_ID.test(tenant));
    const found = tenants.length === 0 ? t.t('operator.cdn.problem.tenantsEmpty') : bad ? t.t('operator.cdn.problem.tenant', { tenant: bad }) : tenants.length > 100 ? t.t('operator.cdn.problem.tenantsMany') : undefined;
    setProblem(found);
    if (!found) await saving.run(() => save(tenants));
  }
  return (
    <Modal title={title} onClose={onClose} busy={saving.busy}>
      <form className="gh-ap-form gh-ap-op-form" onSubmit={(e) => void submit(e)} noValidate>
        <TextField id={`${id}-tenants`} label={t.t('operator.cdn.tenants')} hint={t.t('operator.cdn.tenantsHint')} value={text} busy={saving.busy} problem={problem} code autofocus onChange={setText} />
        <DialogFooter error={saving.error} busy={saving.busy} label={t.t('operator.cdn.pinConfirm')} onClose={onClose} />
      </form>
    </Modal>
  );
}
