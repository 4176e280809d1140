import { AuthContextClasses, AuthMethods, ENTITLEMENTS_CLAIM, ErrorCodes, SecurityErrorCodes, type AccessTokenClaims, type LoginRequest, type LoginResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId, newSecret, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { findRefreshToken, findRefreshTokenSession, findSession, insertRefreshToken, insertSession, markRefreshTokenUsed, revokeSession, setSessionTenant, touchSession, type SessionRow } from '../../db/queries/sessions';
import { findRequestSession } from '../../db/queries/session-auth';
import { hasAnyMembership, isMember, listUserTenants, membershipEnded, type TenantRow } from '../../db/queries/tenants';
import { revokeTenantSessions } from '../../db/queries/admin-users';
import { findImpersonationBySession } from '../../db/queries/impersonations';
import { findOAuthGrant } from '../../db/queries/oauth';
import { findUserByEmail, findUserById, findUserByUsername, updateUser, type UserRow } from '../../db/queries/users';
import { findLiveUserToken } from '../../db/queries/one-time-tokens';
import { AppError, Errors, isAppError } from '../../errors';
import { AuditActions, recordUserAudit, type AuditSeverity } from '../admin/audit-log';
import { methodOfAmr, secondFactorOfAmr, SignInMethods } from './sign-in-methods';
import type { KeyService } from '../platform/keys';
import { accountLockedError, type PasswordPolicyService } from './password-policies';
import { verifyPassword } from '../platform/passwords';
import { UNKNOWN_CLIENT, type RateLimiter } from '../platform/rate-limit';
import { loadAuthorization } from '../admin/tenants';
import type { SessionPolicyService } from '../security/session-policy';
import type { IpRestrictionService } from '../security/ip-restrictions';
import { sessionMeetsMfaPolicy, type SecurityPolicyService } from '../security/policies';
import type { EntitlementsService } from '../entitlements';

/** Authentication method reference and context class for a password sign-in (claims amr/acr). */
export const AMR_PASSWORD = AuthMethods.password;
export const ACR_PASSWORD = AuthContextClasses.password;

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

const impersonationPinned = () => new AppError(ErrorCodes.notWhileImpersonating, 403, 'An impersonation session cannot switch to another tenant');

const invalidCredentials = () => new AppError(ErrorCodes.invalidCredentials, 401, 'Invalid email or password');
/**
 * The right password of an account whose email is not verified yet (told only to someone who typed
 * the right password). The activation email can be sent again (activate/reset).
 */
export const userNotVerifiedError = () =>
  new AppError(ErrorCodes.userNotVerified, 400, 'Please verify your email address first: open the activation link we sent you, or ask for a new one', { resendActivation: true });
/** one_time_tokens.purpose of an activation link (services/users/signup.ts). */
const ACTIVATION = 'activation';
const invalidRefresh = () => new AppError(ErrorCodes.invalidRefreshToken, 401, 'Session expired, please sign in again');

/**
 * The failure counter of a sign-in: the account's id when it exists (so its email and username share
 * one counter), else the typed identifier, normalized. Unknown identifiers are limited just like real
 * accounts, so the answers never tell whether an account exists.
 */
function failureKey(body: LoginRequest, user: UserRow | undefined): string {
  if (user) return `user:${user.id}`;
  return body.email ? `email:${body.email.trim().toLowerCase()}` : `username:${(body.username ?? '').trim().toLowerCase()}`;
}

export function createAuthService(deps: {
  db: Db;
  keys: KeyService;
  clock: Clock;
  limiter: RateLimiter;
  /** Asked after the password is proven: a pending-MFA answer (no session) replaces the sign-in, null lets it through. */
  secondFactor?: (user: UserRow, client: ClientInfo) => Promise<IssuedSession | null>;
  /** Lockout, rotation and breached-password policies around the password check. */
  policies?: PasswordPolicyService;
  /** The tenant's sessions policy: the concurrent-session limit at every new session, idle timeout and forced re-login at refresh. */
  sessionPolicy?: Pick<SessionPolicyService, 'checkSession' | 'afterSessionStarted'>;
  /** The tenant's IP restrictions, at every new session, refresh, tenant switch and signed-in call. */
  ipRestrictions?: Pick<IpRestrictionService, 'assertAllowed'>;
  /** The tenants' MFA policies: a session moving into another tenant (switch, refresh, `?tenantId=`) must meet that tenant's. */
  mfaPolicy?: Pick<SecurityPolicyService, 'effective'>;
  /** The compact entitlements every access token carries (claim ENTITLEMENTS_CLAIM), computed at each issue and refresh. */
  entitlements?: Pick<EntitlementsService, 'tokenClaim'>;
  config: Pick<Config, 'accessTokenTtl' | 'refreshTokenTtl'>;
}): AuthService {
  const { db, keys, clock, limiter, config } = deps;

  /**
   * Refuses (403 ER-01307) a session whose sign-in does not meet the MFA policy of `tenantId`, the
   * tenant it moves into: a sign-in without MFA to a tenant that does not force it is no way into
   * one that does.
   */
  async function assertMeetsMfaPolicy(tenantId: string, amr: string): Promise<void> {
    if (!deps.mfaPolicy) return;
    const { mfa } = await deps.mfaPolicy.effective(tenantId);
    if (sessionMeetsMfaPolicy(mfa, JSON.parse(amr) as string[])) return;
    throw new AppError(ErrorCodes.stepUpRequired, 403, 'This account requires multi-factor authentication: verify with your second factor, or sign in to it again', { tenantId });
  }

  /**
   * An application's session (a hosted-login grant) stays in the tenant its grant was issued for,
   * where its access to a MANAGED_ACCESS application was checked: it changes account through its
   * refresh token, which checks the assignment again.
   */
  async function assertNotGrant(sessionId: string): Promise<void> {
    if (await findOAuthGrant(db, sessionId)) throw Errors.forbidden("An application's session cannot switch to another account here: refresh its token with the account's tenantId");
  }

  /**
   * `known`: the session's impersonation and hosted-login grant when the caller has read them already
   * (a refresh reads them with its token), so they are not read again.
   */
  async function accessToken(
    user: UserRow,
    session: SessionRow,
    tenantId: string,
    notAfter = Infinity,
    known?: { actor: { impersonator_id: string } | null; grantClientId: string | null; tenants?: TenantRow[] },
  ): Promise<LoginResponse> {
    const tenants = known?.tenants ?? (await listUserTenants(db, user.id, clock.now()));
    const authz = await loadAuthorization(db, user.id, tenantId);
    // Impersonation (RFC 8693 `act`): the token names the impersonator, lists only the session's
    // tenant, and dies with the (short) session.
    const actor = known ? known.actor : await findImpersonationBySession(db, session.id);
    const actorEmail = actor ? (await findUserById(db, actor.impersonator_id))?.email : undefined;
    // A hosted-login grant's session: the token names its client (RFC 9068 client_id), so the API
    // of a MANAGED_ACCESS application can refuse tokens issued to the login box or to other clients.
    const grant = known ? (known.grantClientId === null ? undefined : { client_id: known.grantClientId }) : await findOAuthGrant(db, session.id);
    const expiresAt = Math.min(clock.now() + config.accessTokenTtl * 1000, actor ? session.expires_at : Infinity, notAfter);
    const capped = expiresAt < clock.now() + config.accessTokenTtl * 1000;
    const claims = {
      ...(actor ? { act: { sub: actor.impersonator_id, ...(actorEmail ? { email: actorEmail } : {}) } } : {}),
      sub: user.id,
      // An account made by phone sign-up has no email: no email claim, and email_verified false.
      ...(user.email ? { email: user.email } : {}),
      email_verified: user.email !== null && user.verified === 1,
      name: user.name,
      tenantId,
      tenantIds: actor ? [tenantId] : tenants.map((t) => t.id),
      roles: authz.roles.map((r) => r.key),
      permissions: authz.permissions.map((p) => p.key),
      amr: JSON.parse(session.amr) as string[],
      // The session's amr decides: a second factor (sign-in or step-up) raises it to the MFA class.
      acr: (JSON.parse(session.amr) as string[]).includes(AuthMethods.mfa) ? AuthContextClasses.mfa : ACR_PASSWORD,
      auth_time: Math.floor(session.auth_time / 1000),
      sid: session.id,
      superUser: user.super_user === 1,
      ...(grant ? { client_id: grant.client_id } : {}),
    };
    // Evaluated with the token's own claims, so rules on jwt.* see what the token will say; left
    // out when empty to keep tokens small.
    const entitled = await deps.entitlements?.tokenClaim({ userId: user.id, tenantId, email: user.email, emailVerified: claims.email_verified, claims });
    const token = await keys.sign(entitled && Object.keys(entitled.f).length > 0 ? { ...claims, [ENTITLEMENTS_CLAIM]: entitled } : claims, expiresAt);
    return {
      accessToken: token,
      expiresIn: capped ? Math.max(0, Math.floor((expiresAt - clock.now()) / 1000)) : config.accessTokenTtl,
      expires: new Date(expiresAt).toISOString(),
      mfaRequired: false,
      tenantId,
      userId: user.id,
    };
  }

  async function newRefreshToken(sessionId: string): Promise<string> {
    const token = newSecret();
    const now = clock.now();
    await insertRefreshToken(db, { token_hash: sha256(token), session_id: sessionId, created_at: now, expires_at: now + config.refreshTokenTtl * 1000, used_at: null });
    return token;
  }

  /** `tenants`: the user's active memberships when the caller has read them already. */
  async function activeTenantFor(user: UserRow, tenants?: TenantRow[]): Promise<string> {
    tenants ??= await listUserTenants(db, user.id, clock.now());
    const preferred = tenants.find((t) => t.id === user.last_tenant_id) ?? tenants[0];
    // Memberships an admin disabled, locked or let expire (migration 016) do not count.
    if (!preferred && (await hasAnyMembership(db, user.id))) throw new AppError(ErrorCodes.userDisabled, 403, 'User is disabled');
    if (!preferred) throw new AppError(ErrorCodes.tenantNotFound, 403, 'User has no tenant');
    return preferred.id;
  }

  async function startSession(user: UserRow, client: ClientInfo, amr: string[] = [AMR_PASSWORD], options: SessionOptions = {}): Promise<IssuedSession> {
    const now = clock.now();
    // Read once: the tenant the session lands in, and the token's tenant list.
    const tenants = await listUserTenants(db, user.id, now);
    const tenantId = options.tenantId ?? (await activeTenantFor(user, tenants));
    const session: SessionRow = {
      id: newId(),
      user_id: user.id,
      tenant_id: tenantId,
      user_agent: client.userAgent?.slice(0, 512) ?? null,
      ip: client.ip,
      created_at: now,
      last_used_at: now,
      expires_at: now + Math.min(options.ttlSeconds ?? config.refreshTokenTtl, config.refreshTokenTtl) * 1000,
      revoked_at: null,
      auth_time: now,
      amr: JSON.stringify(amr),
      login_origin: client.loginOrigin ?? 'direct',
    };
    const method = options.method ?? client.signInMethod ?? methodOfAmr(amr) ?? 'unknown method';
    // Every sign-in method ends here (password, passwordless, SMS, passkey, social, SSO, MFA,
    // activation): a network the tenant's IP restrictions keep out gets no session, and the
    // tenant's admins see the attempt (the user was proven, so it is theirs to know).
    try {
      await deps.ipRestrictions?.assertAllowed(tenantId, client.ip);
    } catch (err) {
      if (isAppError(err) && err.code === SecurityErrorCodes.ipRestricted) {
        await recordUserAudit(
          db,
          user,
          client,
          {
            action: AuditActions.signInFailed,
            description: `Sign-in with ${method} refused: the network ${client.ip ?? '(unknown)'} is not allowed by the IP restrictions`,
            severity: 'High',
            json: { method, reason: 'ip restricted', ip: client.ip },
          },
          now,
          tenantId,
        );
      }
      throw err;
    }
    const secondFactor = secondFactorOfAmr(amr);
    const refreshToken = newSecret();
    // The session, its refresh token, the last sign-in and the audit record: all kept, or none (one commit).
    await db.transaction().execute(async (trx) => {
      await insertSession(trx, session);
      await insertRefreshToken(trx, { token_hash: sha256(refreshToken), session_id: session.id, created_at: now, expires_at: now + config.refreshTokenTtl * 1000, used_at: null });
      // An impersonation is recorded by the impersonation service: the user did not sign in.
      if (options.impersonation) return;
      await updateUser(trx, user.id, { last_login: now });
      await recordUserAudit(
        trx,
        user,
        client,
        {
          action: AuditActions.signedIn,
          description: `Signed in with ${method}${secondFactor ? ` and ${secondFactor}` : ''}`,
          json: { method, ...(secondFactor ? { secondFactor } : {}), loginOrigin: session.login_origin, sessionId: session.id },
        },
        now,
        tenantId,
      );
    });
    if (options.impersonation) await options.impersonation.link(session.id);
    // Every sign-in method ends here: beyond the tenant's concurrent-session limit, the user's oldest sessions there end.
    else await deps.sessionPolicy?.afterSessionStarted(user.id, tenantId);
    // A session made just now has no hosted-login grant (grants make their own sessions), and an
    // impersonation only when this call linked one: neither needs reading.
    const known = options.impersonation ? undefined : { actor: null, grantClientId: null, tenants };
    return { response: await accessToken(user, session, tenantId, Infinity, known), refreshToken };
  }

  /** The audit record of a refused sign-in of a known account (an unknown one writes nothing anywhere). */
  async function signInFailed(user: UserRow | undefined, client: ClientInfo, reason: string, severity: AuditSeverity = 'Info'): Promise<void> {
    if (!user) return;
    const method = client.signInMethod ?? SignInMethods.password;
    await recordUserAudit(db, user, client, { action: AuditActions.signInFailed, description: `Sign-in with ${method} failed: ${reason}`, severity, json: { method, reason } }, clock.now());
  }

  /**
   * The argon2 hash a password sign-in is checked against: the account's, or, for an account still
   * waiting for activation (no password yet), the one its live sign-up chose (on the activation
   * token). One hash either way, so timing tells nothing more than the answer.
   */
  async function passwordHashOf(user: UserRow | undefined): Promise<{ hash: string | null | undefined; pending: boolean }> {
    if (!user || user.password_hash || user.verified === 1) return { hash: user?.password_hash, pending: false };
    const token = await findLiveUserToken(db, user.id, ACTIVATION, clock.now());
    return { hash: token?.pending_password_hash ?? null, pending: Boolean(token?.pending_password_hash) };
  }

  /** A used refresh token came back: someone holds a copy. Ends the session (the whole family) and says so. */
  async function refreshTokenReused(session: SessionRow, client: ClientInfo, now: number): Promise<never> {
    // The tenant's admins are told in the same transaction (once, however many copies come back).
    await db.transaction().execute(async (trx) => {
      if (!(await revokeSession(trx, session.id, now))) return;
      const owner = await findUserById(trx, session.user_id);
      if (owner) {
        await recordUserAudit(
          trx,
          owner,
          client,
          { action: AuditActions.refreshTokenReused, description: 'A refresh token was used twice; the session was revoked', severity: 'High', json: { sessionId: session.id } },
          now,
          session.tenant_id,
        );
      }
    });
    throw new AppError(ErrorCodes.refreshTokenReused, 401, 'Refresh token was already used; the session has been revoked');
  }

  /**
   * One refresh (issue 17): the token, its session, membership, impersonation and grant in one read;
   * every check; then the rotation in one transaction whose first statement is the compare-and-swap
   * on the token (used_at still null), so of two uses of one token, in any processes, exactly one
   * wins and the other is a reuse. Checks that ran after the token was spent before still spend it
   * when they refuse.
   */
  async function rotate(refreshToken: string | undefined, tenantId: string | undefined, client: ClientInfo): Promise<IssuedSession> {
    if (!refreshToken) throw invalidRefresh();
    const hash = sha256(refreshToken);
    const now = clock.now();
    const found = await findRefreshTokenSession(db, hash, now);
    if (!found) throw invalidRefresh();
    const { token: row, session, membership, impersonation: impersonated } = found;
    if (session.revoked_at !== null || session.expires_at <= now || row.expires_at <= now) throw invalidRefresh();
    // Idle too long, or signed in longer ago than the tenant's forced re-login allows: the session ends.
    await deps.sessionPolicy?.checkSession(session, session.tenant_id);
    // The session's temporary membership has ended: its sessions there end with it, as on a disable.
    if (membershipEnded(membership.expiresAt, now)) {
      await revokeTenantSessions(db, session.tenant_id, session.user_id, now);
      throw invalidRefresh();
    }
    // An impersonation session stays in its tenant (no way into the target's other tenants).
    if (impersonated && tenantId && tenantId !== session.tenant_id) throw impersonationPinned();
    // Checked before the token is spent, so a bad tenantId does not sign the user out.
    if (tenantId && tenantId !== session.tenant_id && !(await isMember(db, session.user_id, tenantId, now))) {
      throw new AppError(ErrorCodes.tenantNotFound, 404, 'Tenant not found');
    }
    // Checked before the token is spent: a refused network keeps its session for an allowed one.
    await deps.ipRestrictions?.assertAllowed(tenantId ?? session.tenant_id, client.ip);
    // Into another tenant: its MFA policy must be met by the session's sign-in (before the token is spent too).
    if (tenantId && tenantId !== session.tenant_id) await assertMeetsMfaPolicy(tenantId, session.amr);
    if (row.used_at !== null) return refreshTokenReused(session, client, now);

    // From here on a refusal spends the token, as it always has (the user signs in again).
    let user: UserRow;
    let activeTenant = session.tenant_id;
    try {
      const owner = await findUserById(db, session.user_id);
      if (!owner || owner.disabled === 1) {
        await revokeSession(db, session.id, now);
        throw invalidRefresh();
      }
      user = owner;
      if (tenantId && tenantId !== activeTenant) {
        activeTenant = tenantId;
      } else if (!membership.active) {
        // Removed from the session's tenant since sign-in: never mint another token for it.
        if (impersonated) {
          await revokeSession(db, session.id, now);
          throw invalidRefresh();
        }
        activeTenant = await activeTenantFor(user);
      }
      if (activeTenant !== (tenantId ?? session.tenant_id)) {
        await deps.ipRestrictions?.assertAllowed(activeTenant, client.ip);
        await assertMeetsMfaPolicy(activeTenant, session.amr);
      }
      // Into another tenant: its sessions policy must let the session in too.
      if (activeTenant !== session.tenant_id) await deps.sessionPolicy?.checkSession(session, activeTenant);
    } catch (err) {
      if (!(await markRefreshTokenUsed(db, hash, now))) await refreshTokenReused(session, client, now);
      throw err;
    }

    const next = newSecret();
    const rotated = await db.transaction().execute(async (trx) => {
      // First statement of the transaction: it takes the write lock (SQLite) or the row (PostgreSQL) at once.
      if (!(await markRefreshTokenUsed(trx, hash, now))) return false;
      if (tenantId && tenantId !== session.tenant_id) await updateUser(trx, user.id, { last_tenant_id: tenantId });
      await touchSession(trx, session.id, now, activeTenant);
      await insertRefreshToken(trx, { token_hash: sha256(next), session_id: session.id, created_at: now, expires_at: now + config.refreshTokenTtl * 1000, used_at: null });
      return true;
    });
    if (!rotated) return refreshTokenReused(session, client, now);
    // Moved in, it counts against the tenant's concurrent-session limit like a sign-in there.
    if (activeTenant !== session.tenant_id) await deps.sessionPolicy?.afterSessionStarted(user.id, activeTenant, session.id);
    const known = { actor: impersonated ?? null, grantClientId: found.grantClientId };
    return { response: await accessToken(user, { ...session, tenant_id: activeTenant }, activeTenant, Infinity, known), refreshToken: next };
  }

  return {
    startSession,

    async sessionToken(sessionId) {
      const session = await findSession(db, sessionId);
      const user = session ? await findUserById(db, session.user_id) : undefined;
      if (!session || !user || session.revoked_at !== null || user.disabled === 1) throw Errors.unauthorized();
      return accessToken(user, session, session.tenant_id);
    },

    async meToken(ctx) {
      await limiter.consume('refreshPerIp', ctx.client?.ip ?? UNKNOWN_CLIENT);
      const now = clock.now();
      const session = await findSession(db, ctx.sessionId);
      const user = await findUserById(db, ctx.userId);
      if (!session || !user || session.revoked_at !== null || session.expires_at <= now || user.disabled === 1) throw Errors.unauthorized();
      // An application's session stays in the tenant its grant was issued for (where its access to a
      // MANAGED_ACCESS application was checked): it changes account through its refresh token, which
      // checks the assignment again.
      if (ctx.tenantId !== session.tenant_id) await assertNotGrant(session.id);
      // Idle too long, or signed in longer ago than the tenant's forced re-login allows: no new token.
      await deps.sessionPolicy?.checkSession(session, ctx.tenantId);
      return accessToken(user, session, ctx.tenantId, ctx.claims.exp * 1000);
    },

    async login(body, client) {
      await limiter.consume('loginPerIp', client.ip ?? UNKNOWN_CLIENT);
      const user = body.email ? await findUserByEmail(db, body.email) : await findUserByUsername(db, body.username ?? '');
      // Counted as a failure before the password is checked, so parallel guesses cannot all slip in
      // under the limit, and a locked account costs no argon2 work; a right password clears it below.
      const failures = failureKey(body, user);
      let window: { count: number; limit: number };
      try {
        window = await limiter.consume('loginFailuresPerAccount', failures);
      } catch (err) {
        if (isAppError(err) && err.status === 429) await signInFailed(user, client, 'too many failed attempts, blocked for a while', 'High');
        throw err;
      }
      if (user?.locked_at != null) await signInFailed(user, client, 'the account is locked', 'High');
      deps.policies?.assertNotLocked(user);
      const { hash, pending } = await passwordHashOf(user);
      const ok = await verifyPassword(hash, body.password);
      if (user && !ok) {
        const lockout = await deps.policies?.recordFailure(user, client);
        // High once the wrong passwords reach the lockout window: the policy's threshold, or the last
        // attempt the per-account limit allows.
        const reached = window.count >= window.limit || Boolean(lockout?.reachedThreshold);
        await signInFailed(user, client, lockout?.locked ? 'wrong password; the account is now locked' : 'wrong password', reached ? 'High' : 'Info');
        if (lockout?.locked) throw accountLockedError();
      }
      if (!user || !ok) throw invalidCredentials();
      await limiter.reset('loginFailuresPerAccount', failures);
      // Verification and disabled state are told only to someone who knows the password.
      if (pending || user.verified !== 1) {
        await signInFailed(user, client, 'the email address is not verified');
        throw userNotVerifiedError();
      }
      if (user.disabled === 1) {
        await signInFailed(user, client, 'the user is disabled');
        throw new AppError(ErrorCodes.userDisabled, 403, 'User is disabled');
      }
      // Expired or breached: no session, and no second factor asked for a password that must be replaced first.
      const policy = await deps.policies?.afterPassword(user, body.password);
      if (policy?.blocked) return policy.blocked;
      const signingIn: ClientInfo = { ...client, signInMethod: client.signInMethod ?? SignInMethods.password };
      const pendingMfa = await deps.secondFactor?.(user, signingIn);
      if (pendingMfa) return pendingMfa;
      const issued = await startSession(user, signingIn);
      return policy?.notice ? { ...issued, response: { ...issued.response, passwordRotation: policy.notice } } : issued;
    },

    async refresh(refreshToken, tenantId, client) {
      // Failures only (a refresh token is a 256-bit secret: the limit bounds abuse, not guessing): a
      // refresh reads the window, and every refused one is counted before it is answered, so the
      // count agrees across processes without a write per success.
      const counted = client.ip ?? UNKNOWN_CLIENT;
      await limiter.assertBelowLimit('refreshPerIp', counted);
      try {
        return await rotate(refreshToken, tenantId, client);
      } catch (err) {
        await limiter.consume('refreshPerIp', counted);
        throw err;
      }
    },

    async logout(refreshToken, client = { ip: null, userAgent: null }) {
      if (!refreshToken) return;
      const row = await findRefreshToken(db, sha256(refreshToken));
      if (!row) return;
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        if (!(await revokeSession(trx, row.session_id, now))) return;
        const session = await findSession(trx, row.session_id);
        const user = session ? await findUserById(trx, session.user_id) : undefined;
        if (!session || !user) return;
        // An impersonation session is the admin's: the record names the admin as the one who signed out.
        const impersonation = await findImpersonationBySession(trx, session.id);
        const actor = impersonation ? await findUserById(trx, impersonation.impersonator_id) : undefined;
        if (impersonation && actor) {
          await recordUserAudit(
            trx,
            actor,
            client,
            { action: AuditActions.signedOut, description: `Stopped acting as ${user.email ?? user.name}`, json: { sessionId: session.id, impersonationId: impersonation.id, targetUserId: user.id } },
            now,
            impersonation.tenant_id,
          );
          return;
        }
        await recordUserAudit(trx, user, client, { action: AuditActions.signedOut, description: 'Signed out', json: { sessionId: session.id } }, now, session.tenant_id);
      });
    },

    async authenticate(authorization, scopedTenantId, client) {
      const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
      if (!match) throw Errors.unauthorized();
      let claims: AccessTokenClaims;
      try {
        claims = (await keys.verify(match[1]!)) as unknown as AccessTokenClaims;
      } catch {
        throw Errors.unauthorized();
      }
      // Access tokens die with their session (logout, reuse detection), not only at exp.
      const session = claims.sid ? await findRequestSession(db, claims.sid, claims.tenantId) : undefined;
      if (!session || session.revoked_at !== null || session.user_id !== claims.sub) throw Errors.unauthorized();
      // ...and with the temporary membership they were minted for. A disable, lock or removal revokes
      // the tenant's sessions when the admin acts; an expiry has no such moment, so its first use does.
      if (membershipEnded(session.membership_expires_at, clock.now())) {
        await revokeTenantSessions(db, claims.tenantId, claims.sub, clock.now());
        throw Errors.unauthorized();
      }
      let tenantId = claims.tenantId;
      let tenantIds = claims.tenantIds ?? [claims.tenantId];
      if (scopedTenantId && scopedTenantId !== tenantId) {
        if (claims.act) throw impersonationPinned();
        // Membership is re-read: the token's list may predate a removal.
        if (!(await isMember(db, claims.sub, scopedTenantId, clock.now()))) throw new AppError(ErrorCodes.tenantNotFound, 404, 'Tenant not found');
        tenantId = scopedTenantId;
        tenantIds = (await listUserTenants(db, claims.sub, clock.now())).map((t) => t.id);
        await assertMeetsMfaPolicy(tenantId, session.amr);
      }
      // The token's tenant's IP restrictions switch came with the session: off (or never set), nothing more to read.
      if (tenantId !== claims.tenantId || Number(session.ip_restrictions_active) === 1) await deps.ipRestrictions?.assertAllowed(tenantId, client.ip);
      return { userId: claims.sub, sessionId: session.id, tenantId, tenantIds, claims };
    },

    async switchTenant(ctx, tenantId) {
      if (ctx.claims.act && tenantId !== ctx.tenantId) throw impersonationPinned();
      if (!(await isMember(db, ctx.userId, tenantId, clock.now()))) throw new AppError(ErrorCodes.tenantNotFound, 404, 'Tenant not found');
      await deps.ipRestrictions?.assertAllowed(tenantId, ctx.client?.ip ?? null);
      const user = await findUserById(db, ctx.userId);
      const session = await findSession(db, ctx.sessionId);
      if (!user || !session) throw Errors.unauthorized();
      if (tenantId !== session.tenant_id) await assertNotGrant(session.id);
      // The tenant switched into: its sessions policy must let the session in too.
      await deps.sessionPolicy?.checkSession(session, tenantId);
      try {
        await assertMeetsMfaPolicy(tenantId, session.amr);
      } catch (err) {
        // Asked for by the user: their next sign-in lands there, and its MFA policy asks for the second factor.
        if (tenantId !== ctx.tenantId) await updateUser(db, user.id, { last_tenant_id: tenantId });
        throw err;
      }
      await setSessionTenant(db, session.id, tenantId);
      await updateUser(db, user.id, { last_tenant_id: tenantId });
      // Moved in, it counts against the tenant's concurrent-session limit like a sign-in there.
      if (tenantId !== session.tenant_id) await deps.sessionPolicy?.afterSessionStarted(user.id, tenantId, session.id);
      return accessToken(user, { ...session, tenant_id: tenantId }, tenantId);
    },
  };
}
