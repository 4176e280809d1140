/**
 * Hosted login: Gatehouse as an OAuth 2.0 / OpenID Connect authorization server (seed 000 sections
 * 1, 4.10, 7.1, 7.2). Authorization code with PKCE S256 only, single-use 60-second codes whose replay
 * revokes what they issued, rotated refresh tokens whose replay revokes the grant, ID tokens signed
 * with the server's keys, userinfo, silent authorization and RP-initiated logout.
 *
 * A browser's Gatehouse session (the `sessions` row of a sign-in in the login box) is the single
 * sign-on session; every code exchange makes a grant, a session of its own (the tokens' `sid`) tied
 * to it, so a grant can be revoked alone and ends when the browser session ends.
 */
import { compactVerify, createLocalJWKSet, type JWTPayload } from 'jose';
import { ErrorCodes, HOSTED_LOGIN_SCOPE, HOSTED_ROUTES_PREFIX, OAuthPaths, SecurityErrorCodes, type OAuthTokenResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newSecret, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { findImpersonationBySession } from '../../db/queries/impersonations';
import { findLiveGrant, findOAuthBrowserSession, findOAuthGrant, insertOAuthBrowserSession, insertOAuthCode, revokeGrantsOfBrowserSession } from '../../db/queries/oauth';
import { findRefreshToken, findSession, revokeSession, touchSession, type SessionRow } from '../../db/queries/sessions';
import { isMember } from '../../db/queries/tenants';
import { findUserById, updateUser } from '../../db/queries/users';
import { AppError, isAppError } from '../../errors';
import type { ApiTokenService } from '../admin/api-tokens';
import type { AuthContext, AuthService } from '../auth/auth';
import { AuditActions, recordUserAudit } from '../admin/audit-log';
import { SignInMethods } from '../auth/sign-in-methods';
import type { KeyService } from '../platform/keys';
import { UNKNOWN_CLIENT, type RateLimiter } from '../platform/rate-limit';
import type { SessionPolicyService } from '../security/session-policy';
import type { IpRestrictionService } from '../security/ip-restrictions';
import { isClientOrigin, isRegisteredUri, type ClientRegistry, type OAuthClient } from './clients';
import { clientCredentialsGrant, CODE_TTL_MS, createGrants, OAuthError, slowDown } from './grants';
import { checkAuthorizationRequest, errorRedirect, pageError, PROMPTS, requestQuery, responseUrl, single, SUPPORTED_SCOPES, type AuthorizationRequest, type OAuthParams } from './authorization-request';
import { createLoginAfterMarkers, LOGIN_AFTER } from './reauthentication';
import { sessionMeetsMfaPolicy, type SecurityPolicyService } from '../security/policies';
import { NOT_ASSIGNED_MESSAGE, notAssigned, type ApplicationAccess } from '../applications/access';

export { CODE_TTL_MS, OAuthError, s256 } from './grants';
export { SUPPORTED_SCOPES, type AuthorizationRequest, type OAuthParams } from './authorization-request';

/** The login redirect carries the whole request in `redirectUrl`, which the browser core caps at 2048. */
const MAX_LOGIN_REDIRECT = 2048;
/**
 * Where a signed-in browser is asked to sign in again (prompt=login, max_age): a page whose
 * confirmation POST clears this browser's cookies and shows the login page. A GET never signs out.
 */
export const REAUTHENTICATE_PATH = '/oauth/authorize/reauthenticate';

/** What GET /oauth/authorize answers. */
export type AuthorizeOutcome =
  /** The client or its redirect URI cannot be trusted: an error page, never a redirect. */
  | { kind: 'page'; error: AppError }
  /** To the client's redirect URI, with `code` or `error`, `state` and `iss`. */
  | { kind: 'redirect'; url: string }
  /** To the hosted login page. */
  | { kind: 'login'; url: string };

/** What the page asking a signed-in browser to sign in again answers (REAUTHENTICATE_PATH). */
export type ReauthenticateOutcome =
  | { kind: 'page'; error: AppError }
  | { kind: 'redirect'; url: string }
  /** The question; `cancelUrl` answers the application login_required. */
  | { kind: 'confirm'; cancelUrl: string }
  /** Confirmed: the browser's cookies go, and the login page asks for a sign-in. */
  | { kind: 'login'; url: string };

export type LogoutOutcome =
  | { kind: 'page'; error: AppError }
  /**
   * The user confirms first (OIDC RP-Initiated Logout 1.0 section 2): no id_token_hint proves the
   * application asked, or the hint names another user than the one signed in to this browser.
   */
  | { kind: 'confirm' }
  | { kind: 'done'; redirect?: string };

export interface OAuthService {
  clients: ClientRegistry;
  discovery(): Record<string, unknown>;
  authorize(params: OAuthParams, browserCookie: string | undefined, ip: string | null): Promise<AuthorizeOutcome>;
  /** The hosted page carries on a request once signed in; returns where to go and the browser-session cookie to set. */
  completeAuthorize(params: OAuthParams, ctx: AuthContext, ip: string | null): Promise<{ redirectUrl: string; browserCookie?: string }>;
  /** REAUTHENTICATE_PATH: the question (GET), or its confirmation (the POST of the page itself). */
  reauthenticate(params: OAuthParams, confirmed: boolean, cookies?: { browserCookie?: string; refreshCookie?: string }): Promise<ReauthenticateOutcome>;
  silent(clientId: string, refreshCookie: string | undefined, origin: string | undefined, ip: string | null): Promise<OAuthTokenResponse>;
  token(form: OAuthParams, basic: { id: string; secret: string } | null, ip: string | null): Promise<{ body: OAuthTokenResponse; client: Pick<OAuthClient, 'clientId'> }>;
  userinfo(authorization: string | undefined, ip: string | null): Promise<Record<string, unknown>>;
  logout(input: { params: OAuthParams; browserCookie?: string; refreshCookie?: string; confirmed: boolean }): Promise<LogoutOutcome>;
  /** Whether a browser page on `origin` may read the token endpoint's answers for this client. */
  corsAllowed(clientId: string | undefined, origin: string): Promise<boolean>;
}

export function createOAuthService(deps: {
  db: Db;
  clock: Clock;
  keys: KeyService;
  auth: AuthService;
  limiter: RateLimiter;
  clients: ClientRegistry;
  config: Pick<Config, 'publicUrl' | 'clientId' | 'signingAlg' | 'accessTokenTtl'>;
  /** API tokens of type ClientCredentials, for the client_credentials grant. */
  apiTokens?: ApiTokenService;
  /** The tenant's MFA policy (issue 12): a browser session that does not meet it signs in again before a code is issued. */
  policies?: Pick<SecurityPolicyService, 'effective'>;
  /** The tenant's sessions policy, at every refresh of a grant. */
  sessionPolicy?: Pick<SessionPolicyService, 'endIfExpired'>;
  /** The tenant's IP restrictions, at /oauth/authorize, /oauth/token and userinfo (403 ER-IP-RESTRICTED). */
  ipRestrictions?: Pick<IpRestrictionService, 'assertAllowed'>;
  /** Applications (issue 15): a client linked to a MANAGED_ACCESS application serves only the users assigned to it. */
  applicationAccess?: ApplicationAccess;
}): OAuthService {
  const { db, clock, keys, auth, limiter, clients, config } = deps;
  const issuer = config.publicUrl;
  const { liveSession, createGrant, issueTokens, authenticateClient, codeGrant, refreshGrant } = createGrants({ db, clock, keys, auth, clients, config, sessionPolicy: deps.sessionPolicy, ipRestrictions: deps.ipRestrictions, policies: deps.policies, applicationAccess: deps.applicationAccess });

  /**
   * Whether the browser session's sign-in meets, as it is now, the MFA policy of the tenant the code
   * would be for: the one the request names (`tenantId`, `organization`), else the session's. A
   * sign-in without MFA to one tenant is no way into another of the user's that forces it.
   */
  async function meetsMfaPolicy(session: SessionRow, req: Pick<AuthorizationRequest, 'tenantId'>): Promise<boolean> {
    if (!deps.policies) return true;
    return sessionMeetsMfaPolicy((await deps.policies.effective(req.tenantId || session.tenant_id)).mfa, JSON.parse(session.amr) as string[]);
  }

  const { recentEnough, signLoginAfter, loginAfterOf } = createLoginAfterMarkers({ keys, clock, issuer });

  /** The hosted login page, which comes back to /oauth/authorize with the same request once signed in. */
  async function loginPage(params: OAuthParams, req: AuthorizationRequest): Promise<{ kind: 'login' | 'redirect'; url: string }> {
    const query = requestQuery(params);
    if (req.prompt.includes('login') || req.maxAge !== undefined) query.set(LOGIN_AFTER, await signLoginAfter(req));
    const back = `${OAuthPaths.authorize}?${query.toString()}`;
    if (back.length > MAX_LOGIN_REDIRECT) return { kind: 'redirect', url: errorRedirect(issuer, req, 'invalid_request', 'The authorization request is too long') };
    return { kind: 'login', url: `${issuer}${HOSTED_ROUTES_PREFIX}/account/login?redirectUrl=${encodeURIComponent(back)}` };
  }

  const reauthenticateUrl = (params: OAuthParams) => `${issuer}${REAUTHENTICATE_PATH}?${requestQuery(params).toString()}`;

  /** The browser session of the `/oauth` cookie, if it is still live. */
  async function sessionOfBrowserCookie(token: string | undefined): Promise<SessionRow | null> {
    if (!token) return null;
    const row = await findOAuthBrowserSession(db, sha256(token));
    return row && row.expires_at > clock.now() ? withinSessionPolicy(await liveSession(row.session_id)) : null;
  }

  /** The session, unless the tenant's sessions policy ends it now (idle too long, signed in too long ago): then it is revoked, and the browser must sign in again. */
  async function withinSessionPolicy(session: SessionRow | null): Promise<SessionRow | null> {
    if (!session || !deps.sessionPolicy) return session;
    return (await deps.sessionPolicy.endIfExpired(session, session.tenant_id)) ? null : session;
  }

  /**
   * The browser session of the refresh cookie, read without spending it: a rotated (used) token is
   * simply no session here, so a tab refreshing at the same moment never trips replay detection.
   */
  async function sessionOfRefreshCookie(token: string | undefined): Promise<SessionRow | null> {
    if (!token) return null;
    const row = await findRefreshToken(db, sha256(token));
    if (!row || row.used_at !== null || row.expires_at <= clock.now()) return null;
    const session = await withinSessionPolicy(await liveSession(row.session_id));
    return session && !(await findOAuthGrant(db, session.id)) ? session : null;
  }

  /** Hosted login hands tokens to another application: never from an impersonation session (its tokens would lose `act`). */
  const impersonating = async (session: SessionRow) => Boolean(await findImpersonationBySession(db, session.id));

  /** Throws 403 ER-IP-RESTRICTED when the tenant's IP restrictions keep `ip` out. */
  async function issueCode(req: AuthorizationRequest, browser: SessionRow, ip: string | null): Promise<string> {
    if (await impersonating(browser)) return errorRedirect(issuer, req, 'access_denied', 'Hosted login is not available while impersonating a user');
    let tenantId = browser.tenant_id;
    if (req.tenantId && req.tenantId !== tenantId) {
      if (!(await isMember(db, browser.user_id, req.tenantId))) return errorRedirect(issuer, req, 'access_denied', 'The user is not a member of the requested tenant');
      tenantId = req.tenantId;
    }
    await deps.ipRestrictions?.assertAllowed(tenantId, ip);
    if (deps.applicationAccess && !(await deps.applicationAccess.allowed(req.client.clientId, browser.user_id, tenantId))) return errorRedirect(issuer, req, 'access_denied', NOT_ASSIGNED_MESSAGE);
    const code = newSecret();
    const now = clock.now();
    await insertOAuthCode(db, {
      code_hash: sha256(code),
      client_id: req.client.clientId,
      redirect_uri: req.redirectUri,
      code_challenge: req.codeChallenge,
      scope: req.scope,
      nonce: req.nonce ?? null,
      user_id: browser.user_id,
      browser_session_id: browser.id,
      tenant_id: tenantId,
      created_at: now,
      expires_at: now + CODE_TTL_MS,
      used_at: null,
      reused_at: null,
      issued_session_id: null,
    });
    return responseUrl(issuer, req.redirectUri, { code, state: req.state });
  }

  async function verifyIdTokenHint(token: string): Promise<JWTPayload | null> {
    try {
      // Signature and issuer only: an expired ID token is still a fine hint (OIDC RP-Initiated Logout section 2).
      const { payload } = await compactVerify(token, createLocalJWKSet(await keys.jwks()), { algorithms: ['ES256', 'RS256'] });
      const claims = JSON.parse(new TextDecoder().decode(payload)) as JWTPayload;
      const aud = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
      // An access token (audience: the API) is not an ID token.
      if (claims.iss !== issuer || typeof aud !== 'string' || aud === config.clientId || typeof claims.sub !== 'string') return null;
      return claims;
    } catch {
      return null;
    }
  }

  const origin = new URL(issuer).origin;

  return {
    clients,

    discovery() {
      return {
        issuer,
        authorization_endpoint: `${issuer}${OAuthPaths.authorize}`,
        token_endpoint: `${issuer}${OAuthPaths.token}`,
        userinfo_endpoint: `${issuer}${OAuthPaths.userinfo}`,
        jwks_uri: `${issuer}/.well-known/jwks.json`,
        end_session_endpoint: `${issuer}${OAuthPaths.logout}`,
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token', ...(deps.apiTokens ? ['client_credentials'] : [])],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: [config.signingAlg],
        scopes_supported: [...SUPPORTED_SCOPES],
        claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'acr', 'amr', 'sid', 'azp', 'email', 'email_verified', 'name', 'preferred_username'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
        prompt_values_supported: [...PROMPTS],
        authorization_response_iss_parameter_supported: true,
        request_parameter_supported: false,
        request_uri_parameter_supported: false,
        claims_parameter_supported: false,
      };
    },

    async authorize(params, browserCookie, ip) {
      try {
        await limiter.consume('oauthAuthorizePerIp', ip ?? UNKNOWN_CLIENT);
      } catch (err) {
        return { kind: 'page', error: err as AppError };
      }
      const checked = await checkAuthorizationRequest(clients, issuer, params);
      if ('page' in checked) return { kind: 'page', error: checked.page };
      if ('redirect' in checked) return { kind: 'redirect', url: checked.redirect };
      const req = checked.request;
      const browser = await sessionOfBrowserCookie(browserCookie);
      // On a GET, LOGIN_AFTER is never taken from the query: only a sign-in shown by Gatehouse counts.
      // A sign-in from before the tenant forced MFA (or without it) is not enough either: it signs in again.
      const recent = browser !== null && recentEnough(req, browser, undefined) && (await meetsMfaPolicy(browser, req));
      // A network the tenant's IP restrictions keep out gets the refusal's page, not a code.
      const codeFor = async (session: SessionRow): Promise<AuthorizeOutcome> => {
        try {
          return { kind: 'redirect', url: await issueCode(req, session, ip) };
        } catch (err) {
          if (isAppError(err) && err.code === SecurityErrorCodes.ipRestricted) return { kind: 'page', error: err };
          throw err;
        }
      };
      if (req.prompt.includes('none')) {
        return browser && recent ? codeFor(browser) : { kind: 'redirect', url: errorRedirect(issuer, req, 'login_required', browser ? 'The sign-in is older than max_age' : 'The user is not signed in') };
      }
      if (browser && recent) return codeFor(browser);
      // prompt=login or an old sign-in: the user is asked; a cross-site GET alone never signs anyone out.
      if (browser) return { kind: 'redirect', url: reauthenticateUrl(params) };
      return loginPage(params, req);
    },

    async reauthenticate(params, confirmed, cookies = {}) {
      const checked = await checkAuthorizationRequest(clients, issuer, params);
      if ('page' in checked) return { kind: 'page', error: checked.page };
      if ('redirect' in checked) return { kind: 'redirect', url: checked.redirect };
      const req = checked.request;
      if (!confirmed) return { kind: 'confirm', cancelUrl: errorRedirect(issuer, req, 'login_required', 'The user did not sign in again') };
      // "Sign in again" replaces the sign-in: the old browser session ends on the server (with the
      // grants made from it), not only its cookies, so tokens already issued from it stop working.
      const browser = (await sessionOfBrowserCookie(cookies.browserCookie)) ?? (await sessionOfRefreshCookie(cookies.refreshCookie));
      if (browser) {
        const now = clock.now();
        await revokeSession(db, browser.id, now);
        await revokeGrantsOfBrowserSession(db, browser.id, now);
      }
      return loginPage(params, req);
    },

    async completeAuthorize(params, ctx, ip) {
      await limiter.consume('oauthAuthorizePerIp', ip ?? UNKNOWN_CLIENT);
      const checked = await checkAuthorizationRequest(clients, issuer, params);
      if ('page' in checked) throw checked.page;
      if ('redirect' in checked) return { redirectUrl: checked.redirect };
      if (await findOAuthGrant(db, ctx.sessionId)) throw new AppError(ErrorCodes.oauthNotBrowserSession, 403, 'Only a sign-in on the hosted login page can authorize an application');
      const browser = await liveSession(ctx.sessionId);
      if (!browser) throw new AppError(ErrorCodes.unauthorized, 401, 'Unauthorized');
      // Signed in before this request asked for a new sign-in (prompt=login, max_age): ask the user.
      if (!recentEnough(checked.request, browser, await loginAfterOf(checked.request))) return { redirectUrl: reauthenticateUrl(params) };
      if (!(await meetsMfaPolicy(browser, checked.request))) {
        // Another tenant of the user asked for (from the hosted page, not a cross-site GET): the sign-in
        // asked for next lands there, so that tenant's MFA policy asks for the second factor.
        const wanted = checked.request.tenantId;
        if (wanted && wanted !== browser.tenant_id && (await isMember(db, browser.user_id, wanted))) await updateUser(db, browser.user_id, { last_tenant_id: wanted });
        return { redirectUrl: reauthenticateUrl(params) };
      }
      const redirectUrl = await issueCode(checked.request, browser, ip);
      // From now on GET /oauth/authorize recognises this browser without the page (prompt=none works too).
      const browserCookie = newSecret();
      const now = clock.now();
      await insertOAuthBrowserSession(db, { token_hash: sha256(browserCookie), session_id: browser.id, created_at: now, expires_at: browser.expires_at });
      return { redirectUrl, browserCookie };
    },

    async silent(clientId, refreshCookie, requestOrigin, ip) {
      await limiter.consume('oauthAuthorizePerIp', ip ?? UNKNOWN_CLIENT);
      const client = await clients.find(clientId);
      if (!client || client.secretHash !== null) throw new AppError(ErrorCodes.oauthInvalidClient, 400, 'Silent authorization is for registered public clients only');
      if (requestOrigin !== origin && (!requestOrigin || !isClientOrigin(client, requestOrigin))) {
        throw new AppError(ErrorCodes.originNotAllowed, 403, "This page's origin is not one of the application's redirect URIs");
      }
      const browser = await sessionOfRefreshCookie(refreshCookie);
      if (!browser) throw new AppError(ErrorCodes.oauthLoginRequired, 401, 'Not signed in; sign in on the hosted login page');
      if (await impersonating(browser)) throw new AppError(ErrorCodes.oauthNotBrowserSession, 403, 'Hosted login is not available while impersonating a user');
      // Tokens from the browser's session, as a refresh would give: the tenant's IP restrictions first.
      await deps.ipRestrictions?.assertAllowed(browser.tenant_id, ip);
      const assigned = async (tenantId: string) => !deps.applicationAccess || (await deps.applicationAccess.allowed(client.clientId, browser.user_id, tenantId));
      const now = clock.now();
      const existing = await findLiveGrant(db, browser.id, client.clientId, now);
      const found = existing ? await findSession(db, existing.session_id) : undefined;
      if (!(await assigned(found?.tenant_id ?? browser.tenant_id))) throw notAssigned();
      const grant = found || (await createGrant(browser, client, HOSTED_LOGIN_SCOPE, browser.tenant_id));
      if (grant.tenant_id !== browser.tenant_id) await deps.ipRestrictions?.assertAllowed(grant.tenant_id, ip);
      await touchSession(db, grant.id, now);
      // No refresh token: silent never spends the refresh cookie, so a refresh token here would be a
      // grant that outlives a stolen cookie's rotation. Every renewal comes back here instead.
      return issueTokens(grant, client, existing?.scope ?? HOSTED_LOGIN_SCOPE, { refreshToken: false });
    },

    async token(params, basic, ip) {
      // Failures only (every credential here is a 128-bit or longer secret, so the limit bounds abuse,
      // not guessing): a call first reads the window, and every refused call is counted before it is
      // answered, so a success writes nothing here and failures stop every process on the database.
      const counted = ip ?? UNKNOWN_CLIENT;
      await slowDown(limiter.assertBelowLimit('oauthTokenPerIp', counted));
      try {
        const { values: form, repeated } = single(params);
        if (repeated.length) throw new OAuthError('invalid_request', `Parameters must not be repeated: ${repeated.join(', ')}`);
        if (form.grant_type === 'client_credentials' && deps.apiTokens) return { body: await clientCredentialsGrant(deps.apiTokens, form, basic, ip), client: { clientId: basic?.id ?? form.client_id ?? '' } };
        const client = await authenticateClient(form, basic);
        if (form.grant_type === 'authorization_code') return { body: await codeGrant(form, client, ip), client };
        if (form.grant_type === 'refresh_token') return { body: await refreshGrant(form, client, ip), client };
        throw new OAuthError(form.grant_type ? 'unsupported_grant_type' : 'invalid_request', form.grant_type ? 'Only authorization_code, refresh_token and client_credentials are supported' : 'grant_type is required');
      } catch (err) {
        await slowDown(limiter.consume('oauthTokenPerIp', counted));
        throw err;
      }
    },

    async userinfo(authorization, ip) {
      let ctx: AuthContext;
      try {
        ctx = await auth.authenticate(authorization, undefined, { ip });
      } catch (err) {
        if (isAppError(err) && err.code === SecurityErrorCodes.ipRestricted) throw err;
        throw new OAuthError('invalid_token', 'The access token is invalid, expired or revoked', 401);
      }
      const grant = await findOAuthGrant(db, ctx.sessionId);
      const user = await findUserById(db, ctx.userId);
      if (!grant || !user) throw new OAuthError('invalid_token', 'The access token was not issued by hosted login', 401);
      const scopes = grant.scope.split(' ');
      return {
        sub: user.id,
        ...(scopes.includes('email') ? { ...(user.email ? { email: user.email } : {}), email_verified: user.email !== null && user.verified === 1 } : {}),
        ...(scopes.includes('profile') ? { name: user.name, ...(user.username ? { preferred_username: user.username } : {}) } : {}),
      };
    },

    async logout({ params, browserCookie, refreshCookie, confirmed }) {
      const { values: p, repeated } = single(params);
      if (repeated.length) return { kind: 'page', error: pageError(`Parameters must not be repeated: ${repeated.join(', ')}`) };
      const hint = p.id_token_hint ? await verifyIdTokenHint(p.id_token_hint) : null;
      if (p.id_token_hint && !hint) return { kind: 'page', error: pageError('The id_token_hint is not an ID token issued by this server.') };
      const hintClient = hint ? (Array.isArray(hint.aud) ? hint.aud[0] : hint.aud) : undefined;
      if (p.client_id && hintClient && p.client_id !== hintClient) return { kind: 'page', error: pageError('client_id does not match the id_token_hint.', ErrorCodes.oauthInvalidClient) };
      const clientId = p.client_id ?? hintClient;
      const client = clientId ? await clients.find(clientId) : null;
      if (clientId && !client) return { kind: 'page', error: pageError('This application is not registered with Gatehouse (unknown client_id).', ErrorCodes.oauthInvalidClient) };
      const target = p.post_logout_redirect_uri;
      if (target !== undefined) {
        if (!client) return { kind: 'page', error: pageError('post_logout_redirect_uri needs client_id or id_token_hint to say which application asks.', ErrorCodes.oauthInvalidRedirectUri) };
        if (!isRegisteredUri(client, target, 'postLogout')) {
          return { kind: 'page', error: pageError('The post_logout_redirect_uri is not registered for this application, so Gatehouse will not send you there.', ErrorCodes.oauthInvalidRedirectUri) };
        }
      }
      const ending = new Set<string>();
      if (hint && typeof hint.sid === 'string') {
        const grant = await findOAuthGrant(db, hint.sid);
        if (grant && grant.user_id === hint.sub) ending.add(grant.session_id).add(grant.browser_session_id);
      }
      const browser = (await sessionOfBrowserCookie(browserCookie)) ?? (await sessionOfRefreshCookie(refreshCookie));
      // A hint of another user proves nothing about this browser's user (anyone can get an ID token
      // of their own): only the user's confirmation ends their session and clears their cookies.
      if (browser && hint && browser.user_id !== hint.sub && !confirmed) return { kind: 'confirm' };
      if (browser) ending.add(browser.id);
      if (ending.size && !hint && !confirmed) return { kind: 'confirm' };
      const now = clock.now();
      for (const id of ending) {
        const revoked = await revokeSession(db, id, now);
        await revokeGrantsOfBrowserSession(db, id, now);
        const user = revoked && browser?.id === id ? await findUserById(db, browser.user_id) : undefined;
        if (user && browser) {
          await recordUserAudit(db, user, { ip: null }, { action: AuditActions.signedOut, description: `Signed out with ${SignInMethods.hostedLogin}`, json: { sessionId: id, clientId: clientId ?? null } }, now, browser.tenant_id);
        }
      }
      return { kind: 'done', redirect: target !== undefined ? responseUrl(issuer, target, { state: p.state }, false) : undefined };
    },

    async corsAllowed(clientId, requestOrigin) {
      const client = await clients.find(clientId);
      return Boolean(client && client.secretHash === null && isClientOrigin(client, requestOrigin));
    },
  };
}
