/** Authentication routes (seed 000 section 2.1) and matching a page path against them. */
import type { AuthRoutes } from './core/types';

/** The seed's default routes, verbatim. */
export const defaultRoutes: AuthRoutes = Object.freeze({
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
  hostedLoginRedirectUrl: '/oauth/callback',
  openAppUrl: '/account/redirect',
  unlockAccountUrl: '/account/unlock',
  mfaMobileAuthenticator: '/account/mfa-mobile-authenticator',
});

export type RouteName = keyof AuthRoutes;

/** Defaults overridden by the host's `authOptions.routes`; empty or non-string values are ignored. */
export function mergeRoutes(partial?: Partial<AuthRoutes> | null): AuthRoutes {
  const merged: AuthRoutes = { ...defaultRoutes };
  if (!partial) return merged;
  for (const [key, value] of Object.entries(partial)) {
    if (typeof value === 'string' && value.trim() !== '') (merged as unknown as Record<string, string>)[key] = value.trim();
  }
  return merged;
}

/** Path part of a route or page location, without query, hash or trailing slash. */
export function normalizePath(pathOrUrl: string): string {
  let path: string;
  try {
    path = new URL(pathOrUrl, 'http://gatehouse.invalid').pathname;
  } catch {
    path = pathOrUrl.split(/[?#]/)[0] ?? '';
  }
  if (path.length > 1) path = path.replace(/\/+$/, '');
  return path || '/';
}

/** Routes where the login UI is not shown (seed 2.1). */
const NON_AUTH_ROUTES: ReadonlySet<RouteName> = new Set<RouteName>(['authenticatedUrl', 'signUpSuccessUrl']);

/** The name of the route the path is exactly on (trailing slash ignored), or null. */
export function matchRoute(pathname: string, routes: AuthRoutes): RouteName | null {
  const path = normalizePath(pathname);
  // customLoginUrl wins over loginUrl when both point at the same path.
  const entries = Object.entries(routes) as [RouteName, string | undefined][];
  entries.sort(([a], [b]) => (a === 'customLoginUrl' ? -1 : b === 'customLoginUrl' ? 1 : 0));
  for (const [name, value] of entries) {
    if (typeof value === 'string' && value && normalizePath(value) === path) return name;
  }
  return null;
}

/** True when the path is one of the sign-in side routes (every route but the authenticated and sign-up-success ones). */
export function isAuthRoute(pathname: string, routes: AuthRoutes): boolean {
  const name = matchRoute(pathname, routes);
  return name !== null && !NON_AUTH_ROUTES.has(name);
}
