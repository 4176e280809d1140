import type { ScimSource } from '@gatehouse/shared/admin-paths';
import { useT } from '../../i18n/i18n-context';
import { CopyField } from '../api-tokens/token-created-dialog';
import { Modal } from '../users/modal';
import { SetupInstructions } from './setup-instructions';
import { SOURCE_LABELS } from './sources';

/**
 * A connection's bearer token, shown this once (after the connection is made, or its token
 * rotated), with a copy button and a plain warning, then the base URL and the provider's steps. The
 * section drops the token when this closes: no state keeps it, and it is never shown again.
 */
export function TokenDialog({ kind, source, token, baseUrl, onClose }: { kind: 'created' | 'rotated'; source: ScimSource; token: string; baseUrl: string; onClose: () => void }) {
  const t = useT();
  const provider = t.t(SOURCE_LABELS[source].name);
  return (
    <Modal title={t.t(kind === 'created' ? 'provisioning.token.createdTitle' : 'provisioning.token.rotatedTitle', { provider })} onClose={onClose}>
      <p className="gh-ap-banner gh-ap-banner-warning" role="note">
        <strong>{t.t('provisioning.token.copyNow')}</strong> {t.t(kind === 'created' ? 'provisioning.token.onlyOnce' : 'provisioning.token.oldStopped')}
      </p>
      <CopyField label={t.t('provisioning.token.label')} copyLabel={t.t('provisioning.token.copy')} value={token} autofocus />
      <SetupInstructions source={source} baseUrl={baseUrl} />
      <div className="gh-ap-modal-actions">
        <button type="button" className="gh-ap-button" onClick={onClose}>{t.t('common.done')}</button>
      </div>
    </Modal>
  );
}
