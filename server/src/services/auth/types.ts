/** The shapes the authentication service speaks in (services/auth/auth.ts and its parts). */
import type { AccessTokenClaims, LoginRequest, LoginResponse } from '@gatehouse/shared/wire';
import type { UserRow } from '../../db/queries/users';

/** Where a request came from; kept on the session for the sessions list. */
export interface ClientInfo {
  userAgent: string | null;
  ip: string | null;
  /** The remember-this-device cookie (MFA), if the browser sent one. */
  mfaRememberToken?: string;
  /** Where emailed links (the unlock link) point: the asking page's allowed origin, else the app URL. */
  appUrl?: string;
  /** How the sign-in began (seed 000 section 2.2): social-login, custom-social-login; direct when unset. Kept on the session. */
  loginOrigin?: string;
  /** How the user proved themselves (SignInMethods), for the audit record of the sign-in; derived from amr when unset. */
  signInMethod?: string;
  /** The protocol of an SSO sign-in: the MFA policy ForceExceptSAML exempts SAML only (issue 12). */
  ssoProtocol?: 'saml' | 'oidc';
  /** The language the request asks for (emails to a user without a stored locale). */
  locale?: string;
}

/** Where any request came from: its IP, user agent and the language it asks for (for audit records and emails). */
export interface RequestClient {
  ip: string | null;
  userAgent: string | null;
  /** The supported locale the request asks for (X-Gatehouse-Locale, else Accept-Language), if any. */
  locale?: string;
}

/** A signed-in call: who, which session, and the tenant it acts in (token tenant or scoped). */
export interface AuthContext {
  userId: string;
  sessionId: string;
  tenantId: string;
  tenantIds: string[];
  claims: AccessTokenClaims;
  /** The request's client, set by the HTTP layer (requireAuth). */
  client?: RequestClient;
}

/** A LoginResponse plus the refresh token the HTTP layer puts into the cookie. */
export interface IssuedSession {
  response: LoginResponse;
  refreshToken: string;
}

export interface AuthService {
  login(body: LoginRequest, client: ClientInfo): Promise<IssuedSession>;
  /** Starts a session for a user already proven (activation auto sign-in). */
  startSession(user: UserRow, client: ClientInfo, amr?: string[], options?: SessionOptions): Promise<IssuedSession>;
  refresh(refreshToken: string | undefined, tenantId: string | undefined, client: Pick<ClientInfo, 'ip' | 'userAgent'>): Promise<IssuedSession>;
  logout(refreshToken: string | undefined, client?: Pick<ClientInfo, 'ip' | 'userAgent'>): Promise<void>;
  /**
   * Verifies a bearer access token, and that the tenant it acts in lets `client.ip` in (the tenant's
   * IP restrictions: 403 ER-IP-RESTRICTED), so every signed-in call of a member is checked.
   */
  authenticate(authorization: string | undefined, scopedTenantId: string | undefined, client: { ip: string | null }): Promise<AuthContext>;
  switchTenant(ctx: AuthContext, tenantId: string): Promise<LoginResponse>;
  /** A fresh access token for a session as stored now (after an MFA step-up changed its amr). */
  sessionToken(sessionId: string): Promise<LoginResponse>;
  /**
   * POST users/v3/me/token: a fresh access token of the caller's session in `ctx.tenantId` (whose
   * membership, MFA policy and IP restrictions `authenticate` checked), its claims read now. The
   * session's active tenant and refresh token are left alone, and the token expires no later than
   * the one presented (`ctx.claims.exp`), so an access token can never prolong itself.
   */
  meToken(ctx: AuthContext): Promise<LoginResponse>;
}

/** How a session differs from a plain sign-in's. */
export interface SessionOptions {
  /** The tenant the session acts in (default: the user's last, else first, tenant). */
  tenantId?: string;
  /** A lifetime shorter than REFRESH_TOKEN_TTL, in seconds. */
  ttlSeconds?: number;
  /**
   * An impersonation session: `link` records it (impersonations.session_id) before the first token is
   * signed, so every token of the session carries `act` and stays in its tenant. The user's last
   * sign-in is left alone: they did not sign in.
   */
  impersonation?: { link(sessionId: string): Promise<void> };
  /** How the user proved themselves, for the audit record (SignInMethods); else the client's, else derived from amr. */
  method?: string;
}
