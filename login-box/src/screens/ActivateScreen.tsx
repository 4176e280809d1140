import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLoginBox } from '../context';
import { useAuth } from '../use-auth';
import { useLocation } from '../use-location';
import { useI18n } from '../use-i18n';
import { Field } from '../components/Field';
import { NewPasswordFields } from '../components/NewPasswordFields';
import { SubmitButton } from '../components/SubmitButton';
import { ErrorAlert } from '../components/ErrorAlert';
import { SuccessState } from '../components/SuccessState';
import { useFocusFirst } from '../components/use-focus-first';
import { isEmail, useFieldErrors, useFocusServerField } from '../components/use-field-errors';
import { usePasswordPolicy } from '../components/use-password-policy';
import { confirmProblem, passwordProblem } from '../components/password-errors';
import { describeError } from '../components/server-errors';

/** Activation (seed 4.5): activating -> activatingForm -> success, or failed -> resend. */
export function ActivateScreen() {
  const { store } = useLoginBox();
  const { activate } = useAuth(store);
  const i18n = useI18n();
  const { t } = i18n;
  const { search } = useLocation();
  const userId = search.get('userId') ?? '';
  const token = search.get('token') ?? '';
  const linkIncomplete = !userId || !token;
  const started = useRef('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [email, setEmail] = useState('');
  const step = linkIncomplete && activate.step !== 'resend' ? 'failed' : activate.step;
  const ref = useFocusFirst<HTMLDivElement>(step);
  const { errors, show, clear } = useFieldErrors(ref);
  const policy = usePasswordPolicy();
  const server = describeError(i18n, activate.error, activate.errorCode, step === 'activatingForm' ? ['password'] : ['email']);
  useFocusServerField(ref, server?.field, activate.error);

  useEffect(() => {
    const key = `${userId}\n${token}`;
    if (linkIncomplete || started.current === key) return;
    started.current = key;
    void store.startActivation({ userId, token });
  }, [store, userId, token, linkIncomplete]);

  const onActivate = (event: FormEvent) => {
    event.preventDefault();
    if (activate.loading) return;
    if (show({ password: passwordProblem(i18n, password, policy), confirmPassword: confirmProblem(i18n, password, confirm) })) void store.activate({ userId, token, password });
  };

  const onResend = (event: FormEvent) => {
    event.preventDefault();
    if (activate.loading) return;
    const value = email.trim();
    if (show({ email: !value ? t('errors.field.email.required') : isEmail(value) ? undefined : t('errors.field.email.invalid') })) void store.resendActivation(value);
  };

  let title = t('activate.title');
  let body;
  if (step === 'activating') {
    body = (
      <p role="status" className="gh-status">
        <span className="gh-spinner" aria-hidden="true" /> {t('activate.activating')}
      </p>
    );
  } else if (step === 'activatingForm') {
    body = (
      <form onSubmit={onActivate} noValidate aria-busy={activate.loading}>
        <p>{t('activate.choosePassword')}</p>
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
        {server && !server.field ? <ErrorAlert message={activate.error} code={activate.errorCode} /> : null}
        <SubmitButton busy={activate.loading}>{t('activate.submit')}</SubmitButton>
      </form>
    );
  } else if (step === 'success') {
    title = t('activate.success.title');
    // With an error only when the invite link it signed up through died before activation.
    body = (
      <>
        <ErrorAlert message={activate.error} code={activate.errorCode} />
        <SuccessState next={t('activate.success.next')}>{t('activate.success.text')}</SuccessState>
      </>
    );
  } else if (step === 'resend' && activate.resendSent) {
    body = <p role="status" tabIndex={-1}>{t('activate.resent')}</p>;
  } else {
    body = (
      <form onSubmit={onResend} noValidate aria-busy={activate.loading}>
        {activate.error && server?.field !== 'email' ? <ErrorAlert message={activate.error} code={activate.errorCode} /> : linkIncomplete ? <ErrorAlert message={t('activate.incompleteLink')} /> : null}
        <p>{t('activate.resendIntro')}</p>
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
        <SubmitButton busy={activate.loading}>{t('activate.resend')}</SubmitButton>
      </form>
    );
  }

  return (
    <div ref={ref}>
      <h1>{title}</h1>
      {body}
    </div>
  );
}
