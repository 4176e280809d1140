import { useEffect, useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { Field } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RouteLink } from '../../components/RouteLink';
import { useFocusFirst } from '../../components/use-focus-first';
import { NewPasswordForm } from './NewPasswordForm';

/**
 * Forgot password (seed 4.6, forgetPasswordUrl): forgotPassword -> passwordRecoverySelector (email and
 * SMS both active) -> forgotPasswordEmailSuccess, or resetPasswordViaSms -> resetPasswordPage ->
 * resetPasswordSuccess.
 */
export function ForgotPasswordScreen() {
  const { store, routes } = useLoginBox();
  const { forgotPassword: fp, login } = useAuth(store);
  const [identifier, setIdentifier] = useState(fp.identifier || login.email);
  const [code, setCode] = useState('');
  const ref = useFocusFirst<HTMLDivElement>(fp.step);

  useEffect(() => {
    // Coming back to this page starts over (the typed identifier is kept).
    store.resetForgotPassword();
  }, [store]);

  const onIdentifier = (event: FormEvent) => {
    event.preventDefault();
    if (!fp.loading) void store.startPasswordRecovery(identifier);
  };
  const onCode = (event: FormEvent) => {
    event.preventDefault();
    if (!fp.loading) void store.verifyPasswordViaSms(code);
  };
  const back = (
    <button type="button" className="gh-text-button" onClick={() => store.resetForgotPassword()}>
      Back
    </button>
  );

  let title = 'Forgot password?';
  let body;
  switch (fp.step) {
    case 'passwordRecoverySelector':
      body = (
        <div role="group" aria-labelledby="gh-recovery-choice">
          <p id="gh-recovery-choice">How do you want to reset the password of {fp.identifier}?</p>
          <ErrorAlert message={fp.error} />
          <button type="button" className="gh-button" disabled={fp.loading} onClick={() => void store.sendRecoveryEmail()}>
            Email me a reset link
          </button>
          <button type="button" className="gh-button gh-secondary" disabled={fp.loading} onClick={() => void store.sendRecoverySms()}>
            Text me a code
          </button>
          {back}
        </div>
      );
      break;
    case 'forgotPasswordEmailSuccess':
      title = 'Check your email';
      body = (
        <p role="status" tabIndex={-1}>
          If an account exists for {fp.identifier}, we sent it a link to reset the password. The link works once and expires soon.
        </p>
      );
      break;
    case 'resetPasswordViaSms':
      body = (
        <form onSubmit={onCode} aria-busy={fp.loading}>
          <p>If the account has a phone number, we texted it a 6-digit code.</p>
          <Field
            label="Code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
          />
          <ErrorAlert message={fp.error} />
          <SubmitButton busy={fp.loading}>Verify code</SubmitButton>
          <button type="button" className="gh-text-button" disabled={fp.loading} onClick={() => void store.sendRecoverySms()}>
            Send a new code
          </button>
          {back}
        </form>
      );
      break;
    case 'resetPasswordPage':
      title = 'Reset password';
      body = <NewPasswordForm busy={fp.loading} error={fp.error} onSubmit={(password) => void store.resetPassword({ userId: fp.userId ?? '', token: fp.token ?? '', password })} />;
      break;
    case 'resetPasswordSuccess':
      title = 'Reset password';
      body = (
        <p role="status" tabIndex={-1}>
          Your password has been reset. Sign in with your new password.
        </p>
      );
      break;
    default:
      body = (
        <form onSubmit={onIdentifier} aria-busy={fp.loading}>
          <p>Enter the email of your account and we will help you choose a new password.</p>
          <Field label="Email" type="email" name="email" autoComplete="username" required value={identifier} onChange={(e) => setIdentifier(e.target.value)} />
          <ErrorAlert message={fp.error} />
          <SubmitButton busy={fp.loading}>Reset password</SubmitButton>
        </form>
      );
  }

  return (
    <div ref={ref}>
      <h1>{title}</h1>
      {body}
      <p className="gh-footer">
        <RouteLink to={routes.loginUrl}>Back to sign in</RouteLink>
      </p>
    </div>
  );
}
