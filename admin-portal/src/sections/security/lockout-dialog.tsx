import { useT } from '../../i18n/i18n-context';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';

/**
 * Issue 12 anti-lockout: the server refused a save because it would shut out the admin's own
 * address. Asks first (focus starts on Cancel, the safe answer); `confirm` resends with
 * confirmSelfLockout only when the admin says so.
 */
export function LockoutDialog({ myIp, confirm, onClose }: { myIp: string | null; confirm: () => Promise<void>; onClose: () => void }) {
  const t = useT();
  const save = useSave();
  return (
    <Modal title={t.t('restrictions.lockout.title')} onClose={onClose} busy={save.busy}>
      <p className="gh-ap-modal-text">{myIp ? t.t('restrictions.lockout.textIp', { ip: myIp }) : t.t('restrictions.lockout.text')}</p>
      {save.error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{save.error}</p>}
      <div className="gh-ap-modal-actions">
        <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={save.busy} data-autofocus>{t.t('common.cancel')}</button>
        <button type="button" className="gh-ap-button gh-ap-button-danger" onClick={() => void save.run(confirm)} disabled={save.busy} aria-busy={save.busy}>
          {save.busy && <span className="gh-ap-spinner" aria-hidden="true" />}
          {t.t('restrictions.lockout.confirm')}
        </button>
      </div>
    </Modal>
  );
}
