import { useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SubmitButton } from '../../components/SubmitButton';
import { useFocusFirst } from '../../components/use-focus-first';
import { OneTimeCodeField } from './OneTimeCodeField';
import { useI18n } from '../../use-i18n';

/** MFA step `emailVerifyCode`: the code just emailed (pre-verify done). */
export function MfaEmailCodeStep() {
  const { store } = useLoginBox();
  const { mfa } = useAuth(store);
  const { t } = useI18n();
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(false);
  const formRef = useFocusFirst<HTMLFormElement>('emailVerifyCode');
  const to = mfa.mfaDevices?.emails[0]?.email;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void store.verifyMfaEmailCode({ code, rememberDevice: remember });
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} aria-busy={mfa.loading}>
      <p role="status">{to ? t('mfa.email.sentTo', { email: to }) : t('mfa.email.sent')}</p>
      <OneTimeCodeField label={t('mfa.email.label')} value={code} onChange={setCode} />
      {mfa.context === 'login' && mfa.allowRememberDevice ? (
        <div className="gh-check">
          <input id="gh-mfa-email-remember" type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
          <label htmlFor="gh-mfa-email-remember">{t('mfa.rememberDevice', { days: mfa.rememberDeviceDays })}</label>
        </div>
      ) : null}
      <ErrorAlert message={mfa.error} />
      <SubmitButton busy={mfa.loading}>{t('mfa.verify')}</SubmitButton>
      <button type="button" className="gh-text-button" onClick={() => void store.sendMfaEmailCode()} disabled={mfa.loading}>
        {t('common.sendNewCode')}
      </button>
      <button type="button" className="gh-text-button" onClick={() => store.setMfaStep('verify')}>
        {t('common.back')}
      </button>
    </form>
  );
}
