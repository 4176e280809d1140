/**
 * The one SSO path preLogin calls before the login form has done anything else (seed 000 section
 * 4.2): a module of its own, so the browser's first bytes hold this string and not every SSO path.
 */

/** preLogin's SSO lookup: `{ email | username, tenantId? }` -> `{ address, type }`, both null without SSO. */
export const SSO_PRELOGIN_PATH = '/identity/resources/auth/v2/user/sso/prelogin';
