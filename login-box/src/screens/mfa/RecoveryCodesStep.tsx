import { useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useFocusFirst } from '../../components/use-focus-first';
import { CopyButton } from './CopyButton';

/** MFA step `recoveryCode` (seed 4.8): the recovery codes, shown this once, until the user confirms. */
export function RecoveryCodesStep() {
  const { store } = useLoginBox();
  const { mfa } = useAuth(store);
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
        Two-factor authentication is on. Save these recovery codes somewhere safe: each one signs you in once if you lose your authenticator. They are shown only now.
      </p>
      <ul className="gh-codes" aria-label="Recovery codes" data-testid="recovery-codes">
        {mfa.recoveryCodes.map((code) => (
          <li key={code} className="gh-mono">
            {code}
          </li>
        ))}
      </ul>
      <CopyButton value={all} label="Copy recovery codes" />
      <div className="gh-check">
        <input id="gh-codes-saved" type="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
        <label htmlFor="gh-codes-saved">I have saved my recovery codes</label>
      </div>
      <button type="submit" className="gh-button" disabled={!saved}>
        Continue
      </button>
    </form>
  );
}
