import { z } from 'zod';

const param = z.string().max(2048).optional();

/**
 * POST /identity/resources/auth/v1/oauth/authorize: the hosted page sends the query of the
 * `/oauth/authorize` request it carries on, once the browser is signed in (Bearer access token).
 * The server validates it exactly as it validates the GET.
 */
export const AuthorizeCompletionRequest = z.object({
  client_id: param,
  redirect_uri: param,
  response_type: param,
  response_mode: param,
  scope: param,
  state: param,
  nonce: param,
  code_challenge: param,
  code_challenge_method: param,
  prompt: param,
  tenantId: param,
  organization: param,
  login_hint: param,
  max_age: param,
  /** Set by Gatehouse on the way back from the login page (prompt=login, max_age): when that page was shown, signed by the server and bound to this request (a forged or moved one counts for nothing). */
  login_after: param,
  request: param,
  request_uri: param,
});
export type AuthorizeCompletionRequest = z.infer<typeof AuthorizeCompletionRequest>;

/** Where the browser goes next: the client's redirect URI with `code` (or `error`), `state` and `iss`. */
export const AuthorizeCompletionResponse = z.object({ redirectUrl: z.string() });
export type AuthorizeCompletionResponse = z.infer<typeof AuthorizeCompletionResponse>;

/** POST /identity/resources/auth/v1/oauth/authorize/silent: tokens for a public client from the browser's session. */
export const SilentAuthorizeRequest = z.object({ clientId: z.string().min(1).max(128) });
export type SilentAuthorizeRequest = z.infer<typeof SilentAuthorizeRequest>;

/** RFC 6749 section 5.1 token response (also the answer of silent authorization). */
export const OAuthTokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  id_token: z.string().optional(),
  refresh_token: z.string().optional(),
  scope: z.string(),
});
export type OAuthTokenResponse = z.infer<typeof OAuthTokenResponse>;

/** RFC 6749 section 5.2 error body of the token, userinfo and silent endpoints. */
export const OAuthErrorResponse = z.object({ error: z.string(), error_description: z.string().optional() });
export type OAuthErrorResponse = z.infer<typeof OAuthErrorResponse>;
