import { useEffect } from 'react';
import { AFTER_AUTH_REDIRECT_KEY, REDIRECT_URL_PARAM, getValidRedirectUrl } from '@gatehouse/shared';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { EnrollAuthenticatorStep } from './EnrollAuthenticatorStep';
import { MfaEmailCodeStep } from './MfaEmailCodeStep';
import { factorPart } from './MfaLoginScreen';
import { MfaVerifyStep } from './MfaVerifyStep';
import { RecoveryCodesStep } from './RecoveryCodesStep';
import { useI18n } from '../../use-i18n';

/** The step-up route's maxAge query parameter in seconds (seed 4.9), if valid. */
export function readMaxAge(search: string): number | undefined {
  const raw = new URLSearchParams(search).get('maxAge');
  if (raw === null || !/^\d{1,9}$/.test(raw)) return undefined;
  return Number(raw);
}

/** Step-up route: proves a second factor for the running session, then returns to the redirect URL. */
export function StepUpScreen() {
  const { store, routes, navigate, options } = useLoginBox();
  const { mfa, user, isLoading } = useAuth(store);
  const { t } = useI18n();
  const signedIn = user !== null;

  useEffect(() => {
    if (isLoading) return;
    if (!signedIn) {
      // Step-up needs a session: sign in first, then come back here.
      navigate(`${routes.loginUrl}?${REDIRECT_URL_PARAM}=${encodeURIComponent(window.location.pathname + window.location.search)}`);
      return;
    }
    const raw = new URLSearchParams(window.location.search).get(REDIRECT_URL_PARAM);
    const allowed = Array.isArray(options.allowedRedirectOrigins) ? options.allowedRedirectOrigins.filter((o): o is string => typeof o === 'string') : [];
    const valid = raw ? getValidRedirectUrl(raw, { currentUrl: window.location.href, allowedOrigins: allowed, enforceSameSite: true }) : null;
    try {
      if (valid) window.sessionStorage.setItem(AFTER_AUTH_REDIRECT_KEY, valid);
    } catch {
      // Storage disabled: the user lands on the authenticated URL.
    }
    void store.startStepUp({ maxAge: readMaxAge(window.location.search) });
  }, [store, signedIn, isLoading, navigate, routes, options]);

  let body;
  if (!signedIn || (mfa.context !== 'stepUp' && !mfa.steppedUp)) body = <p role="status">{t('common.loading')}</p>;
  else if (mfa.steppedUp) body = <p role="status">{t('stepUp.verified')}</p>;
  else if (mfa.step === 'noMFAEnrolledStepUp') {
    body = (
      <>
        <p role="status" tabIndex={-1}>
          {t('stepUp.noMfa')}
        </p>
        {factorPart('enrol')}
      </>
    );
  } else if (mfa.step === 'authenticatorApp') body = <EnrollAuthenticatorStep />;
  else if (mfa.step === 'recoveryCode') body = <RecoveryCodesStep />;
  else if (mfa.step === 'emailVerifyCode') body = <MfaEmailCodeStep />;
  else if (mfa.step === 'smsSetPhoneNumber' || mfa.step === 'smsVerifyCode') body = factorPart('sms');
  else if (mfa.loading && !mfa.mfaToken) body = <p role="status">{t('common.loading')}</p>;
  else body = <MfaVerifyStep />;

  return (
    <>
      <h1>{t('stepUp.title')}</h1>
      {body}
    </>
  );
}
