import { Fragment, useEffect } from 'react';
import { useLoginBox } from '../../../context';
import { useAuth } from '../../../use-auth';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useFocusFirst } from '../../../components/use-focus-first';
import { passkeyRegistration } from '../../passkeys/ceremonies';
import { useI18n, type MessageKey } from '../../../use-i18n';

/** The methods a user can enrol here, in the order offered, and the label of each choice. */
const CHOICES = [
  { strategy: 'AuthenticatorApp', label: 'mfa.choice.app', hint: 'mfa.choice.appHint' },
  { strategy: 'SMS', label: 'mfa.choice.sms', hint: 'mfa.choice.smsHint' },
  { strategy: 'WebAuthnCrossPlatform', label: 'mfa.choice.key', hint: 'mfa.choice.keyHint' },
  { strategy: 'WebAuthnPlatform', label: 'mfa.choice.device', hint: 'mfa.choice.deviceHint' },
] as const satisfies readonly { strategy: string; label: MessageKey; hint: MessageKey }[];

/**
 * Choosing the second factor to enrol (forceTwoFactor, or noMFAEnrolledStepUp): only the methods the
 * MFA strategies config has on. A security key or this device enrols at once through the browser.
 */
export function EnrolChoice() {
  const { store } = useLoginBox();
  const { mfa } = useAuth(store);
  const { t } = useI18n();
  const ref = useFocusFirst<HTMLFormElement>('choose');

  useEffect(() => {
    // At sign-in the answer listed what may be enrolled; elsewhere the vendor's config says.
    if (mfa.context !== 'login') void store.loadMfaStrategies();
  }, [store, mfa.context]);

  const active = new Set(mfa.mfaStrategies.filter((s) => s.isActive).map((s) => s.strategy));
  // Without a list (an older server, or the config not loaded yet) the authenticator app is offered.
  const offered = CHOICES.filter((c) => active.has(c.strategy) || (active.size === 0 && c.strategy === 'AuthenticatorApp'));
  const choose = (strategy: (typeof CHOICES)[number]['strategy']) => {
    // The QR code arrives in the MFA state; the screen then shows the authenticator set-up.
    if (strategy === 'AuthenticatorApp') void store.startAuthenticatorEnrollment();
    else if (strategy === 'SMS') store.setMfaStep('smsSetPhoneNumber');
    else void store.enrollMfaWebAuthn(passkeyRegistration, strategy === 'WebAuthnPlatform' ? 'platform' : 'cross-platform');
  };

  return (
    <form ref={ref} onSubmit={(e) => e.preventDefault()} aria-busy={mfa.loading} role="group" aria-labelledby="gh-mfa-choose">
      <p id="gh-mfa-choose">{t('mfa.choice.intro')}</p>
      {offered.map((c) => (
        <Fragment key={c.strategy}>
          <button type="button" className="gh-button gh-secondary" disabled={mfa.loading} aria-describedby={`gh-choice-${c.strategy}`} onClick={() => choose(c.strategy)}>
            {t(c.label)}
          </button>
          {/* Read with the button by screen readers; the label says enough on screen. */}
          <span id={`gh-choice-${c.strategy}`} hidden>
            {t(c.hint)}
          </span>
        </Fragment>
      ))}
      {mfa.loading ? (
        <p role="status" className="gh-status">
          <span className="gh-spinner" aria-hidden="true" /> {t('mfa.choice.settingUp')}
        </p>
      ) : null}
      <ErrorAlert message={mfa.error} />
    </form>
  );
}
