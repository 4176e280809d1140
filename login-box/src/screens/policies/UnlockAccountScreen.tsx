import { useEffect, useRef, useState } from 'react';
import { toGatehouseError } from '@gatehouse/shared';
import { useLoginBox } from '../../context';
import { useLocation } from '../../use-location';
import { useI18n } from '../../use-i18n';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RouteLink } from '../../components/RouteLink';
import { SuccessState } from '../../components/SuccessState';

type Step = 'unlocking' | 'success' | 'failed';

/** The emailed unlock link's page (unlockAccountUrl, seed 4.7): unlocks, then the store goes to sign in after 5 s (Continue: at once). */
export default function UnlockAccountScreen() {
  const { store, routes } = useLoginBox();
  const { t } = useI18n();
  const { search } = useLocation();
  const token = search.get('token') ?? '';
  const [step, setStep] = useState<Step>('unlocking');
  const [error, setError] = useState<{ message: string; code?: string | undefined } | null>(null);
  const posted = useRef<string | null>(null);

  useEffect(() => {
    // Once per token: the link is single use, so a re-render must not post it again.
    if (posted.current === token) return;
    posted.current = token;
    if (!token) {
      setStep('failed');
      setError({ message: t('unlock.incompleteLink') });
      return;
    }
    store.unlockAccount(token).then(
      () => setStep('success'),
      (e: unknown) => {
        const failure = toGatehouseError(e);
        setStep('failed');
        setError({ message: failure.message, code: failure.errorCode });
      },
    );
  }, [store, token, t]);

  return (
    <div>
      <h1>{step === 'success' ? t('unlock.success.title') : t('unlock.title')}</h1>
      {step === 'unlocking' ? (
        <p role="status" className="gh-status">
          <span className="gh-spinner" aria-hidden="true" /> {t('unlock.unlocking')}
        </p>
      ) : null}
      {step === 'success' ? <SuccessState next={t('unlock.success.next')}>{t('unlock.success.text')}</SuccessState> : null}
      {step === 'failed' ? <ErrorAlert message={error?.message} code={error?.code} /> : null}
      {step === 'failed' ? (
        <p className="gh-footer">
          <RouteLink to={routes.loginUrl}>{t('common.backToSignIn')}</RouteLink>
        </p>
      ) : null}
    </div>
  );
}
