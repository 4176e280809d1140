import { useEffect } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useLocation } from '../../use-location';
import { useI18n } from '../../use-i18n';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RouteLink } from '../../components/RouteLink';
import { useFocusFirst } from '../../components/use-focus-first';
import { NewPasswordForm } from './NewPasswordForm';
import { ResetSuccess } from './ResetSuccess';

/** The emailed link's page (resetPasswordUrl): resetPasswordPage, then resetPasswordSuccess (signed in unless MFA or the policy says otherwise). */
export function ResetPasswordScreen() {
  const { store, routes } = useLoginBox();
  const { forgotPassword: fp } = useAuth(store);
  const { t } = useI18n();
  const { search } = useLocation();
  const userId = search.get('userId') ?? '';
  const token = search.get('token') ?? '';
  const done = fp.step === 'resetPasswordSuccess';
  const ref = useFocusFirst<HTMLDivElement>(done);

  useEffect(() => {
    // A fresh page for every link: nothing left over from an earlier attempt.
    store.resetForgotPassword();
  }, [store, userId, token]);

  let body;
  if (done) body = <ResetSuccess />;
  else if (!userId || !token) body = <ErrorAlert message={t('reset.incompleteLink')} />;
  else body = <NewPasswordForm busy={fp.loading} error={fp.error} errorCode={fp.errorCode} onSubmit={(password) => void store.resetPassword({ userId, token, password })} />;

  return (
    <div ref={ref}>
      <h1>{done ? t('reset.success.title') : t('reset.title')}</h1>
      {body}
      {done ? null : (
        <p className="gh-footer">
          {t('reset.linkExpired')} <RouteLink to={routes.forgetPasswordUrl}>{t('reset.requestNew')}</RouteLink>
        </p>
      )}
    </div>
  );
}
