import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SubmitButton } from '../../components/SubmitButton';
import { useFocusFirst } from '../../components/use-focus-first';
import { OneTimeCodeField } from './OneTimeCodeField';

const MfaFactorStep = lazy(() => import('./factors/MfaFactorStep'));

/** MFA step `verify`: the authenticator-app code, with the other ways out the account has. */
export function MfaVerifyStep({ onBack }: { onBack?: () => void }) {
  const { store } = useLoginBox();
  const { mfa } = useAuth(store);
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(false);
  const formRef = useFocusFirst<HTMLFormElement>('verify');
  // Without a device list (older servers), assume the authenticator app.
  const hasApp = !mfa.mfaDevices || mfa.mfaDevices.authenticators.length > 0;
  const hasEmail = (mfa.mfaDevices?.emails.length ?? 0) > 0;
  const hasOther = (mfa.mfaDevices?.phones.length ?? 0) + (mfa.mfaDevices?.webauthn.length ?? 0) > 0;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void store.verifyMfa({ code, rememberDevice: remember });
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} aria-busy={mfa.loading}>
      {hasApp ? (
        <>
          <p id="gh-mfa-verify-help">Enter the 6-digit code from your authenticator app.</p>
          <OneTimeCodeField label="Authentication code" value={code} onChange={setCode} />
          {mfa.context === 'login' && mfa.allowRememberDevice ? (
            <div className="gh-check">
              <input id="gh-mfa-remember" type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
              <label htmlFor="gh-mfa-remember">Remember this device for {mfa.rememberDeviceDays} days</label>
            </div>
          ) : null}
          <ErrorAlert message={mfa.error} />
          <SubmitButton busy={mfa.loading}>Verify</SubmitButton>
        </>
      ) : (
        <ErrorAlert message={mfa.error} />
      )}
      {hasOther ? (
        <Suspense fallback={null}>
          <MfaFactorStep part="others" primary={!hasApp} />
        </Suspense>
      ) : null}
      {hasEmail ? (
        <button type="button" className={hasApp ? 'gh-text-button' : 'gh-button'} onClick={() => void store.sendMfaEmailCode()} disabled={mfa.loading}>
          Email me a code instead
        </button>
      ) : null}
      {mfa.context === 'login' ? (
        <button type="button" className="gh-text-button" onClick={() => store.setLoginMfaStep('recoverTwoFactor')}>
          Use a recovery code
        </button>
      ) : null}
      {onBack ? (
        <button type="button" className="gh-text-button" onClick={onBack}>
          Back
        </button>
      ) : null}
    </form>
  );
}
