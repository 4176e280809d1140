import { useEffect } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useI18n } from '../../use-i18n';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RouteLink } from '../../components/RouteLink';
import { SuccessState } from '../../components/SuccessState';

/**
 * The magic-link callback route (magicLinkCallbackUrl, seed 000 section 2.1): signs in with the
 * link's token, shows magicLinkPostLoginSuccess for 5 s (seed 4.2) with Continue to go at once, then
 * the store navigates. Loaded lazily: only passwordless strategies ever land here.
 */
export default function MagicLinkCallbackScreen() {
  const { store, routes } = useLoginBox();
  const { login } = useAuth(store);
  const { t } = useI18n();

  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get('token') ?? '';
    void store.magicLinkPostLogin(token);
  }, [store]);

  if (login.step === 'magicLinkPostLoginSuccess') {
    return (
      <>
        <h1>{t('magicLink.success.title')}</h1>
        <SuccessState next={t('magicLink.success.next')}>{t('magicLink.success.text')}</SuccessState>
      </>
    );
  }
  const missing = !new URLSearchParams(window.location.search).get('token');
  const error = login.error ?? (missing ? 'The sign-in link is invalid or has expired' : null);
  return (
    <>
      <h1>{t('magicLink.title')}</h1>
      {error ? (
        <>
          <ErrorAlert message={error} code={login.errorCode} />
          <RouteLink to={routes.loginUrl}>{t('common.backToSignIn')}</RouteLink>
        </>
      ) : (
        <p role="status">{t('magicLink.checking')}</p>
      )}
    </>
  );
}
