/**
 * Grants of hosted login: a code exchange or a refresh makes (or renews) a grant, a session of its
 * own tied to the browser's Gatehouse session, and answers the RFC 6749 token response: the API's
 * access token, an ID token for the client and a rotated refresh token.
 */
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { SecurityErrorCodes, type OAuthTokenResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId, newSecret, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { findOAuthCode, findOAuthGrant, findOAuthRefreshToken, insertOAuthGrant, insertOAuthRefreshToken, markOAuthCodeReused, markOAuthRefreshTokenUsed, redeemOAuthCode } from '../../db/queries/oauth';
import { findSession, insertSession, revokeSession, setSessionTenant, touchSession, type SessionRow } from '../../db/queries/sessions';
import { isMember, listUserTenants } from '../../db/queries/tenants';
import { findUserById } from '../../db/queries/users';
import { isAppError } from '../../errors';
import type { ApiTokenService } from '../admin/api-tokens';
import type { AuthService } from '../auth/auth';
import { AuditActions, recordUserAudit } from '../admin/audit-log';
import { SignInMethods } from '../auth/sign-in-methods';
import type { KeyService } from '../platform/keys';
import type { SessionPolicyService } from '../security/session-policy';
import type { IpRestrictionService } from '../security/ip-restrictions';
import { sessionMeetsMfaPolicy, type SecurityPolicyService } from '../security/policies';
import { verifyClientSecret, type ClientRegistry, type OAuthClient } from './clients';
import { NOT_ASSIGNED_MESSAGE, type ApplicationAccess } from '../applications/access';

/** Authorization codes live at most this long (the task's bound: 60 s). */
export const CODE_TTL_MS = 60_000;
/** RFC 7636: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** An error of the token, userinfo or silent endpoints, in the RFC 6749 section 5.2 shape. */
export class OAuthError extends Error {
  override name = 'OAuthError';
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

/** BASE64URL(SHA-256(verifier)), RFC 7636 section 4.2. */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export interface Grants {
  /** A live session of an enabled user, or null. */
  liveSession(id: string | undefined): Promise<SessionRow | null>;
  createGrant(browser: SessionRow, client: OAuthClient, scope: string, tenantId: string, id?: string): Promise<SessionRow>;
  /** `refreshToken: false` leaves the refresh token out (silent authorization, which the refresh cookie must vouch for each time). */
  issueTokens(grant: SessionRow, client: OAuthClient, scope: string, options?: { nonce?: string; refreshToken?: boolean }): Promise<OAuthTokenResponse>;
  /** RFC 6749 section 2.3.1: Basic or form credentials for a confidential client; none for a public one. */
  authenticateClient(form: Record<string, string | undefined>, basic: { id: string; secret: string } | null): Promise<OAuthClient>;
  /** `ip`: the caller's address, which the tenant's IP restrictions must let in. */
  codeGrant(form: Record<string, string | undefined>, client: OAuthClient, ip: string | null): Promise<OAuthTokenResponse>;
  refreshGrant(form: Record<string, string | undefined>, client: OAuthClient, ip: string | null): Promise<OAuthTokenResponse>;
}

export function createGrants(deps: {
  db: Db;
  clock: Clock;
  keys: KeyService;
  auth: AuthService;
  clients: ClientRegistry;
  config: Pick<Config, 'accessTokenTtl'>;
  /** The tenant's sessions policy: a refresh of a grant idle too long, or signed in too long ago, ends it. */
  sessionPolicy?: Pick<SessionPolicyService, 'endIfExpired'>;
  /** The tenant's IP restrictions, at every code exchange and refresh (403 ER-IP-RESTRICTED). */
  ipRestrictions?: Pick<IpRestrictionService, 'assertAllowed'>;
  /** The tenants' MFA policies: a grant moved into another tenant must meet that tenant's. */
  policies?: Pick<SecurityPolicyService, 'effective'>;
  /** Applications (issue 15): a client linked to a MANAGED_ACCESS application gets tokens only for the users assigned to it. */
  applicationAccess?: ApplicationAccess;
}): Grants {
  const { db, clock, keys, auth, clients, config } = deps;

  /** Whether the user may have tokens for the client in the tenant (assigned, when its application is MANAGED_ACCESS). */
  const assigned = async (client: OAuthClient, userId: string, tenantId: string) => !deps.applicationAccess || (await deps.applicationAccess.allowed(client.clientId, userId, tenantId));

  /** A live session of an enabled user, or null. */
  async function liveSession(id: string | undefined): Promise<SessionRow | null> {
    if (!id) return null;
    const session = await findSession(db, id);
    if (!session || session.revoked_at !== null || session.expires_at <= clock.now()) return null;
    const user = await findUserById(db, session.user_id);
    return user && user.disabled !== 1 ? session : null;
  }

  /** A grant: a session of its own, copied from the browser session (so auth_time, amr and acr are the sign-in's). */
  async function createGrant(browser: SessionRow, client: OAuthClient, scope: string, tenantId: string, id = newId()): Promise<SessionRow> {
    const now = clock.now();
    const session: SessionRow = { ...browser, id, tenant_id: tenantId, created_at: now, last_used_at: now, revoked_at: null, expires_at: browser.expires_at };
    const user = await findUserById(db, browser.user_id);
    await db.transaction().execute(async (trx) => {
      await insertSession(trx, session);
      await insertOAuthGrant(trx, { session_id: id, client_id: client.clientId, browser_session_id: browser.id, user_id: browser.user_id, scope, created_at: now });
      // The application's sign-in: recorded in the grant's tenant, from where the browser signed in.
      if (user) {
        await recordUserAudit(
          trx,
          user,
          { ip: browser.ip, userAgent: browser.user_agent },
          { action: AuditActions.signedIn, description: `Signed in to ${client.name} with ${SignInMethods.hostedLogin}`, json: { method: SignInMethods.hostedLogin, clientId: client.clientId, sessionId: id } },
          now,
          tenantId,
        );
      }
    });
    return session;
  }

  /** Access token (the API's, `sid` = the grant), ID token for the client, and (unless told not to) a new refresh token. */
  async function issueTokens(grant: SessionRow, client: OAuthClient, scope: string, { nonce, refreshToken: withRefresh = true }: { nonce?: string; refreshToken?: boolean } = {}): Promise<OAuthTokenResponse> {
    const login = await auth.sessionToken(grant.id);
    const user = await findUserById(db, grant.user_id);
    if (!user) throw new OAuthError('invalid_grant', 'The user no longer exists');
    const access = decodeJwt(login.accessToken);
    const scopes = scope.split(' ');
    const now = clock.now();
    const idToken = await keys.sign(
      {
        sub: user.id,
        auth_time: access.auth_time,
        acr: access.acr,
        amr: access.amr,
        sid: grant.id,
        azp: client.clientId,
        ...(nonce ? { nonce } : {}),
        ...(scopes.includes('email') ? { ...(user.email ? { email: user.email } : {}), email_verified: user.email !== null && user.verified === 1 } : {}),
        ...(scopes.includes('profile') ? { name: user.name, ...(user.username ? { preferred_username: user.username } : {}) } : {}),
      },
      now + config.accessTokenTtl * 1000,
      client.clientId,
    );
    const tokens: OAuthTokenResponse = { access_token: login.accessToken, token_type: 'Bearer', expires_in: login.expiresIn, id_token: idToken, scope };
    if (!withRefresh) return tokens;
    const refreshToken = newSecret();
    await insertOAuthRefreshToken(db, { token_hash: sha256(refreshToken), session_id: grant.id, created_at: now, expires_at: grant.expires_at, used_at: null });
    return { ...tokens, refresh_token: refreshToken };
  }

  async function authenticateClient(form: Record<string, string | undefined>, basic: { id: string; secret: string } | null): Promise<OAuthClient> {
    if (basic && form.client_secret !== undefined) throw new OAuthError('invalid_request', 'Use one client authentication method, not two');
    if (basic && form.client_id !== undefined && form.client_id !== basic.id) throw new OAuthError('invalid_request', 'client_id differs from the authenticated client');
    const client = await clients.find(basic?.id ?? form.client_id);
    if (!client) throw new OAuthError('invalid_client', 'Client authentication failed', 401);
    const secret = basic?.secret ?? form.client_secret;
    if (client.secretHash === null) {
      if (secret !== undefined) throw new OAuthError('invalid_client', 'A public client has no secret', 401);
      return client;
    }
    if (!secret || !verifyClientSecret(client, secret)) throw new OAuthError('invalid_client', 'Client authentication failed', 401);
    return client;
  }

  async function codeGrant(form: Record<string, string | undefined>, client: OAuthClient, ip: string | null): Promise<OAuthTokenResponse> {
    const { code, redirect_uri: redirectUri, code_verifier: verifier } = form;
    if (!code || !redirectUri) throw new OAuthError('invalid_request', 'code and redirect_uri are required');
    if (!verifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
    if (!CODE_VERIFIER.test(verifier)) throw new OAuthError('invalid_request', 'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~"');
    const hash = sha256(code);
    const row = await findOAuthCode(db, hash);
    if (!row) throw new OAuthError('invalid_grant', 'The authorization code is invalid');
    const now = clock.now();
    const grantId = newId();
    // Spent before anything is checked: whoever holds a stolen code gets one try, and a replay is seen.
    if (!(await redeemOAuthCode(db, hash, now, grantId))) {
      await markOAuthCodeReused(db, hash, now);
      const spent = await findOAuthCode(db, hash);
      if (spent?.issued_session_id) await revokeSession(db, spent.issued_session_id, now);
      throw new OAuthError('invalid_grant', 'The authorization code was already used; the tokens it issued are revoked');
    }
    if (row.expires_at <= now) throw new OAuthError('invalid_grant', 'The authorization code has expired');
    if (row.client_id !== client.clientId) throw new OAuthError('invalid_grant', 'The authorization code was issued to another client');
    if (row.redirect_uri !== redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request');
    if (!safeEqual(s256(verifier), row.code_challenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
    const browser = await liveSession(row.browser_session_id);
    if (!browser) throw new OAuthError('invalid_grant', 'The sign-in this code came from has ended');
    await deps.ipRestrictions?.assertAllowed(row.tenant_id, ip);
    // Unassigned between the code and its exchange: no tokens.
    if (!(await assigned(client, row.user_id, row.tenant_id))) throw new OAuthError('invalid_grant', NOT_ASSIGNED_MESSAGE);
    const grant = await createGrant(browser, client, row.scope, row.tenant_id, grantId);
    const tokens = await issueTokens(grant, client, row.scope, { nonce: row.nonce ?? undefined });
    // A replay that arrived while the grant was being made revoked nothing yet: revoke it now.
    if ((await findOAuthCode(db, hash))?.reused_at) {
      await revokeSession(db, grant.id, clock.now());
      throw new OAuthError('invalid_grant', 'The authorization code was already used; the tokens it issued are revoked');
    }
    return tokens;
  }

  async function refreshGrant(form: Record<string, string | undefined>, client: OAuthClient, ip: string | null): Promise<OAuthTokenResponse> {
    if (!form.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
    const hash = sha256(form.refresh_token);
    const row = await findOAuthRefreshToken(db, hash);
    const grant = row ? await findOAuthGrant(db, row.session_id) : undefined;
    if (!row || !grant) throw new OAuthError('invalid_grant', 'The refresh token is invalid');
    if (grant.client_id !== client.clientId) throw new OAuthError('invalid_grant', 'The refresh token was issued to another client');
    const now = clock.now();
    const session = await findSession(db, grant.session_id);
    if (!session || session.revoked_at !== null || session.expires_at <= now || row.expires_at <= now) throw new OAuthError('invalid_grant', 'The grant has ended; sign in again');
    // The grant's own last refresh (idle timeout) and the sign-in it was copied from (forced re-login).
    const ended = await deps.sessionPolicy?.endIfExpired(session, session.tenant_id);
    if (ended) {
      const why = ended === 'idle' ? 'was idle longer than the idle timeout' : 'is older than the forced re-login allows';
      throw new OAuthError('invalid_grant', `The session ${why} of the account's sessions policy (${SecurityErrorCodes.sessionExpiredByPolicy}); sign in again`);
    }
    // Before the token is spent: a refused network keeps the grant for an allowed one.
    await deps.ipRestrictions?.assertAllowed(session.tenant_id, ip);
    if (row.used_at !== null || !(await markOAuthRefreshTokenUsed(db, hash, now))) {
      // A used token came back: someone holds a copy. The whole grant goes.
      await revokeSession(db, session.id, now);
      throw new OAuthError('invalid_grant', 'The refresh token was already used; the grant has been revoked');
    }
    if (!(await liveSession(grant.browser_session_id)) || !(await liveSession(session.id))) {
      await revokeSession(db, session.id, now);
      throw new OAuthError('invalid_grant', 'The sign-in behind this grant has ended; sign in again');
    }
    if (form.scope !== undefined) {
      const granted = grant.scope.split(' ');
      if (form.scope.split(' ').some((s) => s && !granted.includes(s))) throw new OAuthError('invalid_scope', 'A refresh cannot widen the granted scope');
    }
    let tenantId = session.tenant_id;
    if (!(await isMember(db, session.user_id, tenantId))) {
      // Removed from the grant's tenant since sign-in: never mint another token for it.
      const other = (await listUserTenants(db, session.user_id))[0];
      if (!other) {
        await revokeSession(db, session.id, now);
        throw new OAuthError('invalid_grant', 'The user has no tenant');
      }
      tenantId = other.id;
      // Moved into another tenant: its IP restrictions decide too.
      await deps.ipRestrictions?.assertAllowed(tenantId, ip);
      // ...and its MFA policy: a sign-in without MFA is no way into a tenant that forces it.
      if (deps.policies && !sessionMeetsMfaPolicy((await deps.policies.effective(tenantId)).mfa, JSON.parse(session.amr) as string[])) {
        await revokeSession(db, session.id, now);
        throw new OAuthError('invalid_grant', "The user's remaining tenant requires multi-factor authentication; sign in again");
      }
      await setSessionTenant(db, session.id, tenantId);
    }
    if (!(await assigned(client, session.user_id, tenantId))) {
      // Unassigned since sign-in (or the application became MANAGED_ACCESS): the grant ends.
      await revokeSession(db, session.id, now);
      throw new OAuthError('invalid_grant', NOT_ASSIGNED_MESSAGE);
    }
    await touchSession(db, session.id, now);
    return issueTokens({ ...session, tenant_id: tenantId }, client, grant.scope);
  }

  return { liveSession, createGrant, issueTokens, authenticateClient, codeGrant, refreshGrant };
}

/** The token endpoint's 429: OAuth's slow_down, carrying the limiter's wait for Retry-After. */
export async function slowDown(check: Promise<unknown>): Promise<void> {
  try {
    await check;
  } catch (err) {
    if (isAppError(err) && err.status === 429) throw Object.assign(new OAuthError('slow_down', err.message, 429), { retryAfterSeconds: err.context?.retryAfterSeconds });
    throw err;
  }
}

/**
 * RFC 6749 section 4.4 for API tokens of type ClientCredentials (issue 5): the token's client id and
 * secret (HTTP Basic or the form, not both) buy an access token carrying the token's tenant, roles and
 * permissions; no refresh token, no ID token.
 */
export async function clientCredentialsGrant(apiTokens: ApiTokenService, form: Record<string, string | undefined>, basic: { id: string; secret: string } | null, ip: string | null): Promise<OAuthTokenResponse> {
  if (basic && form.client_secret !== undefined) throw new OAuthError('invalid_request', 'Use one client authentication method, not two');
  if (basic && form.client_id !== undefined && form.client_id !== basic.id) throw new OAuthError('invalid_request', 'client_id differs from the authenticated client');
  const clientId = basic?.id ?? form.client_id;
  const secret = basic?.secret ?? form.client_secret;
  const issued = clientId && secret ? await apiTokens.exchange(clientId, secret, ip) : null;
  if (!issued) throw new OAuthError('invalid_client', 'Client authentication failed', 401);
  return { access_token: issued.accessToken, token_type: 'Bearer', expires_in: issued.expiresIn, scope: '' };
}
