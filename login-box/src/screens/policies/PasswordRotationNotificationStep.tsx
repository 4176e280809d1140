import { useState, type FormEvent } from 'react';
import { toGatehouseError } from '@gatehouse/shared';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { Field } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFocusFirst } from '../../components/use-focus-first';

/** passwordRotationNotification: signed in, the password expires soon; continue, or change it now. */
export function PasswordRotationNotificationStep() {
  const { store } = useLoginBox();
  const { login } = useAuth(store);
  const [changing, setChanging] = useState(false);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ref = useFocusFirst<HTMLDivElement>(changing);
  const days = login.passwordExpiresInDays ?? 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await store.changePassword({ password: current, newPassword: next });
      await store.continueAfterRotationNotice();
    } catch (e) {
      setError(toGatehouseError(e).message);
      setBusy(false);
    }
  };

  return (
    <div ref={ref}>
      <h1>Your password expires soon</h1>
      <p role="status">
        Your password expires in {days} {days === 1 ? 'day' : 'days'}. You can change it now or continue.
      </p>
      {changing ? (
        <form onSubmit={(e) => void submit(e)} aria-busy={busy}>
          <Field label="Current password" type="password" name="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />
          <Field label="New password" type="password" name="newPassword" autoComplete="new-password" required value={next} onChange={(e) => setNext(e.target.value)} />
          <ErrorAlert message={error} />
          <SubmitButton busy={busy}>Change password</SubmitButton>
        </form>
      ) : (
        <button type="button" className="gh-text-button" onClick={() => setChanging(true)}>
          Change password now
        </button>
      )}
      <button type="button" className="gh-button" onClick={() => void store.continueAfterRotationNotice()}>
        Continue
      </button>
    </div>
  );
}
