import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useFocusFirst } from '../../components/use-focus-first';
import { NewPasswordForm } from '../recovery/NewPasswordForm';

/** passwordRotationExpired: no session yet; a new password is set with the sign-in's reset token, then it signs in. */
export function PasswordRotationExpiredStep() {
  const { store } = useLoginBox();
  const { login } = useAuth(store);
  const ref = useFocusFirst<HTMLDivElement>(login.step);
  return (
    <div ref={ref}>
      <h1>Your password has expired</h1>
      <p>Your organization asks you to change your password regularly. Choose a new one to continue.</p>
      <NewPasswordForm busy={login.loading} error={login.error} onSubmit={(password) => void store.setRotatedPassword(password)} />
      <button type="button" className="gh-text-button" onClick={() => store.resetLogin()}>
        Back to sign in
      </button>
    </div>
  );
}
