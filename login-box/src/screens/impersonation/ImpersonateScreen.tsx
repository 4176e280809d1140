import { useEffect } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useLocation } from '../../use-location';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RouteLink } from '../../components/RouteLink';
import { useI18n } from '../../use-i18n';

/**
 * The impersonation route (impersonationUrl, seed 000 sections 2.1, 4.7): exchanges the admin's
 * token for a session of the user (impersonating), shows success, and the store navigates after
 * 1 s. Loaded lazily: only impersonation links land here.
 */
export default function ImpersonateScreen() {
  const { store, routes } = useLoginBox();
  const { impersonation, user } = useAuth(store);
  const { t } = useI18n();
  const { search } = useLocation();
  const token = search.get('token');

  useEffect(() => {
    // The store spends a token once, however often this runs.
    void store.impersonate(token);
  }, [store, token]);

  return (
    <div>
      <h1>{t('impersonate.title')}</h1>
      {impersonation.step === 'success' ? (
        <p role="status">
          {t('impersonate.success', { name: user?.name ?? '', email: user?.email ?? '' })}
        </p>
      ) : impersonation.error ? (
        <>
          <ErrorAlert message={impersonation.error} />
          <p className="gh-footer">
            <RouteLink to={routes.loginUrl}>{t('common.backToSignIn')}</RouteLink>
          </p>
        </>
      ) : (
        <p role="status" className="gh-status">
          <span className="gh-spinner" aria-hidden="true" /> {t('impersonate.working')}
        </p>
      )}
    </div>
  );
}
