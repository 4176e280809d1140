import { useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Field } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { useFocusFirst } from '../../components/use-focus-first';
import { useI18n } from '../../use-i18n';

/** Login step `recoverTwoFactor`: one of the recovery codes saved at enrolment (each works once). */
export function RecoverTwoFactorStep() {
  const { store } = useLoginBox();
  const { mfa } = useAuth(store);
  const { t } = useI18n();
  const [code, setCode] = useState('');
  const formRef = useFocusFirst<HTMLFormElement>('recoverTwoFactor');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void store.recoverMfa(code);
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} aria-busy={mfa.loading}>
      <p>{t('mfa.recover.text')}</p>
      <Field label={t('mfa.recover.label')} name="recovery-code" autoComplete="off" autoCapitalize="characters" spellCheck={false} required value={code} onChange={(e) => setCode(e.target.value)} />
      <ErrorAlert message={mfa.error} />
      <SubmitButton busy={mfa.loading}>{t('login.submit')}</SubmitButton>
      <button type="button" className="gh-text-button" onClick={() => store.setLoginMfaStep('loginWithTwoFactor')}>
        {t('mfa.recover.useApp')}
      </button>
    </form>
  );
}
