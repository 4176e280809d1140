import { useRef, useState, type FormEvent } from 'react';
import { ErrorCodes, toGatehouseError, type GatehouseError } from '@gatehouse/shared';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useI18n } from '../../use-i18n';
import { PasswordField } from '../../components/PasswordField';
import { SubmitButton } from '../../components/SubmitButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFocusFirst } from '../../components/use-focus-first';
import { useFieldErrors, useFocusServerField } from '../../components/use-field-errors';
import { usePasswordPolicy } from '../../components/use-password-policy';
import { passwordProblem } from '../../components/password-errors';
import { describeError } from '../../components/server-errors';

/** passwordRotationNotification: signed in, the password expires soon; continue, or change it now. */
export function PasswordRotationNotificationStep() {
  const { store } = useLoginBox();
  const { login } = useAuth(store);
  const i18n = useI18n();
  const { t } = i18n;
  const [changing, setChanging] = useState(false);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<GatehouseError | null>(null);
  const ref = useFocusFirst<HTMLDivElement>(changing);
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, show, clear } = useFieldErrors(formRef);
  const policy = usePasswordPolicy();
  const days = login.passwordExpiresInDays ?? 0;
  const server = describeError(i18n, failure?.message, failure?.errorCode, ['password']);
  // The current password is refused by its own code; a policy refusal belongs to the new one.
  const currentWrong = failure?.errorCode === ErrorCodes.invalidCurrentPassword;
  useFocusServerField(formRef, currentWrong ? 'password' : server?.field ? 'newPassword' : undefined, failure?.message);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!show({ password: current ? undefined : t('errors.field.password.required'), newPassword: passwordProblem(i18n, next, policy) })) return;
    setBusy(true);
    setFailure(null);
    try {
      await store.changePassword({ password: current, newPassword: next });
      await store.continueAfterRotationNotice();
    } catch (e) {
      setFailure(toGatehouseError(e));
      setBusy(false);
    }
  };

  return (
    <div ref={ref} className="gh-stack">
      <h1>{t('rotation.notice.title')}</h1>
      <p role="status">{t('rotation.notice.text', { days })}</p>
      {changing ? (
        <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate aria-busy={busy}>
          <PasswordField label={t('field.currentPassword')} name="password" autoComplete="current-password" required value={current} error={errors.password ?? (currentWrong ? server?.text : null)} onChange={(value) => {
            setCurrent(value);
            clear('password');
          }} />
          <PasswordField label={t('field.newPassword')} name="newPassword" autoComplete="new-password" required policy={policy} strength userInputs={[login.email]} value={next} error={errors.newPassword ?? (!currentWrong && server?.field ? server.text : null)} onChange={(value) => {
            setNext(value);
            clear('newPassword');
          }} />
          {failure && !currentWrong && !server?.field ? <ErrorAlert message={failure.message} code={failure.errorCode} /> : null}
          <SubmitButton busy={busy}>{t('rotation.notice.change')}</SubmitButton>
        </form>
      ) : (
        <button type="button" className="gh-text-button" onClick={() => setChanging(true)}>
          {t('rotation.notice.changeNow')}
        </button>
      )}
      <button type="button" className={changing ? 'gh-button gh-secondary' : 'gh-button'} onClick={() => void store.continueAfterRotationNotice()}>
        {t('common.continue')}
      </button>
    </div>
  );
}
