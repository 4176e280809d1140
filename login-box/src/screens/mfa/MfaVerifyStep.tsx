import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SubmitButton } from '../../components/SubmitButton';
import { useFocusFirst } from '../../components/use-focus-first';
import { OneTimeCodeField } from './OneTimeCodeField';
import { useI18n } from '../../use-i18n';

const MfaFactorStep = lazy(() => import('./factors/MfaFactorStep'));

/** MFA step `verify`: the authenticator-app code, with the other ways out the account has. */
export function MfaVerifyStep({ onBack }: { onBack?: () => void }) {
  const { store } = useLoginBox();
  const { mfa } = useAuth(store);
  const { t } = useI18n();
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(false);
  const formRef = useFocusFirst<HTMLFormElement>('verify');
  // Without a device list (older servers), assume the authenticator app.
  const hasApp = !mfa.mfaDevices || mfa.mfaDevices.authenticators.length > 0;
  const hasEmail = (mfa.mfaDevices?.emails.length ?? 0) > 0;
  const hasOther = (mfa.mfaDevices?.phones.length ?? 0) + (mfa.mfaDevices?.webauthn.length ?? 0) > 0;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void store.verifyMfa({ code, rememberDevice: remember });
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} aria-busy={mfa.loading}>
      {hasApp ? (
        <>
          <p id="gh-mfa-verify-help">{t('mfa.verify.help')}</p>
          <OneTimeCodeField label={t('mfa.verify.label')} value={code} onChange={setCode} />
          {mfa.context === 'login' && mfa.allowRememberDevice ? (
            <div className="gh-check">
              <input id="gh-mfa-remember" type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
              <label htmlFor="gh-mfa-remember">{t('mfa.rememberDevice', { days: mfa.rememberDeviceDays })}</label>
            </div>
          ) : null}
          <ErrorAlert message={mfa.error} />
          <SubmitButton busy={mfa.loading}>{t('mfa.verify')}</SubmitButton>
        </>
      ) : (
        <ErrorAlert message={mfa.error} />
      )}
      {hasOther ? (
        <Suspense fallback={null}>
          <MfaFactorStep part="others" primary={!hasApp} />
        </Suspense>
      ) : null}
      {hasEmail ? (
        <button type="button" className={hasApp ? 'gh-text-button' : 'gh-button'} onClick={() => void store.sendMfaEmailCode()} disabled={mfa.loading}>
          {t('mfa.emailInstead')}
        </button>
      ) : null}
      {mfa.context === 'login' ? (
        <button type="button" className="gh-text-button" onClick={() => store.setLoginMfaStep('recoverTwoFactor')}>
          {t('mfa.useRecoveryCode')}
        </button>
      ) : null}
      {onBack ? (
        <button type="button" className="gh-text-button" onClick={onBack}>
          {t('common.back')}
        </button>
      ) : null}
    </form>
  );
}
