import { useT } from '../../i18n/i18n-context';
import { CopyField } from '../api-tokens/token-created-dialog';
import { Modal } from '../users/modal';

/**
 * An endpoint's signing secret, shown this once (after the endpoint is added, or its secret
 * rotated) with a copy button. The tab drops it when this closes; the server never answers it again.
 */
export function SecretDialog({ kind, url, secret, onClose }: { kind: 'created' | 'rotated'; url: string; secret: string; onClose: () => void }) {
  const t = useT();
  return (
    <Modal title={t.t(kind === 'created' ? 'connectivity.webhooks.secret.createdTitle' : 'connectivity.webhooks.secret.rotatedTitle')} onClose={onClose}>
      <p className="gh-ap-modal-text">
        {t.t('connectivity.webhooks.secret.for')} <code className="gh-ap-mono gh-ap-cx-url" dir="ltr">{url}</code>
      </p>
      <p className="gh-ap-banner gh-ap-banner-warning" role="note">
        <strong>{t.t('connectivity.webhooks.secret.copyNow')}</strong> {t.t(kind === 'created' ? 'connectivity.webhooks.secret.onlyOnce' : 'connectivity.webhooks.secret.bothSign')}
      </p>
      <CopyField label={t.t('connectivity.webhooks.secret.label')} copyLabel={t.t('connectivity.webhooks.secret.copy')} value={secret} autofocus />
      <p className="gh-ap-hint">{t.t('connectivity.webhooks.secret.verify')}</p>
      <div className="gh-ap-modal-actions">
        <button type="button" className="gh-ap-button" onClick={onClose}>{t.t('common.done')}</button>
      </div>
    </Modal>
  );
}
