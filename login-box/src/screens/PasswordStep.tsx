import { useState, type FormEvent } from 'react';
import { ErrorCodes } from '@gatehouse/shared';
import { useLoginBox } from '../context';
import { useAuth } from '../use-auth';
import { useI18n } from '../use-i18n';
import { Field } from '../components/Field';
import { PasswordField } from '../components/PasswordField';
import { SubmitButton } from '../components/SubmitButton';
import { ErrorAlert } from '../components/ErrorAlert';
import { RouteLink } from '../components/RouteLink';
import { useFocusFirst } from '../components/use-focus-first';
import { useFieldErrors, useFocusServerField } from '../components/use-field-errors';
import { describeError } from '../components/server-errors';
import { UnverifiedNotice } from './UnverifiedNotice';
import { offerPasswordAfterLogin } from './offer-password';

/**
 * The sign-in form's second step: the identifier the first step took (read-only), then the password.
 * A chunk of its own (LoginScreen loads it on Continue, beside preLogin): the first paint is the
 * identifier step alone (login bytes budget, bench/budgets.test.ts).
 */
export default function PasswordStep({ byPhone, byUsername }: { byPhone: boolean; byUsername: boolean }) {
  const { store, routes } = useLoginBox();
  const { login } = useAuth(store);
  const i18n = useI18n();
  const { t } = i18n;
  const [password, setPassword] = useState('');
  const formRef = useFocusFirst<HTMLFormElement>(login.step);
  const { errors, show, clear } = useFieldErrors(formRef);
  const unverified = login.errorCode === ErrorCodes.userNotVerified;
  const server = unverified ? null : describeError(i18n, login.error, login.errorCode, ['email', 'password']);
  useFocusServerField(formRef, server?.field, login.error);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (login.loading) return;
    if (!show({ password: password ? undefined : t('errors.field.password.required') })) return;
    const email = login.email;
    void store.login({ email, password }).then(() => offerPasswordAfterLogin(store, email, password));
  };

  return (
    <>
      <h1>{t('login.title')}</h1>
      <form ref={formRef} onSubmit={onSubmit} noValidate aria-busy={login.loading}>
        <Field
          label={t(byPhone ? 'field.phoneNumber' : byUsername ? 'field.username' : 'field.email')}
          type={byPhone ? 'tel' : byUsername ? 'text' : 'email'}
          name={byPhone ? 'phoneNumber' : byUsername ? 'username' : 'email'}
          autoComplete={byPhone ? 'tel' : 'username'}
          inputMode={byPhone ? 'tel' : byUsername ? undefined : 'email'}
          required
          readOnly
          value={login.email}
          error={server?.field === 'email' ? server.text : null}
        />
        <PasswordField
          label={t('field.password')}
          name="password"
          autoComplete="current-password"
          required
          value={password}
          error={errors.password ?? (server?.field === 'password' ? server.text : null)}
          onChange={(value) => {
            setPassword(value);
            clear('password');
          }}
        />
        {unverified ? <UnverifiedNotice email={login.email} /> : server && !server.field ? <ErrorAlert message={login.error} code={login.errorCode} /> : null}
        <SubmitButton busy={login.loading}>{t('login.submit')}</SubmitButton>
        <div className="gh-row">
          <RouteLink to={routes.forgetPasswordUrl}>{t('login.forgotPassword')}</RouteLink>
          <button type="button" className="gh-text-button" onClick={() => store.resetLogin()}>
            {t(byPhone ? 'login.differentAccount' : 'login.differentEmail')}
          </button>
        </div>
      </form>
    </>
  );
}
