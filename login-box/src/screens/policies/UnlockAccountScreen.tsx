import { useEffect, useRef, useState } from 'react';
import { toGatehouseError } from '@gatehouse/shared';
import { useLoginBox } from '../../context';
import { useLocation } from '../../use-location';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RouteLink } from '../../components/RouteLink';

type Step = 'unlocking' | 'success' | 'failed';

/** The emailed unlock link's page (unlockAccountUrl, seed 4.7): unlocks, then the store goes to sign in after 5 s. */
export default function UnlockAccountScreen() {
  const { store, routes } = useLoginBox();
  const { search } = useLocation();
  const token = search.get('token') ?? '';
  const [step, setStep] = useState<Step>('unlocking');
  const [error, setError] = useState<string | null>(null);
  const posted = useRef<string | null>(null);

  useEffect(() => {
    // Once per token: the link is single use, so a re-render must not post it again.
    if (posted.current === token) return;
    posted.current = token;
    if (!token) {
      setStep('failed');
      setError('This unlock link is incomplete.');
      return;
    }
    store.unlockAccount(token).then(
      () => setStep('success'),
      (e: unknown) => {
        setStep('failed');
        setError(toGatehouseError(e).message);
      },
    );
  }, [store, token]);

  return (
    <div>
      <h1>Unlock account</h1>
      {step === 'unlocking' ? <p role="status">Unlocking your account...</p> : null}
      {step === 'success' ? <p role="status">Your account is unlocked. Taking you to sign in...</p> : null}
      {step === 'failed' ? <ErrorAlert message={error} /> : null}
      {step === 'failed' ? (
        <p className="gh-footer">
          <RouteLink to={routes.loginUrl}>Back to sign in</RouteLink>
        </p>
      ) : null}
    </div>
  );
}
