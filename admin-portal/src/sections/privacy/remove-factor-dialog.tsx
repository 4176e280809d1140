import { useId, useRef, useState, type FormEvent } from 'react';
import { useT } from '../../i18n/i18n-context';
import { useRefocusOnError } from '../roles/refocus';
import { Modal } from '../users/modal';
import { useErrorText } from '../../i18n/errors';
import type { FactorRow } from './privacy-format';

import { freshAuthNeeded } from './fresh-auth';

/**
 * Removes one second factor. The server asks for a sign-in within the last few minutes and for a
 * code from an authenticator app or a recovery code (the same rules as turning MFA off); when the
 * sign-in is too old the dialog says so and offers to sign in again instead.
 */
export function RemoveFactorDialog({ factor, isLast, recoveryCodesLeft, remove, onSignInAgain, onClose }: {
  factor: FactorRow;
  isLast: boolean;
  recoveryCodesLeft: number;
  remove: (code: string) => Promise<void>;
  onSignInAgain: () => void;
  onClose: () => void;
}) {
  const t = useT();
  const errorMessage = useErrorText();
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [stale, setStale] = useState(false);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLFormElement>(null);
  const id = useId();
  useRefocusOnError(error, busy, ref);
  const label = t.t(factor.labelKey);
  const name = factor.detail ? `${label} (${factor.detail})` : label;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const value = code.trim();
    if (value.length < 6) {
      setFieldError(t.t('privacy.remove.codeMissing'));
      return;
    }
    setFieldError(null);
    setError(null);
    setBusy(true);
    try {
      await remove(value);
    } catch (thrown) {
      if (freshAuthNeeded(thrown)) setStale(true);
      else setError(errorMessage(thrown));
      setBusy(false);
    }
  }

  if (stale) {
    return (
      <Modal title={t.t('privacy.fresh.signInTitle')} onClose={onClose}>
        <p className="gh-ap-modal-text" role="alert">
          {t.t('privacy.remove.stale', { name })}
        </p>
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button-secondary" onClick={onClose}>{t.t('common.cancel')}</button>
          <button type="button" className="gh-ap-button" onClick={onSignInAgain} data-autofocus>{t.t('privacy.fresh.signIn')}</button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal title={t.t('privacy.remove.title', { name: label })} onClose={onClose} busy={busy}>
      <form ref={ref} className="gh-ap-form" noValidate onSubmit={submit}>
        <p className="gh-ap-modal-text">
          {t.t(isLast ? 'privacy.remove.last' : 'privacy.remove.text', { name })}
        </p>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${id}-code`}>{t.t('privacy.remove.code')}</label>
          <input
            id={`${id}-code`}
            className="gh-ap-input"
            name="code"
            autoComplete="one-time-code"
            spellCheck={false}
            maxLength={64}
            value={code}
            disabled={busy}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={`${id}-hint${fieldError ? ` ${id}-error` : ''}`}
            onChange={(event) => {
              setCode(event.target.value);
              setFieldError(null);
            }}
            data-autofocus
          />
          <p id={`${id}-hint`} className="gh-ap-hint">
            {t.t('privacy.remove.codeHint', { count: recoveryCodesLeft })}
          </p>
          {fieldError && <p id={`${id}-error`} className="gh-ap-field-error">{fieldError}</p>}
        </div>
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>{t.t('common.cancel')}</button>
          <button type="submit" className="gh-ap-button gh-ap-button-danger" disabled={busy} aria-busy={busy}>
            {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
            {t.t('common.remove')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
