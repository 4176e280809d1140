import { useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Field } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { useFocusFirst } from '../../components/use-focus-first';

/** Login step `recoverTwoFactor`: one of the recovery codes saved at enrolment (each works once). */
export function RecoverTwoFactorStep() {
  const { store } = useLoginBox();
  const { mfa } = useAuth(store);
  const [code, setCode] = useState('');
  const formRef = useFocusFirst<HTMLFormElement>('recoverTwoFactor');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void store.recoverMfa(code);
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} aria-busy={mfa.loading}>
      <p>Lost access to your authenticator? Enter one of your recovery codes. Each code works once.</p>
      <Field label="Recovery code" name="recovery-code" autoComplete="off" autoCapitalize="characters" spellCheck={false} required value={code} onChange={(e) => setCode(e.target.value)} />
      <ErrorAlert message={mfa.error} />
      <SubmitButton busy={mfa.loading}>Sign in</SubmitButton>
      <button type="button" className="gh-text-button" onClick={() => store.setLoginMfaStep('loginWithTwoFactor')}>
        Use your authenticator app
      </button>
    </form>
  );
}
