import { useId, useRef, useState, type FormEvent } from 'react';
import { ErrorCodes } from '../../contract';
import { useRefocusOnError } from '../roles/refocus';
import { Modal } from '../users/modal';
import { useErrorText } from '../../i18n/errors';
import type { FactorRow } from './privacy-format';

/** The server's answers that mean "prove it is you again first" (services/auth/recent-auth.ts). */
const FRESH_AUTH_CODES: readonly string[] = [ErrorCodes.recentAuthRequired, ErrorCodes.stepUpRequired];

function needsFreshSignIn(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'errorCode' in error && FRESH_AUTH_CODES.includes(String(error.errorCode));
}

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
  const errorMessage = useErrorText();
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [stale, setStale] = useState(false);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLFormElement>(null);
  const id = useId();
  useRefocusOnError(error, busy, ref);
  const name = factor.detail ? `${factor.label} (${factor.detail})` : factor.label;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const value = code.trim();
    if (value.length < 6) {
      setFieldError('Enter the 6-digit code from your authenticator app, or a recovery code.');
      return;
    }
    setFieldError(null);
    setError(null);
    setBusy(true);
    try {
      await remove(value);
    } catch (thrown) {
      if (needsFreshSignIn(thrown)) setStale(true);
      else setError(errorMessage(thrown));
      setBusy(false);
    }
  }

  if (stale) {
    return (
      <Modal title="Sign in again to continue" onClose={onClose}>
        <p className="gh-ap-modal-text" role="alert">
          For your security, removing a second factor needs a recent sign-in. Sign in again, then come back here to remove {name}.
        </p>
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button-secondary" onClick={onClose}>Cancel</button>
          <button type="button" className="gh-ap-button" onClick={onSignInAgain} data-autofocus>Sign in again</button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal title={`Remove ${factor.label.toLowerCase()}`} onClose={onClose} busy={busy}>
      <form ref={ref} className="gh-ap-form" noValidate onSubmit={submit}>
        <p className="gh-ap-modal-text">
          {isLast
            ? `${name} is your only second factor: removing it turns two-step sign-in off and deletes your recovery codes.`
            : `${name} will no longer be accepted when you sign in.`}
        </p>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${id}-code`}>Authenticator or recovery code</label>
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
            To confirm it is you: a current code from your authenticator app, or one of your recovery codes ({recoveryCodesLeft} left).
          </p>
          {fieldError && <p id={`${id}-error`} className="gh-ap-field-error">{fieldError}</p>}
        </div>
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>Cancel</button>
          <button type="submit" className="gh-ap-button gh-ap-button-danger" disabled={busy} aria-busy={busy}>
            {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
            Remove
          </button>
        </div>
      </form>
    </Modal>
  );
}
