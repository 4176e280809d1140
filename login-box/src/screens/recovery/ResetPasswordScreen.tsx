import { useEffect } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useLocation } from '../../use-location';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RouteLink } from '../../components/RouteLink';
import { useFocusFirst } from '../../components/use-focus-first';
import { NewPasswordForm } from './NewPasswordForm';

const INCOMPLETE_LINK = 'This password reset link is incomplete. Request a new one.';

/** The emailed link's page (resetPasswordUrl): resetPasswordPage, then resetPasswordSuccess. */
export function ResetPasswordScreen() {
  const { store, routes } = useLoginBox();
  const { forgotPassword: fp } = useAuth(store);
  const { search } = useLocation();
  const userId = search.get('userId') ?? '';
  const token = search.get('token') ?? '';
  const done = fp.step === 'resetPasswordSuccess';
  const ref = useFocusFirst<HTMLDivElement>(done);

  useEffect(() => {
    // A fresh page for every link: nothing left over from an earlier attempt.
    store.resetForgotPassword();
  }, [store, userId, token]);

  let body;
  if (done) {
    body = (
      <>
        <p role="status" tabIndex={-1}>
          Your password has been reset. Sign in with your new password.
        </p>
        <p className="gh-footer">
          <RouteLink to={routes.loginUrl}>Sign in</RouteLink>
        </p>
      </>
    );
  } else if (!userId || !token) {
    body = <ErrorAlert message={INCOMPLETE_LINK} />;
  } else {
    body = <NewPasswordForm busy={fp.loading} error={fp.error} onSubmit={(password) => void store.resetPassword({ userId, token, password })} />;
  }

  return (
    <div ref={ref}>
      <h1>Reset password</h1>
      {body}
      {done ? null : (
        <p className="gh-footer">
          Link expired? <RouteLink to={routes.forgetPasswordUrl}>Request a new one</RouteLink>
        </p>
      )}
    </div>
  );
}
