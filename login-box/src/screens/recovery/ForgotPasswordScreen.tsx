import { useEffect, useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useI18n } from '../../use-i18n';
import { Field } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RouteLink } from '../../components/RouteLink';
import { useFocusFirst } from '../../components/use-focus-first';
import { isEmail, useFieldErrors } from '../../components/use-field-errors';
import { NewPasswordForm } from './NewPasswordForm';
import { ResetSuccess } from './ResetSuccess';

/**
 * Forgot password (seed 4.6, forgetPasswordUrl): forgotPassword -> passwordRecoverySelector (email and
 * SMS both active) -> forgotPasswordEmailSuccess, or resetPasswordViaSms -> resetPasswordPage ->
 * resetPasswordSuccess.
 */
export function ForgotPasswordScreen() {
  const { store, routes } = useLoginBox();
  const { forgotPassword: fp, login } = useAuth(store);
  const i18n = useI18n();
  const { t } = i18n;
  const [identifier, setIdentifier] = useState(fp.identifier || login.email);
  const [code, setCode] = useState('');
  const ref = useFocusFirst<HTMLDivElement>(fp.step);
  const { errors, show, clear } = useFieldErrors(ref);

  useEffect(() => {
    // Coming back to this page starts over (the typed identifier is kept).
    store.resetForgotPassword();
  }, [store]);

  const onIdentifier = (event: FormEvent) => {
    event.preventDefault();
    if (fp.loading) return;
    const value = identifier.trim();
    // A username or phone number is a valid identifier too (v2 recovery); only a typed email is checked.
    if (show({ email: !value ? t('errors.field.email.required') : value.includes('@') && !isEmail(value) ? t('errors.field.email.invalid') : undefined })) void store.startPasswordRecovery(value);
  };
  const onCode = (event: FormEvent) => {
    event.preventDefault();
    if (fp.loading) return;
    if (show({ code: /^\d{6}$/.test(code) ? undefined : t('errors.field.code.invalid') })) void store.verifyPasswordViaSms(code);
  };
  const back = (
    <button type="button" className="gh-text-button" onClick={() => store.resetForgotPassword()}>
      {t('common.back')}
    </button>
  );

  let title = t('forgot.title');
  // One way back per step: the chooser and the code step go back to the email; the others to sign in.
  let footer = true;
  let body;
  switch (fp.step) {
    case 'passwordRecoverySelector':
      footer = false;
      body = (
        <div role="group" aria-labelledby="gh-recovery-choice" className="gh-stack">
          <p id="gh-recovery-choice">{t('forgot.choose', { identifier: fp.identifier })}</p>
          <ErrorAlert message={fp.error} code={fp.errorCode} />
          <div className="gh-choices">
            <button type="button" className="gh-button gh-secondary" disabled={fp.loading} onClick={() => void store.sendRecoveryEmail()}>
              {t('forgot.byEmail')}
            </button>
            <button type="button" className="gh-button gh-secondary" disabled={fp.loading} onClick={() => void store.sendRecoverySms()}>
              {t('forgot.bySms')}
            </button>
          </div>
          {back}
        </div>
      );
      break;
    case 'forgotPasswordEmailSuccess':
      title = t('forgot.emailSent.title');
      body = (
        <p role="status" tabIndex={-1}>
          {t('forgot.emailSent.text', { identifier: fp.identifier })}
        </p>
      );
      break;
    case 'resetPasswordViaSms':
      footer = false;
      body = (
        <form onSubmit={onCode} noValidate aria-busy={fp.loading}>
          <p>{t('forgot.smsSent')}</p>
          <Field
            label={t('field.code')}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            value={code}
            error={errors.code}
            onChange={(e) => {
              setCode(e.target.value.replace(/\D/g, ''));
              clear('code');
            }}
          />
          <ErrorAlert message={fp.error} code={fp.errorCode} />
          <SubmitButton busy={fp.loading}>{t('forgot.verifyCode')}</SubmitButton>
          <button type="button" className="gh-text-button" disabled={fp.loading} onClick={() => void store.sendRecoverySms()}>
            {t('common.sendNewCode')}
          </button>
          {back}
        </form>
      );
      break;
    case 'resetPasswordPage':
      title = t('reset.title');
      body = <NewPasswordForm busy={fp.loading} error={fp.error} errorCode={fp.errorCode} userInputs={[fp.identifier]} onSubmit={(password) => void store.resetPassword({ userId: fp.userId ?? '', token: fp.token ?? '', password })} />;
      break;
    case 'resetPasswordSuccess':
      title = t('reset.success.title');
      footer = false;
      body = <ResetSuccess />;
      break;
    default:
      body = (
        <form onSubmit={onIdentifier} noValidate aria-busy={fp.loading}>
          <p>{t('forgot.intro')}</p>
          <Field
            label={t('field.email')}
            type="email"
            name="email"
            autoComplete="username"
            inputMode="email"
            required
            value={identifier}
            error={errors.email}
            onChange={(e) => {
              setIdentifier(e.target.value);
              clear('email');
            }}
          />
          <ErrorAlert message={fp.error} code={fp.errorCode} />
          <SubmitButton busy={fp.loading}>{t('forgot.submit')}</SubmitButton>
        </form>
      );
  }

  return (
    <div ref={ref}>
      <h1>{title}</h1>
      {body}
      {footer ? (
        <p className="gh-footer">
          <RouteLink to={routes.loginUrl}>{t('common.backToSignIn')}</RouteLink>
        </p>
      ) : null}
    </div>
  );
}
