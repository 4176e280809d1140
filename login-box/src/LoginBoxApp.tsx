import { Suspense, useEffect, useMemo, type ReactNode } from 'react';
import { matchRoute, type MountProps } from '@gatehouse/shared';
import css from './styles.css?inline';
import { LoginBoxContext, type LoginBoxContextValue } from './context';
import { useAdoptedStyles, useLaterStyles } from './use-adopted-styles';
import { englishI18n, I18nContext, useLocaleI18n } from './use-i18n';
import { lazyStep } from './lazy-step';
import { useCustomLogin } from './use-custom-login';
import { useLocation } from './use-location';
import { LoginScreen } from './screens/LoginScreen';

// Chunks of their own: the first load is the sign-in form alone (login bytes budget, bench/budgets.test.ts).
const SignUpScreen = lazyStep(() => import('./screens/SignUpScreen').then((m) => m.SignUpScreen));
const ActivateScreen = lazyStep(() => import('./screens/ActivateScreen').then((m) => m.ActivateScreen));
const ActivateCodeScreen = lazyStep(() => import('./screens/ActivateCodeScreen').then((m) => m.ActivateCodeScreen));
const LogoutScreen = lazyStep(() => import('./screens/LogoutScreen').then((m) => m.LogoutScreen));
const ForgotPasswordScreen = lazyStep(() => import('./screens/recovery/ForgotPasswordScreen').then((m) => m.ForgotPasswordScreen));
const ResetPasswordScreen = lazyStep(() => import('./screens/recovery/ResetPasswordScreen').then((m) => m.ResetPasswordScreen));
const StepUpScreen = lazyStep(() => import('./screens/mfa/StepUpScreen').then((m) => m.StepUpScreen));

// Its own chunk: only passwordless strategies land on the magic-link route (login bytes budget).
const MagicLinkCallbackScreen = lazyStep(() => import('./screens/passwordless/MagicLinkCallbackScreen').then((m) => m.default));
// Its own chunk: only SSO sign-ins come back to these routes.
const SsoCallbackScreen = lazyStep(() => import('./screens/sso/SsoCallbackScreen').then((m) => m.default));
// Its own chunk: only the emailed unlock link lands here.
const UnlockAccountScreen = lazyStep(() => import('./screens/policies/UnlockAccountScreen').then((m) => m.default));
// Its own chunk: only a user who lost their phone comes here.
const ResetPhoneNumberScreen = lazyStep(() => import('./screens/phone/ResetPhoneNumberScreen').then((m) => m.default));
// Their own chunks: only invitation and impersonation links land here.
const AcceptInvitationScreen = lazyStep(() => import('./screens/invitations/AcceptInvitationScreen').then((m) => m.default));
const ImpersonateScreen = lazyStep(() => import('./screens/impersonation/ImpersonateScreen').then((m) => m.default));
// Its own chunk: only social sign-ins come back here.
const SocialLogin = lazyStep(() => import('./screens/social/SocialLogin').then((m) => m.default));
// Its own chunk: only a shared invite link's URL carries invitationToken.
const InviteLinkBanner = lazyStep(() => import('./screens/invite-link/InviteLinkBanner').then((m) => m.default));

export type LoginBoxProps = MountProps & { name?: string };

