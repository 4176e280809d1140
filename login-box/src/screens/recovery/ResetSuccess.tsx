import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useI18n } from '../../use-i18n';
import { RouteLink } from '../../components/RouteLink';
import { SuccessState } from '../../components/SuccessState';

/**
 * resetPasswordSuccess: signed in with the new password (Continue, or on after a few seconds); the
 * second factor still to come on the login route; or, when the reset signed nothing in, sign in.
 */
export function ResetSuccess() {
  const { store, routes } = useLoginBox();
  const { forgotPassword: fp, login } = useAuth(store);
  const { t } = useI18n();
  if (fp.signedIn) return <SuccessState next={t('reset.success.next')}>{t('reset.success.signedIn')}</SuccessState>;
  if (login.step === 'loginWithTwoFactor' || login.step === 'forceTwoFactor') return <SuccessState>{t('reset.success.mfa')}</SuccessState>;
  return (
    <>
      <p role="status" tabIndex={-1}>
        {t('reset.success.signIn')}
      </p>
      <p className="gh-footer">
        <RouteLink to={routes.loginUrl}>{t('reset.success.signInLink')}</RouteLink>
      </p>
    </>
  );
}
