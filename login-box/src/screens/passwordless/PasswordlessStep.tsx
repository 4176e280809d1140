import { useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useI18n } from '../../use-i18n';
import { SubmitButton } from '../../components/SubmitButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFocusFirst } from '../../components/use-focus-first';
import { useFieldErrors } from '../../components/use-field-errors';
import { Field } from '../../components/Field';

/**
 * The passwordless steps after preLogin (seed 000 section 2.2): magicLinkPreLoginSuccess ("check your
 * email") and loginWithOtc (the emailed code). Loaded lazily: only passwordless strategies need it.
 */
export default function PasswordlessStep() {
  const { store } = useLoginBox();
  const { login } = useAuth(store);
  const { t } = useI18n();
  const [code, setCode] = useState('');
  const ref = useFocusFirst<HTMLDivElement>(login.step);
  const { errors, show, clear } = useFieldErrors(ref);

  const onCode = (event: FormEvent) => {
    event.preventDefault();
    if (login.loading) return;
    if (show({ 'one-time-code': /^\d{6}$/.test(code) ? undefined : t('errors.field.code.invalid') })) void store.loginWithOtc(code);
  };
  const other = (
    <button type="button" className="gh-text-button" onClick={() => store.resetLogin()}>
      {t('common.differentAccount')}
    </button>
  );

  if (login.step === 'magicLinkPreLoginSuccess') {
    return (
      <div ref={ref}>
        <h1>{t('passwordless.link.title')}</h1>
        <p role="status">{t('passwordless.link.text', { email: login.email })}</p>
        {other}
      </div>
    );
  }

  return (
    <div ref={ref}>
      <h1>{t('passwordless.code.title')}</h1>
      <p>{t('passwordless.code.text', { email: login.email })}</p>
      <form onSubmit={onCode} noValidate aria-busy={login.loading}>
        {/* The same input as mfa/OneTimeCodeField; importing that would split it out of the login chunk (bytes before the form). */}
        <Field
          label={t('passwordless.code.label')}
          name="one-time-code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          value={code}
          error={errors['one-time-code']}
          onChange={(e) => {
            setCode(e.target.value.replace(/\D/g, '').slice(0, 6));
            clear('one-time-code');
          }}
        />
        <ErrorAlert message={login.error} code={login.errorCode} />
        <SubmitButton busy={login.loading}>{t('login.submit')}</SubmitButton>
        <button type="button" className="gh-text-button" disabled={login.loading} onClick={() => void store.passwordlessPreLogin(login.email)}>
          {t('common.sendNewCode')}
        </button>
        {other}
      </form>
    </div>
  );
}