/** Root of the login box: picks the screen for the current route; all state comes from the store. */
export function LoginBoxApp(props: LoginBoxProps) {
  const { domElement, store, api, routes, navigate, options, setThemeSetter } = props;
  const nonce = typeof options.nonce === 'string' ? options.nonce : undefined;
  useAdoptedStyles(domElement, css, setThemeSetter, nonce, options.theme);
  useLaterStyles(domElement, nonce);
  const { pathname, search } = useLocation();
  const route = matchRoute(pathname, routes);
  const invite = (route === 'signUpUrl' || route === 'loginUrl') && search.get('invitationToken');
  const context = useMemo<LoginBoxContextValue>(() => ({ store, api, routes, navigate, options }), [store, api, routes, navigate, options]);
  const i18n = useLocaleI18n(options.locale);
  const look = useCustomLogin(api, search.get('tenantId'));

  useEffect(() => {
    void store.loadVendor();
  }, [store]);

  useEffect(() => {
    // reCAPTCHA (its own chunk, with the page's CSP nonce) loads only once the captcha policy is on.
    store.setCaptchaProvider((policy, action) => import('./captcha/recaptcha').then((m) => m.recaptchaToken(policy, action, nonce)));
    return () => store.setCaptchaProvider(null);
  }, [store, nonce]);

  let screen: ReactNode = null;
  switch (route) {
    case 'loginUrl':
    case 'customLoginUrl':
      screen = <LoginScreen />;
      break;
    case 'signUpUrl':
      screen = <Suspense fallback={null}><SignUpScreen /></Suspense>;
      break;
    case 'activateUrl':
      screen = <Suspense fallback={null}><ActivateScreen /></Suspense>;
      break;
    case 'activateWithOTCUrl':
      screen = <Suspense fallback={null}><ActivateCodeScreen /></Suspense>;
      break;
    case 'logoutUrl':
      screen = <Suspense fallback={null}><LogoutScreen /></Suspense>;
      break;
    case 'forgetPasswordUrl':
      screen = <Suspense fallback={null}><ForgotPasswordScreen /></Suspense>;
      break;
    case 'resetPasswordUrl':
      screen = <Suspense fallback={null}><ResetPasswordScreen /></Suspense>;
      break;
    case 'stepUpUrl':
      screen = <Suspense fallback={null}><StepUpScreen /></Suspense>;
      break;
    case 'magicLinkCallbackUrl':
      screen = (
        <Suspense fallback={null}>
          <MagicLinkCallbackScreen />
        </Suspense>
      );
      break;
    case 'samlCallbackUrl':
    case 'oidcRedirectUrl':
      screen = <Suspense fallback={null}><SsoCallbackScreen type={route === 'samlCallbackUrl' ? 'saml' : 'oidc'} /></Suspense>;
      break;
    case 'resetPhoneNumberUrl':
      screen = <Suspense fallback={null}><ResetPhoneNumberScreen /></Suspense>;
      break;
    case 'unlockAccountUrl':
      screen = (
        <Suspense fallback={null}>
          <UnlockAccountScreen />
        </Suspense>
      );
      break;
    case 'acceptInvitationUrl':
    case 'acceptInvitationWithOTCUrl':
      screen = <Suspense fallback={null}><AcceptInvitationScreen /></Suspense>;
      break;
    case 'impersonationUrl':
      screen = <Suspense fallback={null}><ImpersonateScreen /></Suspense>;
      break;
    case 'socialLoginCallbackUrl':
      screen = <Suspense fallback={null}><SocialLogin callback /></Suspense>;
      break;
    default:
      // Other sign-in routes arrive with their own issues.
      screen = null;
  }
  // The active language's catalog is still loading (its own small chunk): nothing rather than a flash of English.
  if (!screen || !i18n) return null;

  // No landmark elements (main, header, footer): the box sits inside other people's pages.
  return (
    <LoginBoxContext.Provider value={context}>
      <I18nContext.Provider value={i18n}>
        <div className="gh-root" dir={i18n.dir} lang={i18n.locale} style={look?.style}>
          <div className="gh-card">
            {look && (look.logo || look.title) ? (
              <div className="gh-brand">
                {look.logo ? <img className="gh-brand-logo" src={look.logo} alt={look.companyName ?? ''} /> : null}
                {look.title ? <p className="gh-brand-title">{look.title}</p> : null}
              </div>
            ) : null}
            {invite && <Suspense fallback={null}><InviteLinkBanner token={invite} /></Suspense>}
            {screen}
          </div>
        </div>
      </I18nContext.Provider>
    </LoginBoxContext.Provider>
  );
}

/** Shown instead of the box when rendering throws, so the host page keeps working. */
export function LoginBoxError() {
  return (
    <div className="gh-root">
      <div className="gh-card" role="alert">
        {englishI18n.t('errors.generic')}
      </div>
    </div>
  );
}
