import { useEffect, useId, useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SubmitButton } from '../../components/SubmitButton';
import { useFocusFirst } from '../../components/use-focus-first';
import { CopyButton } from './CopyButton';
import { OneTimeCodeField } from './OneTimeCodeField';

/** MFA step `authenticatorApp`: QR code, or the secret / otpauth URI by hand, then the first code. */
export function EnrollAuthenticatorStep() {
  const { store } = useLoginBox();
  const { mfa } = useAuth(store);
  const [code, setCode] = useState('');
  const secretId = useId();
  const uriId = useId();
  const formRef = useFocusFirst<HTMLFormElement>(mfa.secret ? 'enrol-code' : 'enrol-start');

  useEffect(() => {
    if (!mfa.secret && !mfa.loading && !mfa.error) void store.startAuthenticatorEnrollment();
    // Only on entering the step (not on every state change); a failed start is retried by the button below.
  }, [store]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void store.verifyAuthenticatorEnrollment(code);
  };

  if (!mfa.secret) {
    return (
      <form ref={formRef} onSubmit={(e) => (e.preventDefault(), void store.startAuthenticatorEnrollment())} aria-busy={mfa.loading}>
        <p role="status">{mfa.loading ? 'Preparing your authenticator set-up...' : 'Set up an authenticator app to continue.'}</p>
        <ErrorAlert message={mfa.error} />
        {mfa.loading ? null : <SubmitButton busy={mfa.loading}>Set up authenticator app</SubmitButton>}
      </form>
    );
  }

  return (
    <form ref={formRef} onSubmit={onSubmit} aria-busy={mfa.loading}>
      <p>Scan this QR code with your authenticator app (Google Authenticator, 1Password, Authy...).</p>
      {mfa.qrCode ? <img className="gh-qr" src={mfa.qrCode} width={200} height={200} alt="QR code to add this account to your authenticator app" /> : null}
      <p>Can&apos;t scan it? Enter this key in the app instead:</p>
      <div className="gh-field">
        <label htmlFor={secretId}>Secret key</label>
        <div className="gh-copy-row">
          <input id={secretId} readOnly value={mfa.secret} className="gh-mono" data-testid="mfa-secret" />
          <CopyButton value={mfa.secret} label="Copy secret key" />
        </div>
      </div>
      {mfa.uri ? (
        <div className="gh-field">
          <label htmlFor={uriId}>Setup link (otpauth URI)</label>
          <div className="gh-copy-row">
            <input id={uriId} readOnly value={mfa.uri} className="gh-mono" />
            <CopyButton value={mfa.uri} label="Copy setup link" />
          </div>
        </div>
      ) : null}
      <OneTimeCodeField label="Code from the app" value={code} onChange={setCode} hint="Enter the 6-digit code the app shows to finish." />
      <ErrorAlert message={mfa.error} />
      <SubmitButton busy={mfa.loading}>Verify and enable</SubmitButton>
    </form>
  );
}
