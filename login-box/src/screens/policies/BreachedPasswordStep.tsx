import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useI18n } from '../../use-i18n';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFocusFirst } from '../../components/use-focus-first';

/** breachedPassword -> breachedPasswordSuccess: the password is on a breach list; a reset link sets a new one. */
export function BreachedPasswordStep() {
  const { store } = useLoginBox();
  const { login } = useAuth(store);
  const { t } = useI18n();
  const ref = useFocusFirst<HTMLDivElement>(login.step);
  if (login.step === 'breachedPasswordSuccess') {
    return (
      <div ref={ref}>
        <h1>{t('breached.sent.title')}</h1>
        <p role="status" tabIndex={-1}>
          {t('breached.sent.text', { email: login.email })}
        </p>
      </div>
    );
  }
  return (
    <div ref={ref} className="gh-stack">
      <h1>{t('breached.title')}</h1>
      <p>{t('breached.text')}</p>
      <ErrorAlert message={login.error} code={login.errorCode} />
      <button type="button" className="gh-button" disabled={login.loading} onClick={() => void store.sendBreachedPasswordReset()}>
        {t('breached.send')}
      </button>
      <button type="button" className="gh-text-button" onClick={() => store.resetLogin()}>
        {t('common.backToSignIn')}
      </button>
    </div>
  );
}
