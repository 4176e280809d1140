import { Suspense, useEffect, useState, type FormEvent } from 'react';
import { AFTER_AUTH_REDIRECT_KEY, REDIRECT_URL_PARAM, getValidRedirectUrl } from '@gatehouse/shared';
import { useLoginBox } from '../context';
import { useAuth } from '../use-auth';
import { useI18n } from '../use-i18n';
import { lazyStep, loadLaterParts, useDescribeError } from '../lazy-step';
import { Field } from '../components/Field';
import { SubmitButton } from '../components/SubmitButton';
import { ErrorAlert } from '../components/ErrorAlert';
import { RouteLink } from '../components/RouteLink';
import { useFocusFirst } from '../components/use-focus-first';
import { isEmail, useFieldErrors, useFocusServerField } from '../components/use-field-errors';
import { PasskeyLoginButton } from './passkeys/PasskeyLoginButton';

// The steps after the identifier step (the password step in it, the rarer ones chunks of their own),
// fetched on Continue beside preLogin: the first paint is the identifier step alone (login bytes budget).
const loadLaterStep = () => import('./LaterStep').then((m) => m.default);
const LaterStep = lazyStep(loadLaterStep);
/** The steps LaterStep shows (success too: it comes after sign-in, with the tenant choice). */
const AFTER_IDENTIFIER: readonly string[] = ['success', 'loginWithPassword', 'promptPasskeys', 'loginWithTwoFactor', 'recoverTwoFactor', 'forceTwoFactor', 'passwordRotationExpired', 'passwordRotationNotification', 'breachedPassword', 'breachedPasswordSuccess', 'loginWithSmsOtc', 'loginWithQuickSmsOtc', 'redirectToSSO', 'magicLinkPreLoginSuccess', 'loginWithOtc'];
// Its own chunk: only vendors with social login providers load the buttons.
const SocialLogin = lazyStep(() => import('./social/SocialLogin').then((m) => m.default));

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

/** Sign in: identifier first (preLogin), then password or another step (LaterStep). */
export function LoginScreen() {
  const { store, routes, options } = useLoginBox();
  const { login, vendor } = useAuth(store);
  const i18n = useI18n();
  const { t } = i18n;
  const [email, setEmail] = useState(login.email);
  const formRef = useFocusFirst<HTMLFormElement>(login.step);
  const { errors, show, clear } = useFieldErrors(formRef);
  useStoreRedirectParam(options);

  // Username* strategies sign in with a username (an email still works there); SmsCodeV2 with a phone number.
  const byUsername = vendor?.loginStrategy?.startsWith('Username') === true;
  const byPhone = vendor?.loginStrategy === 'SmsCodeV2';
  // The wording of server errors comes with the later chunk (asked for on Continue, beside preLogin).
  const describe = useDescribeError(Boolean(login.error));
  const server = describe ? describe(i18n, login.error, login.errorCode, ['email', 'password']) : null;
  useFocusServerField(formRef, server?.field, login.error);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (login.loading) return;
    const identifier = email.trim();
    const problem = !identifier
      ? t(byPhone ? 'errors.field.phoneNumber.required' : byUsername ? 'errors.field.username.required' : 'errors.field.email.required')
      : !byPhone && !byUsername && !isEmail(identifier)
        ? t('errors.field.email.invalid')
        : null;
    if (!show({ email: problem ?? undefined })) return;
    // The next step's code comes while preLogin asks which step is next (no wait added after it).
    void Promise.all([loadLaterStep(), loadLaterParts()]).catch(() => undefined);
    void store.preLogin(identifier);
  };

  if (AFTER_IDENTIFIER.includes(login.step)) {
    return (
      <Suspense fallback={<p role="status">{t('common.loading')}</p>}>
        <LaterStep byPhone={byPhone} byUsername={byUsername} />
      </Suspense>
    );
  }

  const passkeys = login.step === 'preLogin' && typeof window.PublicKeyCredential !== 'undefined';
  const social = login.step === 'preLogin' && vendor?.socialLogin === true;
  return (
    <>
      <h1>{t('login.title')}</h1>
      <form ref={formRef} onSubmit={onSubmit} noValidate aria-busy={login.loading}>
        <Field
          label={t(byPhone ? 'field.phoneNumber' : byUsername ? 'field.username' : 'field.email')}
          type={byPhone ? 'tel' : byUsername ? 'text' : 'email'}
          name={byPhone ? 'phoneNumber' : byUsername ? 'username' : 'email'}
          autoComplete={byPhone ? 'tel' : 'username'}
          inputMode={byPhone ? 'tel' : byUsername ? undefined : 'email'}
          required
          value={email}
          error={errors.email ?? (server?.field === 'email' ? server.text : null)}
          onChange={(e) => {
            setEmail(e.target.value);
            clear('email');
          }}
        />
        {server && !server.field ? <ErrorAlert message={login.error} code={login.errorCode} /> : null}
        <SubmitButton busy={login.loading}>{t('common.continue')}</SubmitButton>
      </form>
      {passkeys || social ? (
        <div className="gh-divider" role="separator" aria-label={t('login.or')}>
          <span aria-hidden="true">{t('login.or')}</span>
        </div>
      ) : null}
      {passkeys ? <PasskeyLoginButton email={email} /> : null}
      {social ? <Suspense fallback={null}><SocialLogin /></Suspense> : null}
      {vendor?.allowSignUps ? (
        <p className="gh-footer">
          {t('login.noAccount')} <RouteLink to={routes.signUpUrl}>{t('login.signUp')}</RouteLink>
        </p>
      ) : null}
    </>
  );
}
