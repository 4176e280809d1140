import { ErrorCodes, SecurityErrorCodes, type AccessTokenClaims, type LoginRequest } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId, newSecret, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { findRefreshToken, findSession, insertRefreshToken, insertSession, revokeSession, setSessionTenant, type SessionRow } from '../../db/queries/sessions';
import { findRequestSession } from '../../db/queries/session-auth';
import { hasAnyMembership, isMember, listUserTenants, membershipEnded, type TenantRow } from '../../db/queries/tenants';
import { tenantsOfUser } from '../users/memberships';
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
import type { SessionPolicyService } from '../security/session-policy';
import type { IpRestrictionService } from '../security/ip-restrictions';
import { sessionMeetsMfaPolicy, type SecurityPolicyService } from '../security/policies';
import type { EntitlementsService } from '../entitlements';
import { AMR_PASSWORD, createAccessTokens } from './access-token';
import { createRefreshRotation, impersonationPinned } from './refresh';
import type { AuthService, ClientInfo, IssuedSession, SessionOptions } from './types';

export { AMR_PASSWORD, ACR_PASSWORD } from './access-token';
export type { AuthContext, AuthService, ClientInfo, IssuedSession, RequestClient, SessionOptions } from './types';

const invalidCredentials = () => new AppError(ErrorCodes.invalidCredentials, 401, 'Invalid email or password');
/**
 * The right password of an account whose email is not verified yet (told only to someone who typed
 * the right password). The activation email can be sent again (activate/reset).
 */
export const userNotVerifiedError = () =>
  new AppError(ErrorCodes.userNotVerified, 400, 'Please verify your email address first: open the activation link we sent you, or ask for a new one', { resendActivation: true });
/** one_time_tokens.purpose of an activation link (services/users/signup.ts). */
const ACTIVATION = 'activation';

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
  const accessToken = createAccessTokens({ db, keys, clock, entitlements: deps.entitlements, config });
  const { rotate } = createRefreshRotation({ db, clock, config, sessionPolicy: deps.sessionPolicy, ipRestrictions: deps.ipRestrictions, accessToken, activeTenantFor, assertMeetsMfaPolicy });

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

  /** `tenants`: the user's active memberships when the caller has read them already. */
  async function activeTenantFor(user: UserRow, tenants?: readonly TenantRow[]): Promise<string> {
    tenants ??= await tenantsOfUser(db, user, clock.now());
    const preferred = tenants.find((t) => t.id === user.last_tenant_id) ?? tenants[0];
    // Memberships an admin disabled, locked or let expire (migration 016) do not count.
    if (!preferred && (await hasAnyMembership(db, user.id))) throw new AppError(ErrorCodes.userDisabled, 403, 'User is disabled');
    if (!preferred) throw new AppError(ErrorCodes.tenantNotFound, 403, 'User has no tenant');
    return preferred.id;
  }

  async function startSession(user: UserRow, client: ClientInfo, amr: string[] = [AMR_PASSWORD], options: SessionOptions = {}): Promise<IssuedSession> {
    const now = clock.now();
    // Read once: the tenant the session lands in, and the token's tenant list.
    const tenants = await tenantsOfUser(db, user, now);
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
      // The window is read with the token, in one statement, and judged before anything else; a
      // refresh refused for the limit is not counted again (nor was it when the window was read alone).
      const counted = client.ip ?? UNKNOWN_CLIENT;
      if (!refreshToken) await limiter.assertBelowLimit('refreshPerIp', counted);
      let overLimit = false;
      const rateLimit = {
        key: limiter.windowKey('refreshPerIp', counted),
        admit(window: { count: number; window_start: number } | undefined) {
          try {
            limiter.assertWindowBelowLimit('refreshPerIp', window);
          } catch (err) {
            overLimit = true;
            throw err;
          }
        },
      };
      try {
        return await rotate(refreshToken, tenantId, client, rateLimit);
      } catch (err) {
        if (!overLimit) await limiter.consume('refreshPerIp', counted);
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
