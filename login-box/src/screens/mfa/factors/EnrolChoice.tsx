import { Fragment, useEffect } from 'react';
import { useLoginBox } from '../../../context';
import { useAuth } from '../../../use-auth';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useFocusFirst } from '../../../components/use-focus-first';
import { passkeyRegistration } from '../../passkeys/ceremonies';

/** The methods a user can enrol here, in the order offered, and the label of each choice. */
const CHOICES = [
  { strategy: 'AuthenticatorApp', label: 'Set up authenticator app', hint: 'Google Authenticator, 1Password, Authy...' },
  { strategy: 'SMS', label: 'Set up text message codes', hint: 'A code is texted to your phone at each sign-in.' },
  { strategy: 'WebAuthnCrossPlatform', label: 'Set up a security key', hint: 'A USB or NFC key, or a phone nearby.' },
  { strategy: 'WebAuthnPlatform', label: 'Set up this device', hint: "This device's fingerprint, face or screen lock." },
] as const;

/**
 * Choosing the second factor to enrol (forceTwoFactor, or noMFAEnrolledStepUp): only the methods the
 * MFA strategies config has on. A security key or this device enrols at once through the browser.
 */
export function EnrolChoice() {
  const { store } = useLoginBox();
  const { mfa } = useAuth(store);
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
      <p id="gh-mfa-choose">Choose how you will confirm it&apos;s you when you sign in:</p>
      {offered.map((c) => (
        <Fragment key={c.strategy}>
          <button type="button" className="gh-button gh-secondary" disabled={mfa.loading} aria-describedby={`gh-choice-${c.strategy}`} onClick={() => choose(c.strategy)}>
            {c.label}
          </button>
          {/* Read with the button by screen readers; the label says enough on screen. */}
          <span id={`gh-choice-${c.strategy}`} hidden>
            {c.hint}
          </span>
        </Fragment>
      ))}
      {mfa.loading ? (
        <p role="status" className="gh-status">
          <span className="gh-spinner" aria-hidden="true" /> Setting it up. If your browser asks, follow its prompt...
        </p>
      ) : null}
      <ErrorAlert message={mfa.error} />
    </form>
  );
}
