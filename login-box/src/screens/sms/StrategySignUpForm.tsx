import { useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { Field } from '../../components/Field';
import { PasswordField } from '../../components/PasswordField';
import { usePasswordPolicy } from '../../components/use-password-policy';
import { isEmail, useFieldErrors, useFocusServerField } from '../../components/use-field-errors';
import { passwordProblem } from '../../components/password-errors';
import { describeError } from '../../components/server-errors';
import { SubmitButton } from '../../components/SubmitButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RouteLink } from '../../components/RouteLink';
import { useFocusFirst } from '../../components/use-focus-first';
import { useI18n } from '../../use-i18n';

/**
 * The sign-up form for any sign-up strategies other than the default (seed 000 section 3): an Email
 * and/or a Phone number field as configured, each required or optional. With a phone number and no
 * email (phone sign-up open: phone enabled, email not required) it signs up by phone number and
 * shows the VerifyPhone stage while the code is texted; otherwise it is the email sign-up, with the
 * phone number as a profile field. Loaded lazily: only such deployments fetch it.
 * Its Name, Company and Password fields repeat SignUpScreen's on purpose: sharing them cost 201 B
 * gzip on the path before the login form is interactive (measured), for about 20 lines saved.
 */
export default function StrategySignUpForm() {
  const { store, routes } = useLoginBox();
  const { signUp, vendor } = useAuth(store);
  const i18n = useI18n();
  const { t } = i18n;
  const [form, setForm] = useState({ name: '', companyName: '', email: '', phoneNumber: '', password: '' });
  const ref = useFocusFirst<HTMLDivElement>(signUp.stage);
  const { errors, show, clear } = useFieldErrors(ref);
  const update = (key: keyof typeof form) => (event: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [key]: event.target.value }));
    clear(key);
  };
  const email = vendor?.signUpStrategies.email ?? { enabled: true, required: true };
  const phone = vendor?.signUpStrategies.phoneNumber ?? { enabled: false, required: false };
  // Phone sign-up makes accounts without an email, so it is open only while email is not required.
  const byPhone = phone.enabled && !email.required && (!email.enabled || form.email.trim() === '');
  const policy = usePasswordPolicy();
  const server = describeError(i18n, signUp.error, signUp.errorCode, ['name', 'companyName', 'email', 'phoneNumber', 'password']);
  useFocusServerField(ref, server?.field, signUp.error);
  const fieldError = (name: keyof typeof form) => errors[name] ?? (server?.field === name ? server.text : null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (signUp.loading) return;
    const typedEmail = form.email.trim();
    const phoneRequired = phone.required || !email.enabled;
    const valid = show({
      name: form.name.trim() ? undefined : t('errors.field.name.required'),
      companyName: form.companyName.trim() ? undefined : t('errors.field.companyName.required'),
      email: !email.enabled ? undefined : !typedEmail ? (email.required ? t('errors.field.email.required') : undefined) : isEmail(typedEmail) ? undefined : t('errors.field.email.invalid'),
      phoneNumber: phone.enabled && phoneRequired && !form.phoneNumber.trim() ? t('errors.field.phoneNumber.required') : undefined,
      password: byPhone ? undefined : passwordProblem(i18n, form.password, policy),
    });
    if (!valid) return;
    const profile = { name: form.name.trim(), companyName: form.companyName.trim() };
    if (byPhone) void store.signUpWithPhone({ ...profile, phoneNumber: form.phoneNumber });
    else void store.signUp({ ...profile, email: form.email.trim(), password: form.password, ...(form.phoneNumber.trim() ? { phoneNumber: form.phoneNumber.trim() } : {}) });
  };

  if (signUp.stage === 'VerifyPhone') {
    return (
      <div ref={ref}>
        <h1>{t('sms.verifyTitle')}</h1>
        {signUp.loading ? (
          <p role="status" className="gh-status" tabIndex={-1}>
            <span className="gh-spinner" aria-hidden="true" />
            <span>
              {t('signUp.phone.texting', { phone: signUp.phoneNumber ?? '' })}
            </span>
          </p>
        ) : (
          <>
            <p>
              {t('signUp.phone.confirm', { phone: signUp.phoneNumber ?? '' })}
            </p>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                void store.sendSignUpPhoneCode();
              }}
            >
              <ErrorAlert message={signUp.error} code={signUp.errorCode} />
              <SubmitButton busy={signUp.loading}>{t('signUp.phone.send')}</SubmitButton>
            </form>
          </>
        )}
        <p className="gh-footer">
          {t('signUp.haveAccount')} <RouteLink to={routes.loginUrl}>{t('signUp.signIn')}</RouteLink>
        </p>
      </div>
    );
  }

  const optional = (label: string, required: boolean) => (required ? label : t('field.optional', { label }));
  return (
    <div ref={ref}>
      <h1>{t('signUp.title')}</h1>
      <form onSubmit={onSubmit} noValidate aria-busy={signUp.loading}>
        <Field label={t('field.name')} name="name" autoComplete="name" required value={form.name} error={fieldError('name')} onChange={update('name')} />
        <Field label={t('field.companyName')} name="companyName" autoComplete="organization" required value={form.companyName} error={fieldError('companyName')} onChange={update('companyName')} />
        {email.enabled ? <Field label={optional(t('field.email'), email.required)} type="email" name="email" autoComplete="email" required={email.required} value={form.email} error={fieldError('email')} onChange={update('email')} /> : null}
        {phone.enabled ? (
          <Field
            label={optional(t('field.phoneNumber'), phone.required || !email.enabled)}
            type="tel"
            name="phoneNumber"
            autoComplete="tel"
            inputMode="tel"
            required={phone.required || !email.enabled}
            hint={byPhone ? t('signUp.phone.hintByPhone') : t('signUp.phone.hint')}
            value={form.phoneNumber}
            error={fieldError('phoneNumber')}
            onChange={update('phoneNumber')}
          />
        ) : null}
        {byPhone ? null : (
          <PasswordField
            label={t('field.password')}
            name="password"
            autoComplete="new-password"
            required
            policy={policy}
            strength
            userInputs={[form.name, form.email, form.companyName]}
            value={form.password}
            error={fieldError('password')}
            onChange={(value) => update('password')({ target: { value } })}
          />
        )}
        {server && !server.field ? <ErrorAlert message={signUp.error} code={signUp.errorCode} /> : null}
        <SubmitButton busy={signUp.loading}>{t('signUp.submit')}</SubmitButton>
      </form>
      <p className="gh-footer">
        {t('signUp.haveAccount')} <RouteLink to={routes.loginUrl}>{t('signUp.signIn')}</RouteLink>
      </p>
    </div>
  );
}
