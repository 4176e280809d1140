import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
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
import { isEmail, useFieldErrors, useFocusServerField } from '../components/use-field-errors';
import { usePasswordPolicy } from '../components/use-password-policy';
import { passwordProblem } from '../components/password-errors';
import { describeError } from '../components/server-errors';

// One chunk with the SMS code steps (screens/sms): only deployments with other sign-up strategies (phone number, optional email) fetch it.
const StrategySignUpForm = lazy(() => import('./sms').then((m) => ({ default: m.StrategySignUpForm })));

const FIELDS = ['name', 'companyName', 'email', 'password'] as const;

/** Sign-up (stage SignUp) and its success message (stage SignUpSuccess): resend, or another email. */
export function SignUpScreen() {
  const { store, routes } = useLoginBox();
  const { signUp, vendor, activate } = useAuth(store);
  const i18n = useI18n();
  const { t } = i18n;
  const [form, setForm] = useState({ name: '', companyName: '', email: '', password: '' });
  // "Use a different email" on the success message: the form again, with the email to retype.
  const [again, setAgain] = useState(false);
  const [resent, setResent] = useState(false);
  const showSuccess = signUp.stage === 'SignUpSuccess' && !again;
  const ref = useFocusFirst<HTMLDivElement>(`${signUp.stage}-${again}`);
  const { errors, show, clear } = useFieldErrors(ref);
  useEffect(() => {
    // After the first field took focus: the email is what is to be retyped.
    if (again) ref.current?.querySelector<HTMLInputElement>('input[name="email"]')?.focus();
  }, [again, ref]);
  const policy = usePasswordPolicy();
  // Joining by invite link: the account joins the link's tenant, so there is no company to name.
  const invited = location.search.includes('invitationToken=');
  const server = describeError(i18n, signUp.error, signUp.errorCode, invited ? FIELDS.filter((f) => f !== 'companyName') : FIELDS);
  useFocusServerField(ref, server?.field, signUp.error);
  const update = (key: keyof typeof form) => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    clear(key);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (signUp.loading) return;
    const email = form.email.trim();
    const valid = show({
      name: form.name.trim() ? undefined : t('errors.field.name.required'),
      companyName: invited || form.companyName.trim() ? undefined : t('errors.field.companyName.required'),
      email: !email ? t('errors.field.email.required') : isEmail(email) ? undefined : t('errors.field.email.invalid'),
      password: passwordProblem(i18n, form.password, policy),
    });
    if (!valid) return;
    setAgain(false);
    setResent(false);
    void store.signUp({ email, password: form.password, name: form.name.trim(), companyName: invited ? undefined : form.companyName.trim() });
  };

  if (showSuccess) {
    const email = signUp.email ?? '';
    return (
      <div ref={ref}>
        <h1>{t('signUp.success.title')}</h1>
        <p role="status" tabIndex={-1}>
          {t('signUp.success.text', { email })}
        </p>
        {resent && activate.resendSent ? (
          <p role="status" className="gh-notice">
            {t('signUp.success.resent', { email })}
          </p>
        ) : null}
        {resent ? <ErrorAlert message={activate.error} code={activate.errorCode} /> : null}
        <div className="gh-actions">
          <button
            type="button"
            className="gh-button gh-secondary"
            disabled={activate.loading}
            aria-busy={activate.loading}
            onClick={() => {
              setResent(true);
              void store.resendActivation(email);
            }}
          >
            {t('signUp.success.resend')}
          </button>
          <button
            type="button"
            className="gh-button gh-secondary"
            onClick={() => {
              setForm((f) => ({ ...f, email: '' }));
              setAgain(true);
            }}
          >
            {t('signUp.success.differentEmail')}
          </button>
        </div>
        <p className="gh-footer">
          <RouteLink to={`${routes.activateWithOTCUrl}?${new URLSearchParams({ email }).toString()}`}>{t('signUp.success.enterCode')}</RouteLink>
        </p>
        <p className="gh-footer">
          <RouteLink to={routes.loginUrl}>{t('common.backToSignIn')}</RouteLink>
        </p>
      </div>
    );
  }

  if (vendor && !vendor.allowSignUps) {
    return (
      <div ref={ref}>
        <h1>{t('signUp.title')}</h1>
        <p>{t('signUp.disabled')}</p>
        <p className="gh-footer">
          <RouteLink to={routes.loginUrl}>{t('common.backToSignIn')}</RouteLink>
        </p>
      </div>
    );
  }

  const strategies = vendor?.signUpStrategies;
  if (signUp.stage === 'VerifyPhone' || strategies?.phoneNumber.enabled || strategies?.email.required === false) {
    return (
      <Suspense fallback={<p role="status">{t('common.loading')}</p>}>
        <StrategySignUpForm />
      </Suspense>
    );
  }

  const fieldError = (name: (typeof FIELDS)[number]) => errors[name] ?? (server?.field === name ? server.text : null);
  const exists = signUp.errorCode === ErrorCodes.userAlreadyExists && !errors.email;
  return (
    <div ref={ref}>
      <h1>{t('signUp.title')}</h1>
      <form onSubmit={onSubmit} noValidate aria-busy={signUp.loading}>
        <Field label={t('field.name')} name="name" autoComplete="name" required value={form.name} error={fieldError('name')} onChange={(e) => update('name')(e.target.value)} />
        {!invited && <Field label={t('field.companyName')} name="companyName" autoComplete="organization" required value={form.companyName} error={fieldError('companyName')} onChange={(e) => update('companyName')(e.target.value)} />}
        <Field label={t('field.email')} type="email" name="email" autoComplete="email" inputMode="email" required value={form.email} error={fieldError('email')} onChange={(e) => update('email')(e.target.value)}>
          {exists ? (
            <p className="gh-hint">
              <RouteLink to={routes.loginUrl}>{t('signUp.signInInstead')}</RouteLink>
            </p>
          ) : null}
        </Field>
        <PasswordField
          label={t('field.password')}
          name="password"
          autoComplete="new-password"
          required
          value={form.password}
          error={fieldError('password')}
          policy={policy}
          strength
          userInputs={[form.name, form.email, form.companyName]}
          onChange={update('password')}
        />
        {server && !server.field ? <ErrorAlert message={signUp.error} code={signUp.errorCode} /> : null}
        <SubmitButton busy={signUp.loading}>{t('signUp.submit')}</SubmitButton>
      </form>
      <p className="gh-footer">
        {t('signUp.haveAccount')} <RouteLink to={routes.loginUrl}>{t('signUp.signIn')}</RouteLink>
      </p>
    </div>
  );
}
