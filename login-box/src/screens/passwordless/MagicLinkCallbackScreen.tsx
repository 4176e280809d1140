import { useEffect } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RouteLink } from '../../components/RouteLink';

/**
 * The magic-link callback route (magicLinkCallbackUrl, seed 000 section 2.1): signs in with the
 * link's token, shows magicLinkPostLoginSuccess for 5 s (seed 4.2), then the store navigates.
 * Loaded lazily: only passwordless strategies ever land here.
 */
export default function MagicLinkCallbackScreen() {
  const { store, routes } = useLoginBox();
  const { login } = useAuth(store);

  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get('token') ?? '';
    void store.magicLinkPostLogin(token);
  }, [store]);

  if (login.step === 'magicLinkPostLoginSuccess') {
    return (
      <>
        <h1>You&apos;re signed in</h1>
        <p role="status">Signed in with your magic link, redirecting...</p>
      </>
    );
  }
  const missing = !new URLSearchParams(window.location.search).get('token');
  const error = login.error ?? (missing ? 'The sign-in link is invalid or has expired' : null);
  return (
    <>
      <h1>Signing you in</h1>
      {error ? (
        <>
          <ErrorAlert message={error} />
          <RouteLink to={routes.loginUrl}>Back to sign in</RouteLink>
        </>
      ) : (
        <p role="status">Checking your sign-in link...</p>
      )}
    </>
  );
}
