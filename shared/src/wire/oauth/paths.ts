/**
 * Paths of hosted login, the OAuth 2.0 / OpenID Connect authorization server (seed 000 sections
 * 1, 2.1, 4.10, 7.1, 7.2). Plain data like `ApiPaths`, kept apart from it so the browser loads them
 * only in hosted mode or on the hosted pages (ApiPaths is part of what loads before the login form).
 */
/** The authorize endpoint on its own: the runtime checks it on every route change, without the rest. */
export const OAUTH_AUTHORIZE_PATH = '/oauth/authorize';

export const OAuthPaths = {
  discovery: '/.well-known/openid-configuration',
  authorize: OAUTH_AUTHORIZE_PATH,
  token: '/oauth/token',
  userinfo: '/oauth/userinfo',
  logout: '/oauth/logout',
  /** The hosted admin portal (seed 000 section 2.1), opened in a new tab or the same window. */
  portal: '/oauth/portal',
  /** The signed-in browser carries on an authorization request from the hosted page (Bearer). */
  authorizeComplete: '/identity/resources/auth/v1/oauth/authorize',
  /** Silent refresh of hosted login (seed 000 sections 4.10, 7.1): tokens from the refresh cookie. */
  authorizeSilent: '/identity/resources/auth/v1/oauth/authorize/silent',
  /** Seed 000 section 7.1 "GET identity/resources/auth/v1 oauth/logout": the logout endpoint again, where the refresh cookie is sent. */
  logoutUnderAuth: '/identity/resources/auth/v1/oauth/logout',
} as const;

/** The hosted pages' auth routes are the seed's defaults under this prefix (`/oauth/account/login`, ...). */
export const HOSTED_ROUTES_PREFIX = '/oauth';

/** The scope hosted login asks for (seed 000 section 7.2). */
export const HOSTED_LOGIN_SCOPE = 'openid email profile';
