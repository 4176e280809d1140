import { lazy, Suspense } from 'react';
import { useLoginBox } from '../context';
import { useAuth } from '../use-auth';
import { useI18n } from '../use-i18n';
import PasswordStep from './PasswordStep';
import SignedInStep from './SignedInStep';

// Their own chunks: only a second factor, or the passkey prompt after a password, reaches these (login bytes budget).
const MfaLoginScreen = lazy(() => import('./mfa/MfaLoginScreen').then((m) => ({ default: m.MfaLoginScreen })));
const PromptPasskeysScreen = lazy(() => import('./passkeys/PromptPasskeysScreen').then((m) => ({ default: m.PromptPasskeysScreen })));
// Its own chunk: only passwordless strategies reach these steps (login bytes budget).
const PasswordlessStep = lazy(() => import('./passwordless/PasswordlessStep'));
// Its own chunk: only identifiers at an SSO domain reach redirectToSSO.
const RedirectToSsoStep = lazy(() => import('./sso/RedirectToSsoStep'));
// One chunk with the phone sign-up form (screens/sms): only SMS strategies and phone sign-up reach these steps.
const SmsOtcStep = lazy(() => import('./sms').then((m) => ({ default: m.SmsOtcStep })));
// Its own chunk too: only an expired, breached or expiring password reaches these steps.
const PolicyStep = lazy(() => import('./policies/PolicyStep'));

/**
 * The sign-in form after its first step, for the steps LoginScreen's AFTER_IDENTIFIER names (this
 * chunk loads on Continue, beside preLogin, with the password step in it; the rarer steps are chunks
 * of their own; the four password-policy steps are the rest).
 */
export default function LaterStep({ byPhone, byUsername }: { byPhone: boolean; byUsername: boolean }) {
  const { store } = useLoginBox();
  const { login } = useAuth(store);
  const { t } = useI18n();
  const step = login.step;
  if (step === 'loginWithPassword') return <PasswordStep byPhone={byPhone} byUsername={byUsername} />;
  if (step === 'success') return <SignedInStep />;
  const screen =
    step === 'promptPasskeys' ? <PromptPasskeysScreen />
    : step === 'loginWithTwoFactor' || step === 'recoverTwoFactor' || step === 'forceTwoFactor' ? <MfaLoginScreen />
    : step === 'loginWithSmsOtc' || step === 'loginWithQuickSmsOtc' ? <SmsOtcStep />
    : step === 'redirectToSSO' ? <RedirectToSsoStep />
    : step === 'magicLinkPreLoginSuccess' || step === 'loginWithOtc' ? <PasswordlessStep />
    : <PolicyStep />;
  return <Suspense fallback={<p role="status">{t('common.loading')}</p>}>{screen}</Suspense>;
}
