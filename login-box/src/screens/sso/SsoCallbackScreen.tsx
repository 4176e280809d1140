import { lazy, Suspense, useEffect } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useI18n } from '../../use-i18n';
import { useTenantChoice } from '../tenants/use-tenant-choice';

// Only when the tenant choice applies after sign-in (authOptions.chooseTenantAfterLogin).
const SignedInStep = lazy(() => import('../SignedInStep'));

/**
 * The samlCallbackUrl and oidcRedirectUrl routes (seed 000 section 2.1): the identity provider sends
 * the browser back here, the store finishes the SSO sign-in, and on failure loginWithSSOFailed shows
 * ('Failed to authenticate') until the authenticated URL follows after 1 s (seed 4.2). An admin's
 * connection test answered on the OIDC route shows 'Test complete — you can close this window'. Loaded
 * lazily: only SSO sign-ins land here.
 */
export default function SsoCallbackScreen({ type }: { type: 'saml' | 'oidc' }) {
  const { store } = useLoginBox();
  const { login } = useAuth(store);
  const { t } = useI18n();
  const choose = useTenantChoice();

  useEffect(() => {
    void store.ssoPostLogin(type, window.location.search);
  }, [store, type]);

  if (login.step === 'success' && choose) {
    return (
      <Suspense fallback={<p role="status">{t('common.loading')}</p>}>
        <SignedInStep />
      </Suspense>
    );
  }

  // An admin's connection test (issue 15) came back here: nobody is signed in, the window has done its job.
  if (login.step === 'ssoTestComplete') {
    return (
      <>
        <h1>{t('sso.testComplete')}</h1>
        <p role="status">{t('sso.testCompleteText')}</p>
      </>
    );
  }

  if (login.step === 'loginWithSSOFailed') {
    return (
      <>
        <h1>{t('sso.failed')}</h1>
        <ErrorAlert message={login.error} code={login.errorCode} />
        <p role="status">{t('common.redirecting')}</p>
      </>
    );
  }
  return (
    <>
      <h1>{t('magicLink.title')}</h1>
      <p role="status">{login.step === 'success' ? t('login.signedIn') : t('sso.completing')}</p>
    </>
  );
}
