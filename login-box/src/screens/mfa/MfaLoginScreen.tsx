import { lazy, Suspense } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { EnrollAuthenticatorStep } from './EnrollAuthenticatorStep';
import { MfaEmailCodeStep } from './MfaEmailCodeStep';
import { MfaVerifyStep } from './MfaVerifyStep';
import { RecoverTwoFactorStep } from './RecoverTwoFactorStep';
import { RecoveryCodesStep } from './RecoveryCodesStep';
import { useI18n } from '../../use-i18n';

// Its own chunk: only accounts with (or enrolling) an SMS or WebAuthn factor reach it.
const MfaFactorStep = lazy(() => import('./factors/MfaFactorStep'));

/** The SMS / WebAuthn part of an MFA screen, loaded on first use. */
export const factorPart = (part: 'enrol' | 'sms') => (
  <Suspense fallback={<Loading />}>
    <MfaFactorStep part={part} />
  </Suspense>
);

function Loading() {
  const { t } = useI18n();
  return <p role="status">{t('common.loading')}</p>;
}

/** The MFA part of sign-in: login steps loginWithTwoFactor, recoverTwoFactor and forceTwoFactor. */
export function MfaLoginScreen() {
  const { store } = useLoginBox();
  const { login, mfa } = useAuth(store);
  const { t } = useI18n();

  let body;
  if (mfa.step === 'recoveryCode') body = <RecoveryCodesStep />;
  else if (login.step === 'recoverTwoFactor') body = <RecoverTwoFactorStep />;
  else if (mfa.step === 'smsSetPhoneNumber' || mfa.step === 'smsVerifyCode') body = factorPart('sms');
  // A choice (until the app's QR code is there) only when the config allows more than the app at sign-in.
  else if (login.step === 'forceTwoFactor') body = !mfa.secret && mfa.mfaStrategies.some((s) => s.isActive && /^(SMS|WebAuthn)/.test(s.strategy)) ? factorPart('enrol') : <EnrollAuthenticatorStep />;
  else if (mfa.step === 'emailVerifyCode') body = <MfaEmailCodeStep />;
  else body = <MfaVerifyStep onBack={() => store.resetLogin()} />;

  const title = login.step === 'forceTwoFactor' || mfa.step === 'recoveryCode' ? t('mfa.setUpTitle') : t('mfa.title');
  return (
    <>
      <h1>{title}</h1>
      {login.step === 'forceTwoFactor' && mfa.step !== 'recoveryCode' ? <p>{t('mfa.required', { email: login.email })}</p> : null}
      {body}
    </>
  );
}
