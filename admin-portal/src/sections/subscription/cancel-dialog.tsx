import { useState } from 'react';
import { shortDate } from '../../format';
import { errorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { Modal } from '../users/modal';

/**
 * Confirms a cancellation (seed 001 section 4: policy atPeriodEnd): the plan stays until the period
 * ends, and Renew undoes it until then. A refusal shows the server's message and keeps the dialog.
 */
export function CancelDialog({ periodEnd, run, onClose }: { periodEnd: number | null; run: () => Promise<void>; onClose: () => void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await run();
    } catch (thrown) {
      setError(errorText(t, thrown));
      setBusy(false);
    }
  }
  const date = periodEnd === null ? null : shortDate(t, new Date(periodEnd).toISOString());
  return (
    <Modal title={t.t('subscription.cancel.title')} onClose={onClose} busy={busy}>
      <p className="gh-ap-modal-text">{date ? t.t('subscription.cancel.text', { date }) : t.t('subscription.cancel.textNoDate')}</p>
      {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
      <div className="gh-ap-modal-actions">
        <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy} data-autofocus>{t.t('subscription.cancel.keep')}</button>
        <button type="button" className="gh-ap-button gh-ap-button-danger" onClick={confirm} disabled={busy} aria-busy={busy}>
          {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
          {t.t('subscription.cancel.confirm')}
        </button>
      </div>
    </Modal>
  );
}
