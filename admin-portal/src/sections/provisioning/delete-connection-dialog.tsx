import { useId, useState } from 'react';
import type { ScimConnection } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { DialogFooter } from '../dialogs/dialog-footer';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';
import { SOURCE_LABELS } from './sources';

/**
 * Deletes a connection after confirmation: its token stops working at once. The users (and groups)
 * it made stay in the account unless the admin ticks "Also remove …" (the API's `deleteAll`), which
 * the confirm button then says too.
 */
export function DeleteConnectionDialog({ connection, run, onClose }: { connection: ScimConnection; run: (deleteAll: boolean) => Promise<void>; onClose: () => void }) {
  const t = useT();
  const id = useId();
  const [deleteAll, setDeleteAll] = useState(false);
  const { busy, error, run: save } = useSave();
  const provider = t.t(SOURCE_LABELS[connection.source].name);
  const counts = { users: connection.usersCount, groups: connection.groupsCount };
  return (
    <Modal title={t.t('provisioning.delete.title', { provider })} onClose={onClose} busy={busy}>
      <p className="gh-ap-modal-text">{t.t('provisioning.delete.text', { provider })}</p>
      <label className="gh-ap-check" htmlFor={`${id}-all`}>
        <input id={`${id}-all`} type="checkbox" checked={deleteAll} disabled={busy} onChange={(e) => setDeleteAll(e.target.checked)} aria-describedby={`${id}-all-hint`} />
        <span>
          {t.t('provisioning.delete.all', counts)}
          <span id={`${id}-all-hint`} className="gh-ap-hint gh-ap-scim-choice-hint">{t.t(deleteAll ? 'provisioning.delete.allHint' : 'provisioning.delete.keepHint', counts)}</span>
        </span>
      </label>
      <DialogFooter
        error={error}
        busy={busy}
        label={t.t(deleteAll ? 'provisioning.delete.confirmAll' : 'provisioning.delete.confirm')}
        onClose={onClose}
        onConfirm={() => void save(() => run(deleteAll))}
        danger
      />
    </Modal>
  );
}
