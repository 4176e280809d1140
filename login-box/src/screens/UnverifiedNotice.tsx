import { useState } from 'react';
import { useLoginBox } from '../context';
import { useAuth } from '../use-auth';
import { useI18n } from '../use-i18n';
import { ErrorAlert } from '../components/ErrorAlert';

/**
 * The right password of an account not activated yet (the API says so only to someone who typed the
 * right password): verify the email first, or have the activation email sent again (activate/reset).
 */
export function UnverifiedNotice({ email }: { email: string }) {
  const { store } = useLoginBox();
  const { activate } = useAuth(store);
  const { t } = useI18n();
  const [asked, setAsked] = useState(false);
  if (asked && activate.resendSent) {
    return (
      <p role="status" className="gh-notice">
        {t('unverified.sent', { email })}
      </p>
    );
  }
  return (
    <div role="alert" className="gh-notice" data-kind="warning">
      <p>{t('unverified.text', { email })}</p>
      <button type="button" className="gh-button gh-secondary" disabled={activate.loading} aria-busy={activate.loading} onClick={() => {
          setAsked(true);
          void store.resendActivation(email);
        }}>
        {t('unverified.resend')}
      </button>
      {asked ? <ErrorAlert message={activate.error} code={activate.errorCode} /> : null}
    </div>
  );
}
