import { useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { Field } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { ErrorAlert } from '../../components/ErrorAlert';

export interface NewPasswordFormProps {
  busy: boolean;
  error: string | null;
  onSubmit(password: string): void;
}

/** New password twice (password managers offer a generated one via autocomplete="new-password"). */
export function NewPasswordForm({ busy, error, onSubmit }: NewPasswordFormProps) {
  const { store } = useLoginBox();
  const { vendor } = useAuth(store);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState<string | null>(null);
  const minLength = vendor?.passwordConfig.minLength;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (password !== confirm) {
      setMismatch('Passwords do not match');
      return;
    }
    setMismatch(null);
    onSubmit(password);
  };

  return (
    <form onSubmit={submit} aria-busy={busy}>
      <Field
        label="New password"
        type="password"
        name="newPassword"
        autoComplete="new-password"
        required
        minLength={minLength}
        hint={minLength ? `At least ${minLength} characters` : undefined}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <Field label="Confirm new password" type="password" name="confirmNewPassword" autoComplete="new-password" required value={confirm} onChange={(e) => setConfirm(e.target.value)} />
      <ErrorAlert message={mismatch ?? error} />
      <SubmitButton busy={busy}>Set new password</SubmitButton>
    </form>
  );
}
