import { useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useFocusFirst } from '../../components/use-focus-first';
import { CopyButton } from './CopyButton';
import { useI18n } from '../../use-i18n';

/** MFA step `recoveryCode` (seed 4.8): the recovery codes, shown this once, until the user confirms. */
export function RecoveryCodesStep() {
  const { store } = useLoginBox();
  const { mfa } = useAuth(store);
  const { t } = useI18n();
  const [saved, setSaved] = useState(false);
  const ref = useFocusFirst<HTMLFormElement>('recoveryCode');
  const all = mfa.recoveryCodes.join('\n');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (saved) store.confirmRecoveryCodesSaved();
  };

  return (
    <form ref={ref} onSubmit={onSubmit}>
      <p role="status" tabIndex={-1}>
        {t('mfa.codes.text')}
      </p>
      <ul className="gh-codes" aria-label={t('mfa.codes.label')} data-testid="recovery-codes">
        {mfa.recoveryCodes.map((code) => (
          <li key={code} className="gh-mono">
            {code}
          </li>
        ))}
      </ul>
      <CopyButton value={all} label={t('mfa.codes.label')} />
      <div className="gh-check">
        <input id="gh-codes-saved" type="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
        <label htmlFor="gh-codes-saved">{t('mfa.codes.saved')}</label>
      </div>
      <button type="submit" className="gh-button" disabled={!saved}>
        {t('common.continue')}
      </button>
    </form>
  );
}
