/**
 * An OAuth 2.0 authorization request (RFC 6749 section 4.1, OIDC Core 3.1.2.1, RFC 7636 PKCE),
 * checked before anything else happens: the client and its redirect URI first (an error page, never a
 * redirect to an unregistered URI), then every other parameter (an error redirect to the client).
 */
import { ErrorCodes, type ErrorCode } from '@gatehouse/shared/wire';
import { AppError } from '../../errors';
import { isRegisteredUri, type ClientRegistry, type OAuthClient } from './clients';
import { LOGIN_AFTER } from './reauthentication';

export const SUPPORTED_SCOPES = ['openid', 'email', 'profile', 'offline_access'] as const;
export const PROMPTS = new Set(['none', 'login', 'consent', 'select_account']);
/** BASE64URL(SHA-256(verifier)): always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** Query or form parameters; a repeated parameter is a list (and refused, RFC 6749 section 3.1). */
export type OAuthParams = Record<string, string | string[] | undefined>;

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  scope: string;
  state?: string;
  nonce?: string;
  codeChallenge: string;
  prompt: string[];
  /** OIDC max_age: the sign-in must be at most this many seconds old. */
  maxAge?: number;
  /** LOGIN_AFTER of a request coming back from the login page, unchecked (see `loginAfterOf`). */
  loginAfter?: string;
  tenantId?: string;
}

export const pageError = (message: string, code: ErrorCode = ErrorCodes.validation) => new AppError(code, 400, message);

/** One value per name; a repeated parameter makes the request invalid. */
export function single(params: OAuthParams): { values: Record<string, string | undefined>; repeated: string[] } {
  const values: Record<string, string | undefined> = {};
  const repeated: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) {
      if (value.length > 1) repeated.push(name);
      values[name] = value[0];
    } else values[name] = value;
  }
  return { values, repeated };
}

export function responseUrl(issuer: string, redirectUri: string, params: Record<string, string | undefined>, withIssuer = true): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  // RFC 9207: the issuer in the response defends clients against mix-up attacks.
  if (withIssuer) url.searchParams.set('iss', issuer);
  return url.href;
}

export const errorRedirect = (issuer: string, req: Pick<AuthorizationRequest, 'redirectUri' | 'state'>, error: string, description: string) =>
  responseUrl(issuer, req.redirectUri, { error, error_description: description, state: req.state });

/** Checks an authorization request: the client and redirect URI first (an error page), then the rest (an error redirect). */
export async function checkAuthorizationRequest(clients: ClientRegistry, issuer: string, params: OAuthParams): Promise<{ page: AppError } | { redirect: string } | { request: AuthorizationRequest }> {
  const { values: p, repeated } = single(params);
  const client = await clients.find(p.client_id);
  if (!client || repeated.includes('client_id')) return { page: pageError('This application is not registered with Gatehouse (unknown client_id).', ErrorCodes.oauthInvalidClient) };
  if (!p.redirect_uri || repeated.includes('redirect_uri') || !isRegisteredUri(client, p.redirect_uri, 'redirect')) {
    return { page: pageError('The redirect_uri is not registered for this application, so Gatehouse will not send you there.', ErrorCodes.oauthInvalidRedirectUri) };
  }
  const base = { redirectUri: p.redirect_uri, state: p.state };
  const fail = (error: string, description: string) => ({ redirect: errorRedirect(issuer, base, error, description) });
  if (repeated.length) return fail('invalid_request', `Parameters must not be repeated: ${repeated.join(', ')}`);
  if (p.request !== undefined) return fail('request_not_supported', 'The request parameter is not supported');
  if (p.request_uri !== undefined) return fail('request_uri_not_supported', 'The request_uri parameter is not supported');
  if (p.response_type !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported');
  if (p.response_mode !== undefined && p.response_mode !== 'query') return fail('invalid_request', 'Only response_mode=query is supported');
  if ((p.state?.length ?? 0) > 512 || (p.nonce?.length ?? 0) > 512) return fail('invalid_request', 'state and nonce must be at most 512 characters');
  const requested = (p.scope ?? '').split(' ').filter(Boolean);
  if (!requested.includes('openid')) return fail('invalid_scope', 'scope must include openid');
  const scope = SUPPORTED_SCOPES.filter((s) => requested.includes(s)).join(' ');
  if (!p.code_challenge) return fail('invalid_request', 'code_challenge is required (PKCE with S256)');
  if (p.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256; plain is not accepted');
  if (!S256_CHALLENGE.test(p.code_challenge)) return fail('invalid_request', 'code_challenge must be the 43-character BASE64URL SHA-256 of the code_verifier');
  const prompt = (p.prompt ?? '').split(' ').filter(Boolean);
  if (prompt.some((v) => !PROMPTS.has(v))) return fail('invalid_request', 'prompt may be none, login, consent or select_account');
  if (prompt.includes('none') && prompt.length > 1) return fail('invalid_request', 'prompt=none cannot be combined with other values');
  if (p.max_age !== undefined && !/^\d{1,10}$/.test(p.max_age)) return fail('invalid_request', 'max_age must be a non-negative whole number of seconds');
  const maxAge = p.max_age === undefined ? undefined : Number(p.max_age);
  const loginAfter = p[LOGIN_AFTER] || undefined;
  // `organization` names the tenant too (seed 000 section 7.2); both given must agree.
  if (p.tenantId && p.organization && p.tenantId !== p.organization) return fail('invalid_request', 'tenantId and organization name different tenants');
  const tenantId = p.tenantId || p.organization || undefined;
  if (tenantId && tenantId.length > 64) return fail('invalid_request', 'tenantId is too long');
  return { request: { client, redirectUri: p.redirect_uri, scope, state: p.state, nonce: p.nonce, codeChallenge: p.code_challenge, prompt, maxAge, loginAfter, tenantId } };
}

/** The request's own parameters as a query (without LOGIN_AFTER, which only Gatehouse sets). */
export function requestQuery(params: OAuthParams): URLSearchParams {
  const query = new URLSearchParams(Object.entries(single(params).values).filter((e): e is [string, string] => e[1] !== undefined));
  query.delete(LOGIN_AFTER);
  return query;
}
