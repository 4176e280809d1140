import { useEffect, useState, type FormEvent } from 'react';
import { ErrorCodes } from '@gatehouse/shared';
import { useLoginBox } from '../context';
import { useAuth } from '../use-auth';
import { useLocation } from '../use-location';
import { useI18n } from '../use-i18n';
import { Field } from '../components/Field';
import { NewPasswordFields } from '../components/NewPasswordFields';
import { SubmitButton } from '../components/SubmitButton';
import { ErrorAlert } from '../components/ErrorAlert';
import { RouteLink } from '../components/RouteLink';
import { SuccessState } from '../components/SuccessState';
import { useFocusFirst } from '../components/use-focus-first';
import { isEmail, useFieldErrors, useFocusServerField } from '../components/use-field-errors';
import { usePasswordPolicy } from '../components/use-password-policy';
import { confirmProblem, passwordProblem } from '../components/password-errors';
import { describeError } from '../components/server-errors';
import { OneTimeCodeField } from './mfa/OneTimeCodeField';

/**
 * Activation by the 6-digit code of the activation email (activateWithOTCUrl): the address (from
 * the sign-up, `?email=`, or typed) and the code. The browser that signed up needs nothing more;
 * any other is asked to choose the password when the server says one is required.
 */
export function ActivateCodeScreen() {
  const { store, routes } = useLoginBox();
  const { activate, signUp } = useAuth(store);
  const i18n = useI18n();
  const { t } = i18n;
  const { search } = useLocation();
  const userId = search.get('userId') ?? '';
  const [email, setEmail] = useState(() => search.get('email') ?? signUp.email ?? '');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  // Shown from the server's first answer that this browser must choose the password, and kept.
  const [needsPassword, setNeedsPassword] = useState(false);
  const [sentPassword, setSentPassword] = useState(false);
  const passwordRefused = activate.errorCode === ErrorCodes.passwordPolicy && Boolean(activate.error);
  useEffect(() => {
    if (passwordRefused) setNeedsPassword(true);
  }, [passwordRefused]);
  const choosing = needsPassword || passwordRefused;
  // "Password is required" for a call sent without one is the prompt itself, not an error to show.
  const passwordAsked = passwordRefused && !sentPassword;
  const step = activate.step === 'success' ? 'success' : 'form';
  const ref = useFocusFirst<HTMLDivElement>(`${step}${choosing}`);
  const { errors, show, clear } = useFieldErrors(ref);
  const policy = usePasswordPolicy();
  const server = passwordAsked ? null : describeError(i18n, activate.error, activate.errorCode, ['email', 'password']);
  useFocusServerField(ref, server?.field, activate.error);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (activate.loading) return;
    const address = email.trim();
    const problems: Record<string, string | undefined> = {
      email: userId ? undefined : !address ? t('errors.field.email.required') : isEmail(address) ? undefined : t('errors.field.email.invalid'),
      'one-time-code': /^\d{6}$/.test(code) ? undefined : t('activateCode.codeInvalid'),
    };
    if (choosing) {
      problems.password = passwordProblem(i18n, password, policy);
      problems.confirmPassword = confirmProblem(i18n, password, confirm);
    }
    if (!show(problems)) return;
    setSentPassword(choosing && Boolean(password));
    void store.activateWithCode({ ...(userId ? { userId } : { email: address }), code, ...(choosing && password ? { password } : {}) });
  };

  if (step === 'success') {
    return (
      <div ref={ref}>
        <h1>{t('activate.success.title')}</h1>
        <ErrorAlert message={activate.error} code={activate.errorCode} />
        <SuccessState next={t('activate.success.next')}>{t('activate.success.text')}</SuccessState>
      </div>
    );
  }

  return (
    <div ref={ref}>
      <h1>{t('activateCode.title')}</h1>
      <form onSubmit={onSubmit} noValidate aria-busy={activate.loading}>
        <p>{t('activateCode.intro')}</p>
        {userId ? null : (
          <Field
            label={t('field.email')}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            required
            value={email}
            error={errors.email ?? (server?.field === 'email' ? server.text : null)}
            onChange={(e) => {
              setEmail(e.target.value);
              clear('email');
            }}
          />
        )}
        <OneTimeCodeField label={t('field.code')} value={code} error={errors['one-time-code']} onChange={(value) => {
          setCode(value);
          clear('one-time-code');
        }} />
        {choosing ? (
          <>
            <p role="status">{t('activateCode.choosePassword')}</p>
            <NewPasswordFields
              password={password}
              confirm={confirm}
              policy={policy}
              passwordError={errors.password ?? (server?.field === 'password' ? server.text : null)}
              confirmError={errors.confirmPassword}
              onPassword={(value) => {
                setPassword(value);
                clear('password');
              }}
              onConfirm={(value) => {
                setConfirm(value);
                clear('confirmPassword');
              }}
            />
          </>
        ) : null}
        {server && !server.field ? <ErrorAlert message={activate.error} code={activate.errorCode} /> : null}
        <SubmitButton busy={activate.loading}>{t('activate.submit')}</SubmitButton>
      </form>
      <p className="gh-footer">
        <RouteLink to={routes.activateUrl}>{t('activateCode.noCode')}</RouteLink>
      </p>
    </div>
  );
}
