import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { AuthenticatorEnrollResponse, RecoveryCodesResponse, SmsCodeSentResponse } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { DialogFooter } from '../dialogs/dialog-footer';
import { TextField } from '../dialogs/text-field';
import { useRefocusOnError } from '../roles/refocus';
import { Modal } from '../users/modal';
import { RecoveryCodesList } from './recovery-codes';
import { useSecuritySave } from './use-security-save';
import { isCeremonyCancelled } from './webauthn';

/** The second factors a user can add here, in the order offered. */
export type FactorKind = 'authenticator' | 'sms' | 'securityKey' | 'platform';

export interface FactorEnrolment {
  enrollAuthenticator(): Promise<AuthenticatorEnrollResponse>;
  verifyAuthenticator(code: string): Promise<RecoveryCodesResponse>;
  enrollSms(phoneNumber: string): Promise<SmsCodeSentResponse>;
  verifySms(otcToken: string, code: string): Promise<RecoveryCodesResponse>;
  enrollSecurityKey(deviceType: 'platform' | 'cross-platform'): Promise<RecoveryCodesResponse>;
}

type Step =
  | { kind: 'choose' }
  | { kind: 'authenticator'; enrol: AuthenticatorEnrollResponse | null }
  | { kind: 'smsNumber' }
  | { kind: 'smsCode'; sent: SmsCodeSentResponse }
  | { kind: 'key'; deviceType: 'platform' | 'cross-platform' }
  | { kind: 'codes'; codes: string[] };

const PHONE = /^\+?[0-9 ()-]{6,20}$/;

/**
 * Add a second factor: choose among the kinds the account's MFA policy has on, then the kind's
 * steps (scan a QR code and type the app's code; text a code to a number and type it; let the
 * browser register a security key or this device). The first factor comes with recovery codes,
 * shown once before the dialog closes.
 */
