import { describe, expect, it } from 'vitest';
import { defaultRoutes, isAuthRoute, matchRoute, mergeRoutes } from './routes';

describe('routes', () => {
  it('has the seed defaults verbatim', () => {
    expect(defaultRoutes).toEqual({
      authenticatedUrl: '/', loginUrl: '/account/login', stepUpUrl: '/account/step-up', logoutUrl: '/account/logout',
      activateUrl: '/account/activate', activateWithOTCUrl: '/account/activate/code', impersonationUrl: '/account/impersonate',
      acceptInvitationUrl: '/account/invitation/accept', acceptInvitationWithOTCUrl: '/account/invitation/code',
      forgetPasswordUrl: '/account/forget-password', resetPasswordUrl: '/account/reset-password',
      resetPhoneNumberUrl: '/account/reset-phone-number', socialLoginCallbackUrl: '/account/social/success',
      signUpUrl: '/account/sign-up', oidcRedirectUrl: '/account/oidc/callback', samlCallbackUrl: '/account/saml/callback',
      magicLinkCallbackUrl: '/account/login/magic-link', hostedLoginRedirectUrl: '/oauth/callback', openAppUrl: '/account/redirect',
      unlockAccountUrl: '/account/unlock', mfaMobileAuthenticator: '/account/mfa-mobile-authenticator',
    });
    expect(Object.isFrozen(defaultRoutes)).toBe(true);
  });

  it('merges overrides and ignores empty values', () => {
    const routes = mergeRoutes({ loginUrl: '/signin', logoutUrl: '', authenticatedUrl: '/app' });
    expect(routes.loginUrl).toBe('/signin');
    expect(routes.logoutUrl).toBe('/account/logout');
    expect(routes.authenticatedUrl).toBe('/app');
    expect(defaultRoutes.loginUrl).toBe('/account/login');
    expect(mergeRoutes()).toEqual(defaultRoutes);
  });

  it('matches exact paths, ignoring trailing slash, query and hash', () => {
    expect(matchRoute('/account/login', defaultRoutes)).toBe('loginUrl');
    expect(matchRoute('/account/login/', defaultRoutes)).toBe('loginUrl');
    expect(matchRoute('/account/login?redirectUrl=/x#h', defaultRoutes)).toBe('loginUrl');
    expect(matchRoute('/account/login/magic-link', defaultRoutes)).toBe('magicLinkCallbackUrl');
    expect(matchRoute('/account/activate/code', defaultRoutes)).toBe('activateWithOTCUrl');
    expect(matchRoute('/account/loginx', defaultRoutes)).toBeNull();
    expect(matchRoute('/', defaultRoutes)).toBe('authenticatedUrl');
  });

  it('prefers the custom login URL and matches absolute route values by path', () => {
    const routes = mergeRoutes({ customLoginUrl: 'https://app.example.com/login' });
    expect(matchRoute('/login', routes)).toBe('customLoginUrl');
  });

  it('treats every route but the authenticated and sign-up-success ones as auth routes', () => {
    const routes = mergeRoutes({ signUpSuccessUrl: '/welcome' });
    expect(isAuthRoute('/account/login', routes)).toBe(true);
    expect(isAuthRoute('/account/sign-up', routes)).toBe(true);
    expect(isAuthRoute('/account/logout', routes)).toBe(true);
    expect(isAuthRoute('/', routes)).toBe(false);
    expect(isAuthRoute('/welcome', routes)).toBe(false);
    expect(isAuthRoute('/dashboard', routes)).toBe(false);
  });
});
