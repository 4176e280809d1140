/**
 * API paths, relative to the base URL (seed 000 section 7). Plain data shared by the server's
 * routes and the browser's API client, so the two can never drift apart.
 */
export const ApiPaths = {
  jwks: '/.well-known/jwks.json',
  openapi: '/openapi.json',
  flags: '/flags',
  metadata: '/metadata',
  metadataIp: '/metadata/ip',
  vendorPublic: '/vendors/public',
  accountSettingsPublic: '/tenants/resources/account-settings/v1/public',

  login: '/identity/resources/auth/v1/user',
  refresh: '/identity/resources/auth/v1/user/token/refresh',
  logout: '/identity/resources/auth/v1/logout',

  me: '/identity/resources/users/v2/me',
  meAuthorization: '/identity/resources/users/v1/me/authorization',
  meTenantsV1: '/identity/resources/users/v1/me/tenants',
  meTenantsV2: '/identity/resources/users/v2/me/tenants',
  meTenantsV3: '/identity/resources/users/v3/me/tenants',
  switchTenant: '/identity/resources/users/v1/tenant',
  profileImage: '/team/resources/profile/me/image/v1',
  profilePicture: '/identity/resources/users/v1/profile-pictures', // + '/:id'

  signUp: '/identity/resources/users/v1/signUp',
  signUpStrategies: '/identity/resources/users/v1/signUp/strategies',
  activate: '/identity/resources/users/v1/activate',
  activateResend: '/identity/resources/users/v1/activate/reset',
  activateStrategy: '/identity/resources/users/v1/activate/strategy',
  passwordsConfig: '/identity/resources/users/v1/passwords/config',
} as const;

/** Cookie path that covers refresh and logout, so the refresh token is sent nowhere else. */
export const REFRESH_COOKIE_PATH = '/identity/resources/auth';

/** Name of the httpOnly refresh-token cookie for a client id (dashes removed, seed 000 section 9). */
export function refreshCookieName(clientId: string): string {
  return `gatehouse-refresh-${clientId.replace(/-/g, '')}`;
}
