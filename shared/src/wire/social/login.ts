/**
 * Social login calls (seed 000 sections 3, 7.2): zod schemas shared by the server routes and, as
 * types, the browser flow. Paths and provider names are plain data in paths.ts.
 */
import { z } from 'zod';
import { LoginResponse } from '../auth/auth';
import { SOCIAL_LOGIN_PROVIDERS, SOCIAL_PROVIDER_ID } from './paths';

/** The `{provider}` path parameter: a built-in provider or a custom provider's id. */
export const SocialProviderParam = z.object({ provider: z.string().regex(SOCIAL_PROVIDER_ID, 'Unknown social login provider') });

/** Where the provider sends the browser back: the login box's socialLoginCallbackUrl on an allowed origin. */
const RedirectUri = z.string().trim().min(1).max(2048);

/** POST .../user/sso/{provider}/prelogin (GET takes the same field as a query parameter). */
export const SocialPreLoginRequest = z.object({ redirectUri: RedirectUri });
export type SocialPreLoginRequest = z.infer<typeof SocialPreLoginRequest>;

/** The provider's authorization URL to send the browser to. */
export const SocialPreLoginResponse = z.object({ url: z.string() });
export type SocialPreLoginResponse = z.infer<typeof SocialPreLoginResponse>;

/**
 * POST .../user/sso/{provider}/postlogin: the authorization response the login box received.
 * Of the seed's token-exchange parameters, `code`, `state`, `redirectUri` and `metadata` are read;
 * the PKCE verifier and the nonce never leave the server, and an ID token is only ever taken from
 * the provider's token endpoint, so `code_verifier`, `code_verifier_pkce` and `id_token` sent by a
 * browser are ignored. `iss` is the RFC 9207 issuer of the response, checked when the provider sends one.
 */
export const SocialPostLoginRequest = z.object({
  code: z.string().min(1).max(4096),
  state: z.string().min(1).max(512),
  redirectUri: RedirectUri.optional(),
  iss: z.string().max(2048).optional(),
  /** JSON text stored as the metadata of a user this sign-in creates (as at sign-up). */
  metadata: z.string().max(8192).optional(),
});
export type SocialPostLoginRequest = z.infer<typeof SocialPostLoginRequest>;

/** Social login result (seed 000 section 3). */
export const SocialLoginResult = z.object({ email: z.string(), isNewUser: z.boolean(), userId: z.string(), tenantId: z.string(), name: z.string() });
export type SocialLoginResult = z.infer<typeof SocialLoginResult>;

/** The postlogin answer: a login response (session, or mfaRequired) plus the social login result. */
export const SocialPostLoginResponse = LoginResponse.extend(SocialLoginResult.shape);
export type SocialPostLoginResponse = z.infer<typeof SocialPostLoginResponse> & Record<string, unknown>;

/** GET /identity/resources/sso/v2: the built-in providers; never a client secret. */
export const SocialProvidersV2Response = z.array(z.object({ type: z.enum(SOCIAL_LOGIN_PROVIDERS), active: z.boolean(), displayName: z.string() }));
export type SocialProvidersV2Response = z.infer<typeof SocialProvidersV2Response>;

/** GET /identity/resources/sso/custom/v1: the custom providers; never a client secret. */
export const CustomSocialProvidersResponse = z.object({
  providers: z.array(z.object({ id: z.string(), type: z.literal('custom'), displayName: z.string(), active: z.boolean() })),
});
export type CustomSocialProvidersResponse = z.infer<typeof CustomSocialProvidersResponse>;