export function AddFactorDialog({ kinds, enrolment, onAdded, onFreshAuth, onClose }: {
  kinds: readonly FactorKind[];
  enrolment: FactorEnrolment;
  /** The factor is in. With `codesShown` the dialog stays open on the recovery codes until closed; without, the part closes it. */
  onAdded: (kind: FactorKind, codesShown: boolean) => void;
  onFreshAuth: (error: unknown) => boolean;
  onClose: () => void;
}) {
  const t = useT();
  const id = useId();
  const [choice, setChoice] = useState<FactorKind>(kinds[0] ?? 'authenticator');
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState('');
  const { busy, error, setError, run } = useSecuritySave(onFreshAuth);
  const ref = useRef<HTMLFormElement>(null);
  useRefocusOnError(error, busy, ref);
  // Each step's first field (or its button) takes focus, as the dialog's first one did.
  useEffect(() => {
    if (step.kind !== 'choose') ref.current?.querySelector<HTMLElement>('input:not([type="radio"]), [data-step-focus]')?.focus();
  }, [step]);

  const go = (next: Step) => {
    setValue('');
    setProblem('');
    setError(null);
    setStep(next);
  };
  const added = (kind: FactorKind, result: RecoveryCodesResponse) => {
    if (result.recoveryCodes.length > 0) {
      go({ kind: 'codes', codes: result.recoveryCodes });
      onAdded(kind, true);
    } else onAdded(kind, false);
  };
  const sixDigits = (text: string) => {
    const code = text.replace(/\s/g, '');
    const ok = /^\d{6}$/.test(code);
    setProblem(ok ? '' : t.t('privacy.add.codeInvalid'));
    return ok ? code : null;
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (step.kind === 'choose') {
      if (choice === 'authenticator') {
        await run(async () => go({ kind: 'authenticator', enrol: await enrolment.enrollAuthenticator() }));
      } else if (choice === 'sms') go({ kind: 'smsNumber' });
      else go({ kind: 'key', deviceType: choice === 'platform' ? 'platform' : 'cross-platform' });
    } else if (step.kind === 'authenticator') {
      const code = sixDigits(value);
      if (code) await run(async () => added('authenticator', await enrolment.verifyAuthenticator(code)));
    } else if (step.kind === 'smsNumber') {
      const phone = value.trim();
      const ok = PHONE.test(phone);
      setProblem(ok ? '' : t.t('privacy.add.phoneInvalid'));
      if (ok) await run(async () => go({ kind: 'smsCode', sent: await enrolment.enrollSms(phone) }));
    } else if (step.kind === 'smsCode') {
      const code = sixDigits(value);
      if (code) await run(async () => added('sms', await enrolment.verifySms(step.sent.otcToken, code)));
    } else if (step.kind === 'key') {
      await run(async () => {
        try {
          added(step.deviceType === 'platform' ? 'platform' : 'securityKey', await enrolment.enrollSecurityKey(step.deviceType));
        } catch (thrown) {
          if (isCeremonyCancelled(thrown)) throw new Error(t.t('privacy.add.keyCancelled'));
          throw thrown;
        }
      });
    } else onClose();
  }

  const footer = (label: string) => <DialogFooter error={error} busy={busy} label={label} onClose={onClose} />;
  let body;
  if (step.kind === 'choose') {
    body = (
      <>
        <fieldset className="gh-ap-fieldset">
          <legend className="gh-ap-label">{t.t('privacy.add.choose')}</legend>
          {kinds.map((kind) => (
            <label key={kind} className="gh-ap-check">
              <input type="radio" name={`${id}-kind`} value={kind} checked={choice === kind} disabled={busy} onChange={() => setChoice(kind)} {...(kind === choice ? { 'data-autofocus': true } : {})} />
              <span>{t.t(`privacy.add.kind.${kind}`)}<span className="gh-ap-hint"> {t.t(`privacy.add.kindHint.${kind}`)}</span></span>
            </label>
          ))}
        </fieldset>
        {footer(t.t('common.continue'))}
      </>
    );
  } else if (step.kind === 'authenticator' && step.enrol) {
    body = (
      <>
        <p className="gh-ap-modal-text">{t.t('privacy.add.scan')}</p>
        <img className="gh-ap-qr" src={step.enrol.qrCode} alt={t.t('privacy.add.qrAlt')} width={180} height={180} />
        <p className="gh-ap-hint">{t.t('privacy.add.secret')} <code className="gh-ap-secret">{step.enrol.secret}</code></p>
        <TextField id={`${id}-totp`} code autoComplete="one-time-code" label={t.t('privacy.add.appCode')} value={value} busy={busy} problem={problem} onChange={setValue} />
        {footer(t.t('privacy.add.verify'))}
      </>
    );
  } else if (step.kind === 'smsNumber') {
    body = (
      <>
        <TextField id={`${id}-phone`} type="tel" autoComplete="tel" label={t.t('privacy.add.phone')} hint={t.t('privacy.add.phoneHint')} value={value} busy={busy} problem={problem} onChange={setValue} />
        {footer(t.t('privacy.add.sendCode'))}
      </>
    );
  } else if (step.kind === 'smsCode') {
    body = (
      <>
        <p className="gh-ap-modal-text" role="status">{t.t('privacy.add.smsSent', { phone: step.sent.phoneNumber })}</p>
        <TextField id={`${id}-sms`} code autoComplete="one-time-code" label={t.t('privacy.add.smsCode')} value={value} busy={busy} problem={problem} onChange={setValue} />
        {footer(t.t('privacy.add.verify'))}
      </>
    );
  } else if (step.kind === 'key') {
    body = (
      <>
        <p className="gh-ap-modal-text">{t.t(step.deviceType === 'platform' ? 'privacy.add.platformText' : 'privacy.add.keyText')}</p>
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>{t.t('common.cancel')}</button>
          <button type="submit" className="gh-ap-button" disabled={busy} aria-busy={busy} data-step-focus>
            {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
            {t.t('privacy.add.register')}
          </button>
        </div>
      </>
    );
  } else if (step.kind === 'codes') {
    body = (
      <>
        <RecoveryCodesList codes={step.codes} />
        <div className="gh-ap-modal-actions">
          <button type="submit" className="gh-ap-button" data-step-focus>{t.t('privacy.codes.saved')}</button>
        </div>
      </>
    );
  }

  return (
    <Modal title={t.t(step.kind === 'codes' ? 'privacy.codes.title' : 'privacy.add.title')} onClose={onClose} busy={busy}>
      <form ref={ref} className="gh-ap-form" onSubmit={submit} noValidate>
        {body}
      </form>
    </Modal>
  );
}
