import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useFocusFirst } from '../../components/use-focus-first';
import { useI18n } from '../../use-i18n';

/**
 * The redirectToSSO step (seed 000 sections 2.2, 4.2): preLogin found single sign-on for the email,
 * so the browser goes to the organization's identity provider after 2 s. Loaded lazily: only
 * identifiers at an SSO domain reach it.
 */
export default function RedirectToSsoStep() {
  const { store } = useLoginBox();
  const { login } = useAuth(store);
  const { t } = useI18n();
  const ref = useFocusFirst<HTMLDivElement>(login.step);
  return (
    <div ref={ref}>
      <h1>{t('sso.title')}</h1>
      <p>
        {t('sso.text', { email: login.email })}
      </p>
      <p role="status" tabIndex={-1} className="gh-status">
        <span className="gh-spinner" aria-hidden="true" /> {t('sso.redirecting')}
      </p>
      <button type="button" className="gh-text-button" onClick={() => store.resetLogin()}>
        {t('login.differentEmail')}
      </button>
    </div>
  );
}
