import { useT } from '../../i18n/i18n-context';
import { Modal } from '../users/modal';
import { DialogFooter } from './dialog-footer';
import { useSave } from './use-save';

/** Confirms deleting a role or a group (or another irreversible action, named by `confirmLabel`); `text` says what it does. */
export function DeleteDialog({ title, text, run, onClose, confirmLabel }: { title: string; text: string; run: () => Promise<void>; onClose: () => void; confirmLabel?: string }) {
  const t = useT();
  const save = useSave();
  return (
    <Modal title={title} onClose={onClose} busy={save.busy}>
      <p className="gh-ap-modal-text">{text}</p>
      <DialogFooter error={save.error} busy={save.busy} label={confirmLabel ?? t.t('common.delete')} onClose={onClose} onConfirm={() => void save.run(run)} danger autofocus />
    </Modal>
  );
}
