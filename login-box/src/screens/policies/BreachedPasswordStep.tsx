import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFocusFirst } from '../../components/use-focus-first';

/** breachedPassword -> breachedPasswordSuccess: the password is on a breach list; a reset link sets a new one. */
export function BreachedPasswordStep() {
  const { store } = useLoginBox();
  const { login } = useAuth(store);
  const ref = useFocusFirst<HTMLDivElement>(login.step);
  if (login.step === 'breachedPasswordSuccess') {
    return (
      <div ref={ref}>
        <h1>Check your email</h1>
        <p role="status" tabIndex={-1}>
          We sent a link to {login.email}. Open it to choose a new password, then sign in with it.
        </p>
      </div>
    );
  }
  return (
    <div ref={ref}>
      <h1>Your password needs to be changed</h1>
      <p>This password has appeared in a known data breach, so it is no longer safe to use. We will email you a link to choose a new one.</p>
      <ErrorAlert message={login.error} />
      <button type="button" className="gh-button" disabled={login.loading} onClick={() => void store.sendBreachedPasswordReset()}>
        Email me a link
      </button>
      <button type="button" className="gh-text-button" onClick={() => store.resetLogin()}>
        Back to sign in
      </button>
    </div>
  );
}
