import { useEffect, useId, useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SubmitButton } from '../../components/SubmitButton';
import { useFocusFirst } from '../../components/use-focus-first';
import { CopyButton } from './CopyButton';
import { OneTimeCodeField } from './OneTimeCodeField';
import { useI18n } from '../../use-i18n';

/** MFA step `authenticatorApp`: QR code, or the secret / otpauth URI by hand, then the first code. */
export function EnrollAuthenticatorStep() {
  const { store } = useLoginBox();
  const { mfa } = useAuth(store);
  const { t } = useI18n();
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
        <p role="status">{mfa.loading ? t('mfa.app.preparing') : t('mfa.app.setUpToContinue')}</p>
        <ErrorAlert message={mfa.error} />
        {mfa.loading ? null : <SubmitButton busy={mfa.loading}>{t('mfa.choice.app')}</SubmitButton>}
      </form>
    );
  }

  return (
    <form ref={formRef} onSubmit={onSubmit} aria-busy={mfa.loading}>
      <p>{t('mfa.app.scan')}</p>
      {mfa.qrCode ? <img className="gh-qr" src={mfa.qrCode} width={200} height={200} alt={t('mfa.app.qrAlt')} /> : null}
      <p>{t('mfa.app.cantScan')}</p>
      <div className="gh-field">
        <label htmlFor={secretId}>{t('mfa.app.secret')}</label>
        <div className="gh-copy-row">
          <input id={secretId} readOnly value={mfa.secret} className="gh-mono" data-testid="mfa-secret" />
          <CopyButton value={mfa.secret} label={t('mfa.app.secret')} />
        </div>
      </div>
      {mfa.uri ? (
        <div className="gh-field">
          <label htmlFor={uriId}>{t('mfa.app.uri')}</label>
          <div className="gh-copy-row">
            <input id={uriId} readOnly value={mfa.uri} className="gh-mono" />
            <CopyButton value={mfa.uri} label={t('mfa.app.uri')} />
          </div>
        </div>
      ) : null}
      <OneTimeCodeField label={t('mfa.app.codeLabel')} value={code} onChange={setCode} hint={t('mfa.app.codeHint')} />
      <ErrorAlert message={mfa.error} />
      <SubmitButton busy={mfa.loading}>{t('mfa.verifyAndEnable')}</SubmitButton>
    </form>
  );
}
