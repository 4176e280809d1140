import { useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { SubmitButton } from '../../components/SubmitButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFocusFirst } from '../../components/use-focus-first';
import { Field } from '../../components/Field';

/**
 * The passwordless steps after preLogin (seed 000 section 2.2): magicLinkPreLoginSuccess ("check your
 * email") and loginWithOtc (the emailed code). Loaded lazily: only passwordless strategies need it.
 */
export default function PasswordlessStep() {
  const { store } = useLoginBox();
  const { login } = useAuth(store);
  const [code, setCode] = useState('');
  const ref = useFocusFirst<HTMLDivElement>(login.step);

  const onCode = (event: FormEvent) => {
    event.preventDefault();
    if (!login.loading) void store.loginWithOtc(code);
  };
  const other = (
    <button type="button" className="gh-text-button" onClick={() => store.resetLogin()}>
      Use a different account
    </button>
  );

  if (login.step === 'magicLinkPreLoginSuccess') {
    return (
      <div ref={ref}>
        <h1>Check your email</h1>
        <p role="status">
          If an account exists for <strong>{login.email}</strong>, we sent it a sign-in link. Open it within 15 minutes, in this browser or any other.
        </p>
        {other}
      </div>
    );
  }

  return (
    <div ref={ref}>
      <h1>Enter your code</h1>
      <p>If an account exists for <strong>{login.email}</strong>, we emailed it a 6-digit code. It expires in 10 minutes.</p>
      <form onSubmit={onCode} aria-busy={login.loading}>
        {/* The same input as mfa/OneTimeCodeField; importing that would split it out of the login chunk (bytes before the form). */}
        <Field
          label="Sign-in code"
          name="one-time-code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
        />
        <ErrorAlert message={login.error} />
        <SubmitButton busy={login.loading}>Sign in</SubmitButton>
        <button type="button" className="gh-text-button" disabled={login.loading} onClick={() => void store.passwordlessPreLogin(login.email)}>
          Send a new code
        </button>
        {other}
      </form>
    </div>
  );
}
