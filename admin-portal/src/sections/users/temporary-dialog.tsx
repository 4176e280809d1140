import { useId, useState, type FormEvent } from 'react';
import type { TenantUser } from '@gatehouse/shared/wire';
import { Modal } from './modal';
import { userLabel } from '../../format';
import { errorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';

const UNIT_SECONDS = { hours: 3600, days: 86_400 } as const;
type Unit = keyof typeof UNIT_SECONDS;
/** The server's bounds for expirationInSeconds: a minute to ten years. */
const MAX_SECONDS = 315_360_000;

/** The seconds from now a temporary user's membership lasts, or null when the amount is not a positive whole number in range. */
export function expirationSeconds(amount: string, unit: Unit): number | null {
  if (!/^\d+$/.test(amount.trim())) return null;
  const seconds = Number(amount.trim()) * UNIT_SECONDS[unit];
  return seconds >= 60 && seconds <= MAX_SECONDS ? seconds : null;
}

/** Make temporary (seed 001 "Temporary users"): the user's membership of this account ends N hours or days from now. */
export function TemporaryDialog({ user, save, onClose }: { user: TenantUser; save: (expirationInSeconds: number) => Promise<void>; onClose: () => void }) {
  const t = useT();
  const [amount, setAmount] = useState('7');
  const [unit, setUnit] = useState<Unit>('days');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ids = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const seconds = expirationSeconds(amount, unit);
    if (seconds === null) return setFieldError(t.t('users.temporary.invalid'));
    setFieldError(null);
    setBusy(true);
    setError(null);
    try {
      await save(seconds);
    } catch (thrown) {
      setError(errorText(t, thrown));
      setBusy(false);
    }
  }

  return (
    <Modal title={t.t('users.temporary.title', { who: userLabel(user, t) })} onClose={onClose} busy={busy}>
      <form className="gh-ap-form" onSubmit={submit} noValidate>
        <p className="gh-ap-modal-text">{t.t('users.temporary.text', { who: userLabel(user, t) })}</p>
        <div className="gh-ap-copy-row">
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-amount`}>{t.t('users.temporary.expiresIn')}</label>
            <input
              id={`${ids}-amount`}
              className="gh-ap-input"
              type="number"
              inputMode="numeric"
              min={1}
              value={amount}
              disabled={busy}
              data-autofocus
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? `${ids}-amount-error` : undefined}
              onChange={(event) => {
                setAmount(event.target.value);
                setFieldError(null);
              }}
            />
          </div>
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-unit`}>{t.t('users.temporary.unit')}</label>
            <select id={`${ids}-unit`} className="gh-ap-select" value={unit} disabled={busy} onChange={(event) => setUnit(event.target.value as Unit)}>
              <option value="hours">{t.t('users.temporary.hours')}</option>
              <option value="days">{t.t('users.temporary.days')}</option>
            </select>
          </div>
        </div>
        {fieldError && <p id={`${ids}-amount-error`} className="gh-ap-field-error" role="alert">{fieldError}</p>}
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>{t.t('common.cancel')}</button>
          <button type="submit" className="gh-ap-button" disabled={busy} aria-busy={busy}>
            {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
            {t.t('users.temporary.confirm')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
