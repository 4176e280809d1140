import { useT } from '../../i18n/i18n-context';

/**
 * The end of a dialog: the save error (if any), Cancel and the confirming button, which shows a
 * spinner while `busy`. A form's button submits it; otherwise `onConfirm` runs on click.
 */
export function DialogFooter({ error, busy, label, onClose, onConfirm, danger = false, disabled = false, autofocus = false }: {
  error: string | null;
  busy: boolean;
  label: string;
  onClose: () => void;
  onConfirm?: () => void;
  danger?: boolean;
  disabled?: boolean;
  autofocus?: boolean;
}) {
  const t = useT();
  return (
    <>
      {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
      <div className="gh-ap-modal-actions">
        <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>{t.t('common.cancel')}</button>
        <button
          type={onConfirm ? 'button' : 'submit'}
          className={danger ? 'gh-ap-button gh-ap-button-danger' : 'gh-ap-button'}
          onClick={onConfirm}
          disabled={busy || disabled}
          aria-busy={busy}
          {...(autofocus ? { 'data-autofocus': true } : {})}
        >
          {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
          {label}
        </button>
      </div>
    </>
  );
}
