import { useState, type FormEvent } from 'react';
import { useLoginBox } from '../../../context';
import { useAuth } from '../../../use-auth';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { RouteLink } from '../../../components/RouteLink';
import { SubmitButton } from '../../../components/SubmitButton';
import { useFocusFirst } from '../../../components/use-focus-first';
import { OneTimeCodeField } from '../OneTimeCodeField';
import { PhoneNumberField } from './PhoneNumberField';
import { useI18n } from '../../../use-i18n';

/**
 * MFA steps smsSetPhoneNumber (the number to enrol) and smsVerifyCode (the texted code, for an
 * enrolment or a sign-in / step-up). The typed number stays here, so "Send a new code" can reuse it.
 */
export function SmsSteps() {
  const { store, routes } = useLoginBox();
  const { mfa, login } = useAuth(store);
  const { t } = useI18n();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(false);
  const formRef = useFocusFirst<HTMLFormElement>(mfa.step);
  // A number typed here means an enrolment; otherwise the code proves an enrolled phone.
  const enrolling = phone.trim() !== '';

  if (mfa.step === 'smsSetPhoneNumber') {
    const onSubmit = (event: FormEvent) => {
      event.preventDefault();
      void store.startSmsEnrollment(phone);
    };
    return (
      <form ref={formRef} onSubmit={onSubmit} aria-busy={mfa.loading}>
        <p>{t('mfa.sms.enterNumber')}</p>
        <PhoneNumberField label={t('field.phoneNumber')} value={phone} onChange={setPhone} />
        <ErrorAlert message={mfa.error} />
        <SubmitButton busy={mfa.loading}>{t('common.sendCode')}</SubmitButton>
        <button type="button" className="gh-text-button" onClick={() => store.setMfaStep(mfa.context === 'stepUp' ? 'noMFAEnrolledStepUp' : 'authenticatorApp')}>
          {t('mfa.sms.otherMethod')}
        </button>
      </form>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void store.verifyMfaSmsCode({ code, rememberDevice: remember });
  };
  const resend = () => void (enrolling ? store.startSmsEnrollment(phone) : store.sendMfaSmsCode());
  const signingIn = mfa.context === 'login' && login.step === 'loginWithTwoFactor';

  return (
    <form ref={formRef} onSubmit={onSubmit} aria-busy={mfa.loading}>
      <p role="status" tabIndex={-1}>
        {mfa.phoneNumber ? t('mfa.sms.sentTo', { phone: mfa.phoneNumber }) : t('mfa.sms.sent')}
      </p>
      <OneTimeCodeField label={t('mfa.sms.label')} value={code} onChange={setCode} />
      {signingIn && mfa.allowRememberDevice ? (
        <div className="gh-check">
          <input id="gh-sms-remember" type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
          <label htmlFor="gh-sms-remember">{t('mfa.rememberDevice', { days: mfa.rememberDeviceDays })}</label>
        </div>
      ) : null}
      <ErrorAlert message={mfa.error} />
      <SubmitButton busy={mfa.loading}>{enrolling ? t('mfa.verifyAndEnable') : t('mfa.verify')}</SubmitButton>
      <button type="button" className="gh-text-button" onClick={resend} disabled={mfa.loading}>
        {t('common.sendNewCode')}
      </button>
      {signingIn ? <RouteLink to={routes.resetPhoneNumberUrl}>{t('mfa.lostPhone')}</RouteLink> : null}
      <button type="button" className="gh-text-button" onClick={() => store.setMfaStep(enrolling ? 'smsSetPhoneNumber' : 'verify')}>
        {t('common.back')}
      </button>
    </form>
  );
}
