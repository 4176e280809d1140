import { useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { SubmitButton } from '../../components/SubmitButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFocusFirst } from '../../components/use-focus-first';
import { Field } from '../../components/Field';

/**
 * The SMS code steps (seed 000 section 2.2): loginWithSmsOtc (SMS login strategies) and
 * loginWithQuickSmsOtc (registerQuickLogin: the code that finishes a phone sign-up). Says where the
 * code went, takes it, resends it, or goes back. Loaded lazily: only SMS strategies and phone
 * sign-up reach it.
 */
export default function SmsOtcStep() {
  const { store, routes, navigate } = useLoginBox();
  const { login } = useAuth(store);
  const [code, setCode] = useState('');
  const [resent, setResent] = useState(false);
  const ref = useFocusFirst<HTMLDivElement>(login.step);
  const quick = login.step === 'loginWithQuickSmsOtc';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!login.loading) void store.loginWithSmsOtc(code);
  };
  const resend = async () => {
    setResent(false);
    setCode('');
    await store.smsPreLogin(login.email, { mode: login.mode });
    if (!store.getSnapshot().login.error) setResent(true);
  };
  const back = () => {
    store.resetLogin();
    if (quick) navigate(routes.signUpUrl);
  };
  const number = login.phoneNumber ? <strong className="gh-mono">{login.phoneNumber}</strong> : null;

  return (
    <div ref={ref}>
      <h1>{quick ? 'Verify your phone number' : 'Check your phone'}</h1>
      {quick ? (
        <p>We texted a 6-digit code to {number ?? 'your phone'}. Enter it to confirm the number and finish signing up. It expires in 5 minutes.</p>
      ) : number ? (
        <p>If {number} belongs to an account, we texted it a 6-digit code. It expires in 5 minutes.</p>
      ) : (
        <p>
          If <strong>{login.email}</strong> has an account with a verified phone number, we texted a 6-digit code to that number. It expires in 5 minutes.
        </p>
      )}
      <form onSubmit={onSubmit} aria-busy={login.loading}>
        <Field
          label="SMS code"
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
        {resent && !login.error ? (
          <p role="status" className="gh-hint">
            A new code is on its way; the previous one no longer works.
          </p>
        ) : null}
        <SubmitButton busy={login.loading}>{quick ? 'Verify and sign in' : 'Sign in'}</SubmitButton>
        <button type="button" className="gh-text-button" disabled={login.loading} onClick={() => void resend()}>
          Text me a new code
        </button>
        <button type="button" className="gh-text-button" onClick={back}>
          {quick ? 'Back to sign up' : 'Use a different account'}
        </button>
      </form>
    </div>
  );
}
