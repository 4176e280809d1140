/**
 * Social login (seed 000 sections 1, 2.2, 7.2) as plain data: the seven built-in providers, the API
 * paths, the login origins, and reading the provider out of a `state`. No zod, so the browser's
 * lazily loaded social flow can import it without pulling schemas into any chunk.
 */

/** The built-in social login providers (seed 000 section 1). Custom providers have their own ids. */
export const SOCIAL_LOGIN_PROVIDERS = ['microsoft', 'facebook', 'google', 'github', 'slack', 'apple', 'linkedin'] as const;
export type SocialLoginProvider = (typeof SOCIAL_LOGIN_PROVIDERS)[number];

/** Id of a provider in paths and states: a built-in name or a custom provider's configured id. */
export const SOCIAL_PROVIDER_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;

export const SocialLoginPaths = {
  /** Social providers v2 (seed 7.2): the built-in providers and whether each is active. */
  providersV2: '/identity/resources/sso/v2',
  /** Custom social providers (seed 7.2). */
  customProviders: '/identity/resources/sso/custom/v1',
  /** Starts a sign-in: state, nonce and PKCE kept server-side, then the provider's authorize URL. */
  preLogin: '/identity/resources/auth/v1/user/sso/{provider}/prelogin',
  /** POST auth v1 user/sso/{provider}/postlogin (seed 7.2): code + state, answered like a password sign-in. */
  postLogin: '/identity/resources/auth/v1/user/sso/{provider}/postlogin',
  /** Where a form_post provider (Apple) posts its answer; it sends the browser on to the login box. */
  formPostCallback: '/identity/resources/auth/v1/user/sso/{provider}/callback',
} as const;

/** Cookie path of the browser-binding cookie: every social call above, nothing else. */
export const SOCIAL_LOGIN_COOKIE_PATH = '/identity/resources/auth/v1/user/sso';

/** Login origins (seed 000 section 2.2): recorded on every session. */
export const LoginOrigins = { socialLogin: 'social-login', customSocialLogin: 'custom-social-login', direct: 'direct' } as const;
export type LoginOrigin = (typeof LoginOrigins)[keyof typeof LoginOrigins];

/** Error shown and then kept for the login screen after a failed social login (seed 4.2: the box leaves after 1 s). */
export const SOCIAL_LOGIN_ERROR_KEY = 'GATEHOUSE_SOCIAL_LOGIN_ERROR';

/** A state is `<provider>.<random>`: the callback route learns which provider answered from it alone. */
export function socialProviderOfState(state: string | null | undefined): string | null {
  const provider = state?.split('.')[0] ?? '';
  return SOCIAL_PROVIDER_ID.test(provider) && state!.length > provider.length + 1 ? provider : null;
}
