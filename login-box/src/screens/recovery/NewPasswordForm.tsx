import { useRef, useState, type FormEvent } from 'react';
import { useI18n } from '../../use-i18n';
import { PasswordField } from '../../components/PasswordField';
import { SubmitButton } from '../../components/SubmitButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFieldErrors, useFocusServerField } from '../../components/use-field-errors';
import { usePasswordPolicy } from '../../components/use-password-policy';
import { confirmProblem, passwordProblem } from '../../components/password-errors';
import { describeError } from '../../components/server-errors';

export interface NewPasswordFormProps {
  busy: boolean;
  error: string | null;
  errorCode?: string | undefined;
  onSubmit(password: string): void;
  /** Words the user typed elsewhere (name, email), which make a password guessable. */
  userInputs?: readonly string[];
}

/**
 * New password twice (password managers offer a generated one via autocomplete="new-password"), the
 * policy's rules up front and the strength meter; a refused password is shown at the field.
 */
export function NewPasswordForm({ busy, error, errorCode, onSubmit, userInputs = [] }: NewPasswordFormProps) {
  const i18n = useI18n();
  const { t } = i18n;
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, show, clear } = useFieldErrors(formRef);
  const policy = usePasswordPolicy();
  const server = describeError(i18n, error, errorCode, ['password']);
  useFocusServerField(formRef, server?.field === 'password' ? 'newPassword' : undefined, error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (show({ newPassword: passwordProblem(i18n, password, policy), confirmNewPassword: confirmProblem(i18n, password, confirm) })) onSubmit(password);
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-busy={busy}>
      <PasswordField
        label={t('field.newPassword')}
        name="newPassword"
        autoComplete="new-password"
        required
        policy={policy}
        strength
        userInputs={userInputs}
        value={password}
        error={errors.newPassword ?? (server?.field === 'password' ? server.text : null)}
        onChange={(value) => {
          setPassword(value);
          clear('newPassword');
        }}
      />
      <PasswordField
        label={t('field.confirmNewPassword')}
        name="confirmNewPassword"
        autoComplete="new-password"
        required
        value={confirm}
        error={errors.confirmNewPassword}
        onChange={(value) => {
          setConfirm(value);
          clear('confirmNewPassword');
        }}
      />
      {server && !server.field ? <ErrorAlert message={error} code={errorCode} /> : null}
      <SubmitButton busy={busy}>{t('newPassword.submit')}</SubmitButton>
    </form>
  );
}
