import { lazy, Suspense, useEffect } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RouteLink } from '../../components/RouteLink';
import { useI18n } from '../../use-i18n';
import { useTenantChoice } from '../tenants/use-tenant-choice';

// Only when the tenant choice applies after sign-in (authOptions.chooseTenantAfterLogin).
const SignedInStep = lazy(() => import('../SignedInStep'));

/**
 * The social-login callback route (socialLoginCallbackUrl, seed 000 section 2.1): the provider sends
 * the browser here with its code and state; the store posts them and signs in (or asks for MFA on the
 * login route). A failure shows loginWithSSOFailed, then the app goes on after 1 s (seed 4.2).
 * Loaded lazily: only social sign-ins land here.
 */
export function SocialLoginCallbackScreen() {
  const { store, routes } = useLoginBox();
  const { login, social } = useAuth(store);
  const { t } = useI18n();
  const choose = useTenantChoice();

  useEffect(() => {
    void store.socialLoginPostLogin(window.location.search);
  }, [store]);

  if (login.step === 'loginWithSSOFailed') {
    return (
      <>
        <h1>{t('social.failed')}</h1>
        <ErrorAlert message={login.error ?? 'Failed to authenticate'} code={login.errorCode} />
        <p role="status">{t('social.takingBack')}</p>
        <RouteLink to={routes.loginUrl}>{t('common.backToSignIn')}</RouteLink>
      </>
    );
  }
  if (login.step === 'success' && choose) {
    return (
      <Suspense fallback={<p role="status">{t('common.loading')}</p>}>
        <SignedInStep />
      </Suspense>
    );
  }
  if (login.step === 'success') {
    const result = social?.result;
    return (
      <>
        <h1>{result?.isNewUser ? t('social.welcome') : t('magicLink.success.title')}</h1>
        <p role="status">{result?.isNewUser ? t('social.newAccount', { email: result.email }) : t('login.signedIn')}</p>
      </>
    );
  }
  return (
    <>
      <h1>{t('magicLink.title')}</h1>
      <p role="status" aria-busy="true">
        {t('social.finishing')}
      </p>
    </>
  );
}
