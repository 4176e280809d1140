import { useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { SubmitButton } from '../../components/SubmitButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFocusFirst } from '../../components/use-focus-first';
import { Field } from '../../components/Field';
import { useI18n } from '../../use-i18n';

/**
 * The SMS code steps (seed 000 section 2.2): loginWithSmsOtc (SMS login strategies) and
 * loginWithQuickSmsOtc (registerQuickLogin: the code that finishes a phone sign-up). Says where the
 * code went, takes it, resends it, or goes back. Loaded lazily: only SMS strategies and phone
 * sign-up reach it.
 */
export default function SmsOtcStep() {
  const { store, routes, navigate } = useLoginBox();
  const { login } = useAuth(store);
  const { t } = useI18n();
  const [code, setCode] = useState('');
  const [resent, setResent] = useState(false);
  const ref = useFocusFirst<HTMLDivElement>(login.step);
  const quick = login.step === 'loginWithQuickSmsOtc';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!login.loading) void store.loginWithSmsOtc(code);
  };
  const resend = async () => {
    setResent(false);
    setCode('');
    await store.smsPreLogin(login.email, { mode: login.mode });
    if (!store.getSnapshot().login.error) setResent(true);
  };
  const back = () => {
    store.resetLogin();
    if (quick) navigate(routes.signUpUrl);
  };
  const number = login.phoneNumber;

  return (
    <div ref={ref}>
      <h1>{quick ? t('sms.verifyTitle') : t('sms.checkTitle')}</h1>
      {quick ? (
        <p>{login.phoneNumber ? t('sms.quickSentTo', { phone: login.phoneNumber }) : t('sms.quickSent')}</p>
      ) : number ? (
        <p>{t('sms.sentToNumber', { phone: login.phoneNumber ?? '' })}</p>
      ) : (
        <p>{t('sms.sentToAccount', { identifier: login.email })}</p>
      )}
      <form onSubmit={onSubmit} aria-busy={login.loading}>
        <Field
          label={t('sms.label')}
          name="one-time-code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
        />
        <ErrorAlert message={login.error} />
        {resent && !login.error ? (
          <p role="status" className="gh-hint">
            {t('sms.resent')}
          </p>
        ) : null}
        <SubmitButton busy={login.loading}>{quick ? t('sms.verifyAndSignIn') : t('login.submit')}</SubmitButton>
        <button type="button" className="gh-text-button" disabled={login.loading} onClick={() => void resend()}>
          {t('sms.resend')}
        </button>
        <button type="button" className="gh-text-button" onClick={back}>
          {quick ? t('sms.backToSignUp') : t('common.differentAccount')}
        </button>
      </form>
    </div>
  );
}
