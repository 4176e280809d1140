/** The demo lives under /react/: every auth route of seed 000 section 2.1 moves there with it. */
export const PREFIX = '/react';

const DEFAULTS: Record<string, string> = {
  authenticatedUrl: '/',
  loginUrl: '/account/login',
  stepUpUrl: '/account/step-up',
  logoutUrl: '/account/logout',
  activateUrl: '/account/activate',
  activateWithOTCUrl: '/account/activate/code',
  impersonationUrl: '/account/impersonate',
  acceptInvitationUrl: '/account/invitation/accept',
  acceptInvitationWithOTCUrl: '/account/invitation/code',
  forgetPasswordUrl: '/account/forget-password',
  resetPasswordUrl: '/account/reset-password',
  resetPhoneNumberUrl: '/account/reset-phone-number',
  socialLoginCallbackUrl: '/account/social/success',
  signUpUrl: '/account/sign-up',
  oidcRedirectUrl: '/account/oidc/callback',
  samlCallbackUrl: '/account/saml/callback',
  magicLinkCallbackUrl: '/account/login/magic-link',
  openAppUrl: '/account/redirect',
  unlockAccountUrl: '/account/unlock',
  mfaMobileAuthenticator: '/account/mfa-mobile-authenticator',
};

export const routes: Record<string, string> = Object.fromEntries(Object.entries(DEFAULTS).map(([k, v]) => [k, PREFIX + v]));

/** The demo's own pages. */
export const pages = { home: `${PREFIX}/`, reports: `${PREFIX}/reports`, settings: `${PREFIX}/settings` } as const;

export function isAuthRoute(pathname: string): boolean {
  return pathname.startsWith(`${PREFIX}/account/`);
}
