import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useI18n } from '../../use-i18n';
import { useFocusFirst } from '../../components/use-focus-first';
import { NewPasswordForm } from '../recovery/NewPasswordForm';

/** passwordRotationExpired: no session yet; a new password is set with the sign-in's reset token, then it signs in. */
export function PasswordRotationExpiredStep() {
  const { store } = useLoginBox();
  const { login } = useAuth(store);
  const { t } = useI18n();
  const ref = useFocusFirst<HTMLDivElement>(login.step);
  return (
    <div ref={ref} className="gh-stack">
      <h1>{t('rotation.expired.title')}</h1>
      <p>{t('rotation.expired.text')}</p>
      <NewPasswordForm busy={login.loading} error={login.error} errorCode={login.errorCode} userInputs={[login.email]} onSubmit={(password) => void store.setRotatedPassword(password)} />
      <button type="button" className="gh-text-button" onClick={() => store.resetLogin()}>
        {t('common.backToSignIn')}
      </button>
    </div>
  );
}
