import { useEffect } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RouteLink } from '../../components/RouteLink';

/**
 * The social-login callback route (socialLoginCallbackUrl, seed 000 section 2.1): the provider sends
 * the browser here with its code and state; the store posts them and signs in (or asks for MFA on the
 * login route). A failure shows loginWithSSOFailed, then the app goes on after 1 s (seed 4.2).
 * Loaded lazily: only social sign-ins land here.
 */
export function SocialLoginCallbackScreen() {
  const { store, routes } = useLoginBox();
  const { login, social } = useAuth(store);

  useEffect(() => {
    void store.socialLoginPostLogin(window.location.search);
  }, [store]);

  if (login.step === 'loginWithSSOFailed') {
    return (
      <>
        <h1>Sign-in failed</h1>
        <ErrorAlert message={login.error ?? 'Failed to authenticate'} />
        <p role="status">Taking you back...</p>
        <RouteLink to={routes.loginUrl}>Back to sign in</RouteLink>
      </>
    );
  }
  if (login.step === 'success') {
    const result = social?.result;
    return (
      <>
        <h1>{result?.isNewUser ? 'Welcome' : "You're signed in"}</h1>
        <p role="status">{result?.isNewUser ? `Your account for ${result.email} is ready, redirecting...` : 'Signed in, redirecting...'}</p>
      </>
    );
  }
  return (
    <>
      <h1>Signing you in</h1>
      <p role="status" aria-busy="true">
        Finishing your sign-in...
      </p>
    </>
  );
}
