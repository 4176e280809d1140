import { useState } from 'react';
import { useT } from '../../i18n/i18n-context';
import { DialogFooter } from '../dialogs/dialog-footer';
import { Modal } from '../users/modal';
import { RecoveryCodesList } from './recovery-codes';
import { useSecuritySave } from './use-security-save';

/** New recovery codes: confirm (the current ones stop working), then the new set, shown once. */
export function RegenerateCodesDialog({ regenerate, onDone, onFreshAuth, onClose }: {
  regenerate: () => Promise<{ recoveryCodes: string[] }>;
  onDone: () => void;
  onFreshAuth: (error: unknown) => boolean;
  onClose: () => void;
}) {
  const t = useT();
  const [codes, setCodes] = useState<string[] | null>(null);
  const { busy, error, run } = useSecuritySave(onFreshAuth);
  if (codes) {
    return (
      <Modal title={t.t('privacy.codes.title')} onClose={onClose}>
        <RecoveryCodesList codes={codes} />
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button" data-autofocus onClick={onClose}>{t.t('privacy.codes.saved')}</button>
        </div>
      </Modal>
    );
  }
  return (
    <Modal title={t.t('privacy.regenerate.title')} onClose={onClose} busy={busy}>
      <p className="gh-ap-modal-text">{t.t('privacy.regenerate.text')}</p>
      <DialogFooter
        error={error}
        busy={busy}
        label={t.t('privacy.regenerate.confirm')}
        onClose={onClose}
        autofocus
        onConfirm={() =>
          void run(async () => {
            setCodes((await regenerate()).recoveryCodes);
            onDone();
          })
        }
      />
    </Modal>
  );
}
