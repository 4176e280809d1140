import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { AFTER_AUTH_REDIRECT_KEY, REDIRECT_URL_PARAM, getValidRedirectUrl } from '@gatehouse/shared';
import { useLoginBox } from '../context';
import { useAuth } from '../use-auth';
import { Field } from '../components/Field';
import { SubmitButton } from '../components/SubmitButton';
import { ErrorAlert } from '../components/ErrorAlert';
import { RouteLink } from '../components/RouteLink';
import { useFocusFirst } from '../components/use-focus-first';
import { PasskeyLoginButton } from './passkeys/PasskeyLoginButton';
import { PromptPasskeysScreen } from './passkeys/PromptPasskeysScreen';
import { MfaLoginScreen } from './mfa/MfaLoginScreen';

// Its own chunk: only passwordless strategies reach these steps (login bytes budget).
const PasswordlessStep = lazy(() => import('./passwordless/PasswordlessStep'));
// Its own chunk: only identifiers at an SSO domain reach redirectToSSO.
const RedirectToSsoStep = lazy(() => import('./sso/RedirectToSsoStep'));
// One chunk with the phone sign-up form (screens/sms): only SMS strategies and phone sign-up reach these steps.
const SmsOtcStep = lazy(() => import('./sms').then((m) => ({ default: m.SmsOtcStep })));
// Its own chunk too: only an expired, breached or expiring password reaches these steps.
const PolicyStep = lazy(() => import('./policies/PolicyStep'));
// Its own chunk: only vendors with social login providers load the buttons.
const SocialLogin = lazy(() => import('./social/SocialLogin'));
const POLICY_STEPS: readonly string[] = ['passwordRotationExpired', 'passwordRotationNotification', 'breachedPassword', 'breachedPasswordSuccess'];

function allowedOrigins(options: Record<string, unknown>): string[] {
  const value = options.allowedRedirectOrigins;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Remembers a valid `redirectUrl` query parameter as the after-login target (seed 5). */
function useStoreRedirectParam(options: Record<string, unknown>): void {
  useEffect(() => {
    const raw = new URLSearchParams(window.location.search).get(REDIRECT_URL_PARAM);
    if (!raw) return;
    const valid = getValidRedirectUrl(raw, { currentUrl: window.location.href, allowedOrigins: allowedOrigins(options), enforceSameSite: true });
    try {
      if (valid) window.sessionStorage.setItem(AFTER_AUTH_REDIRECT_KEY, valid);
    } catch {
      // Storage disabled: the user lands on the authenticated URL instead.
    }
  }, [options]);
}

/** Sign in: identifier first (preLogin), then password. */
export function LoginScreen() {
  const { store, routes, options } = useLoginBox();
  const { login, vendor } = useAuth(store);
  const [email, setEmail] = useState(login.email);
  const [password, setPassword] = useState('');
  const formRef = useFocusFirst<HTMLFormElement>(login.step);
  useStoreRedirectParam(options);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (login.loading) return;
    if (login.step === 'preLogin') void store.preLogin(email);
    else void store.login({ email: login.email || email, password });
  };

  if (login.step === 'promptPasskeys') return <PromptPasskeysScreen />;

  if (login.step === 'success') {
    return (
      <>
        <h1>Sign in</h1>
        <p role="status">Signed in, redirecting...</p>
      </>
    );
  }

  if (login.step === 'loginWithTwoFactor' || login.step === 'recoverTwoFactor' || login.step === 'forceTwoFactor') return <MfaLoginScreen />;

  if (POLICY_STEPS.includes(login.step)) {
    return (
      <Suspense fallback={<p role="status">Loading...</p>}>
        <PolicyStep />
      </Suspense>
    );
  }

  if (login.step === 'loginWithSmsOtc' || login.step === 'loginWithQuickSmsOtc') {
    return (
      <Suspense fallback={<p role="status">Loading...</p>}>
        <SmsOtcStep />
      </Suspense>
    );
  }

  if (login.step === 'redirectToSSO') return <Suspense fallback={<p role="status">Loading...</p>}><RedirectToSsoStep /></Suspense>;

  if (login.step === 'magicLinkPreLoginSuccess' || login.step === 'loginWithOtc') {
    return (
      <Suspense fallback={<p role="status">Loading...</p>}>
        <PasswordlessStep />
      </Suspense>
    );
  }

  // Username* strategies sign in with a username (an email still works there); SmsCodeV2 with a phone number.
  const byUsername = vendor?.loginStrategy?.startsWith('Username') === true;
  const byPhone = vendor?.loginStrategy === 'SmsCodeV2';

  const passwordStep = login.step === 'loginWithPassword';
  return (
    <>
      <h1>Sign in</h1>
      <form ref={formRef} onSubmit={onSubmit} noValidate={false} aria-busy={login.loading}>
        <Field
          label={byPhone ? 'Phone number' : byUsername ? 'Username' : 'Email'}
          type={byPhone ? 'tel' : byUsername ? 'text' : 'email'}
          name={byPhone ? 'phoneNumber' : byUsername ? 'username' : 'email'}
          autoComplete={byPhone ? 'tel' : 'username'}
          required
          readOnly={passwordStep}
          value={passwordStep ? login.email : email}
          onChange={(e) => setEmail(e.target.value)}
        />
        {passwordStep ? (
          <Field label="Password" type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        ) : null}
        <ErrorAlert message={login.error} />
        <SubmitButton busy={login.loading}>{passwordStep ? 'Sign in' : 'Continue'}</SubmitButton>
        {passwordStep ? (
          <button type="button" className="gh-text-button" onClick={() => store.resetLogin()}>
            Use a different email
          </button>
        ) : null}
        {passwordStep ? <RouteLink to={routes.forgetPasswordUrl}>Forgot password?</RouteLink> : null}
      </form>
      {login.step === 'preLogin' && typeof window.PublicKeyCredential !== 'undefined' ? <PasskeyLoginButton email={email} /> : null}
      {login.step === 'preLogin' && vendor?.socialLogin ? <Suspense fallback={null}><SocialLogin /></Suspense> : null}
      {vendor?.allowSignUps ? (
        <p className="gh-footer">
          Don&apos;t have an account? <RouteLink to={routes.signUpUrl}>Sign up</RouteLink>
        </p>
      ) : null}
    </>
  );
}
