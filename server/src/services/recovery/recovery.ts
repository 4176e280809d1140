import { randomInt } from 'node:crypto';
import {
  ErrorCodes,
  type ChangePasswordRequest,
  type PasswordRecoveryStrategiesResponse,
  type RecoveryIdentifierType,
  type ResetPasswordSmsVerifyResponse,
  type ResetPasswordVerifyRequest,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newSecret, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { consumeOneTimeToken, findOneTimeToken, insertOneTimeToken, invalidateUserTokens } from '../../db/queries/one-time-tokens';
import { forgetRememberedDevices } from '../../db/queries/mfa-tokens';
import { revokeUserSessions } from '../../db/queries/sessions';
import {
  consumeSmsResetSession,
  countSmsResetAttempt,
  findSmsResetSession,
  findUniqueUserIdByPhone,
  insertSmsResetSession,
  invalidateUserSmsResetSessions,
} from '../../db/queries/sms-reset-sessions';
import { findUserByEmail, findUserById, findUserByUsername, hasEmail, updateUser, type UserRow, type UserWithEmail } from '../../db/queries/users';
import { unlockUser } from '../../db/queries/password-policies';
import { AppError, isAppError } from '../../errors';
import { AMR_PASSWORD } from '../auth/auth';
import type { AuthContext, AuthService, ClientInfo, IssuedSession } from '../auth/auth';
import type { Mailer } from '../messaging/mail';
import type { EmailService } from '../messaging/emails/email-service';
import { lifetimeOf } from '../messaging/emails/templates';
import type { SecurityPolicyService } from '../security/policies';
import { AuditActions, recordUserAudit } from '../admin/audit-log';
import { requireRecentStepUp } from '../auth/recent-auth';
import { SignInMethods } from '../auth/sign-in-methods';
import { listMfaDevices } from '../../db/queries/mfa-devices';
import { refuseWhileImpersonating } from '../admin/permissions';
import { breachedPasswordError } from '../platform/breached-passwords';
import { hashPassword, verifyPassword } from '../platform/passwords';
import { UNKNOWN_CLIENT, type RateLimiter } from '../platform/rate-limit';
import type { SmsSender } from '../messaging/sms';
import { log, reasonOf } from '../../log';

/** one_time_tokens.purpose of a password-reset link (and of the token an SMS code is exchanged for). */
export const RESET_PASSWORD = 'reset-password';
/** Wrong SMS codes allowed per recovery session; then the session is dead. */
export const SMS_CODE_MAX_ATTEMPTS = 5;

const invalidToken = () => new AppError(ErrorCodes.invalidResetToken, 400, 'The password reset link is invalid or has expired');
// One message for a wrong, expired, used, exhausted or made-up session, so no answer tells them apart.
const invalidCode = () => new AppError(ErrorCodes.invalidResetCode, 400, 'The code is invalid or has expired');
const wrongCurrentPassword = () => new AppError(ErrorCodes.invalidCurrentPassword, 400, 'The current password is incorrect');

type Client = Pick<ClientInfo, 'ip' | 'userAgent' | 'locale'>;

export interface RecoveryService {
  /** Which recovery channels are on; the same for every user, so it reveals no account. */
  strategies(): PasswordRecoveryStrategiesResponse;
  /** Emails a reset link to a known, active user; returns at once and the same way for anyone. */
  requestEmailReset(identifier: string, identifierType: RecoveryIdentifierType, appUrl: string, client: Client): Promise<void>;
  /**
   * Emails a reset link to one user an administrator chose (the security center's breached-password
   * reset): the same link and email as a self-service request, sent before it answers. False when the
   * user cannot recover (unknown, not activated, disabled, or without an email address) or the
   * address had its share of reset emails (the self-service per-address limit).
   */
  emailResetLinkTo(userId: string, appUrl: string): Promise<boolean>;
  /** Texts a code to a known, active user's phone; every caller gets a session id either way. */
  requestSmsReset(identifier: string, identifierType: RecoveryIdentifierType, client: Client): Promise<{ sessionId: string }>;
  /** The right code of a live session becomes a reset token (single use, attempts limited). */
  verifySmsCode(sessionId: string, code: string, client: Client): Promise<ResetPasswordSmsVerifyResponse>;
  /**
   * Sets the new password with a reset token and revokes every session of the user; then signs the
   * user in as a password sign-in would (the MFA gate first), unless the login policy allows no local
   * sign-in or the account cannot start a session: null then, and the user signs in on their own.
   */
  resetPassword(body: ResetPasswordVerifyRequest, client: ClientInfo): Promise<IssuedSession | null>;
  /**
   * The signed-in user's change: current password checked, and a recent step-up when the user has a
   * second factor; other sessions revoked, this one kept.
   */
  changePassword(ctx: AuthContext, body: ChangePasswordRequest): Promise<void>;
  /** Resolves once every background delivery started so far has finished (shutdown and tests). */
  idle(): Promise<void>;
}

/** Normalized identifier for the per-identifier limit (so case and spacing do not buy more tries). */
function identifierKey(identifier: string, type: RecoveryIdentifierType): string {
  const value = type === 'phoneNumber' ? identifier.replace(/[\s()-]/g, '') : identifier.trim().toLowerCase();
  return `${type}:${value}`;
}

/**
 * Password recovery by email link or SMS code (seed 000 sections 4.6, 7.3), and password change.
 * Request answers never depend on whether the account exists: the lookup and delivery run after the
 * answer, in the background, so even the response time is the same for known and unknown identifiers.
 */
export function createRecoveryService(deps: {
  db: Db;
  mail: Mailer;
  emails: EmailService;
  sms: SmsSender;
  clock: Clock;
  limiter: RateLimiter;
  /** Signs the user in after a reset; absent: nobody is signed in. */
  auth?: AuthService;
  /** The MFA gate of a sign-in: a pending-MFA answer replaces the session, null lets it through. */
  secondFactor?: (user: UserRow, client: ClientInfo) => Promise<IssuedSession | null>;
  config: Pick<Config, 'password' | 'resetPasswordTokenTtl' | 'resetPasswordSmsCodeTtl' | 'dev' | 'passwordPolicies' | 'loginStrategy'>;
  /** The tenant's password rules and history (issue 12). */
  security: Pick<SecurityPolicyService, 'effectiveForUser' | 'passwordRuleError' | 'assertNotReused' | 'rememberPassword'>;
}): RecoveryService {
  const { db, mail, emails, sms, clock, limiter, config, security } = deps;
  const pending = new Set<Promise<void>>();

  function inBackground(what: string, task: () => Promise<void>): void {
    const run = task()
      .catch((err: unknown) => {
        // Only the error's message: never the token, the code or the address.
        log.error(`Password recovery: ${what} failed:`, reasonOf(err));
      })
      .finally(() => pending.delete(run));
    pending.add(run);
  }

  /** A user recovery may reach: known, activated and not disabled. */
  async function findRecoverableUser(identifier: string, type: RecoveryIdentifierType): Promise<UserRow | undefined> {
    const value = identifier.trim();
    let user: UserRow | undefined;
    if (type === 'email') user = await findUserByEmail(db, value.toLowerCase());
    else if (type === 'username') user = await findUserByUsername(db, value);
    else {
      const id = await findUniqueUserIdByPhone(db, value);
      user = id ? await findUserById(db, id) : undefined;
    }
    return user && user.verified === 1 && user.disabled !== 1 ? user : undefined;
  }

  /** A fresh reset token; every older one of the user dies (seed 4.6: only the newest link works). */
  async function issueResetToken(userId: string): Promise<string> {
    const now = clock.now();
    await invalidateUserTokens(db, userId, RESET_PASSWORD, now);
    const token = newSecret();
    await insertOneTimeToken(db, {
      token_hash: sha256(token),
      user_id: userId,
      purpose: RESET_PASSWORD,
      created_at: now,
      expires_at: now + config.resetPasswordTokenTtl * 1000,
      used_at: null,
      binding_hash: null,
      pending_password_hash: null,
      pending_profile: null,
    });
    return token;
  }

  /** Issues a fresh reset token for `user` and emails its link in the user's language. */
  async function sendResetLink(user: UserWithEmail, appUrl: string, locale?: string | null): Promise<void> {
    const token = await issueResetToken(user.id);
    const link = `${appUrl}/account/reset-password?userId=${encodeURIComponent(user.id)}&token=${encodeURIComponent(token)}`;
    await mail.send(await emails.render('passwordReset', user, { link, lifetime: lifetimeOf(config.resetPasswordTokenTtl) }, { locale }));
  }

  /** Per IP throws 429; per identifier it only tells whether to send (the answer stays the same). */
  async function allowRequest(identifier: string, type: RecoveryIdentifierType, client: Client): Promise<boolean> {
    await limiter.consume('passwordResetPerIp', client.ip ?? UNKNOWN_CLIENT);
    return limiter.tryConsume('passwordResetPerIdentifier', identifierKey(identifier, type));
  }

  /**
   * Refuses a new password of `user` that breaks the rules of the tenant they act in (or sign in to),
   * is on the breached list, or repeats one of their last N (the tenant's password history).
   */
  async function assertAcceptable(user: UserRow, password: string, tenantId?: string): Promise<void> {
    const policies = await security.effectiveForUser(user, tenantId);
    const bad = security.passwordRuleError(password, policies) ?? breachedPasswordError(password, config.passwordPolicies);
    if (bad) throw bad;
    await security.assertNotReused(user, password, policies);
  }

  /**
   * Puts the new password in place and ends every way back in with the old state, in one transaction
   * with its audit record.
   */
  async function setPassword(user: UserRow, passwordHash: string, client: Client, event: { action: string; description: string; json: Record<string, unknown> }, keepSessionId?: string, tenantId?: string): Promise<void> {
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      // A new password restarts rotation and is not on the breached list (refused before).
      await updateUser(trx, user.id, { password_hash: passwordHash, password_changed_at: now, is_breached_password: 0 });
      await security.rememberPassword(trx, user.id, passwordHash);
      await invalidateUserTokens(trx, user.id, RESET_PASSWORD, now);
      await invalidateUserSmsResetSessions(trx, user.id, now);
      const revoked = await revokeUserSessions(trx, user.id, now, keepSessionId);
      // Browsers remembered for MFA were trusted under the old password: they must prove the second factor again.
      await forgetRememberedDevices(trx, user.id);
      // The owner proved themselves; a lockout an attacker caused must not keep them out.
      await unlockUser(trx, user.id);
      await recordUserAudit(trx, user, client, { ...event, json: { ...event.json, sessionsRevoked: revoked } }, now, tenantId);
    });
    await limiter.reset('loginFailuresPerAccount', `user:${user.id}`);
  }

  /** After a reset: signed in like a password sign-in (MFA gate first), or null when the policy or the account says no. */
  async function signInAfterReset(userId: string, client: ClientInfo): Promise<IssuedSession | null> {
    if (!deps.auth || config.loginStrategy === 'NoLocalAuthentication') return null;
    const user = await findUserById(db, userId);
    if (!user || user.verified !== 1 || user.disabled === 1) return null;
    const signingIn: ClientInfo = { ...client, signInMethod: SignInMethods.passwordReset };
    try {
      return (await deps.secondFactor?.(user, signingIn)) ?? (await deps.auth.startSession(user, signingIn, [AMR_PASSWORD]));
    } catch (err) {
      // No tenant to act in (every membership disabled or removed): the password is set, the user signs in later.
      if (isAppError(err) && err.status === 403) return null;
      throw err;
    }
  }

  // The outbox is read only in dev mode, so without a provider SMS recovery is off in production.
  const smsActive = () => sms.kind === 'http' || config.dev;

  return {
    strategies: () => ({
      strategies: [
        { strategy: 'email', isActive: true },
        { strategy: 'sms', isActive: smsActive() },
      ],
    }),

    async requestEmailReset(identifier, identifierType, appUrl, client) {
      if (!(await allowRequest(identifier, identifierType, client))) return;
      inBackground('reset email', async () => {
        const user = await findRecoverableUser(identifier, identifierType);
        // An account made by phone sign-up has no email to send a link to.
        if (!hasEmail(user)) return;
        await sendResetLink(user, appUrl, client.locale);
      });
    },

    async emailResetLinkTo(userId, appUrl) {
      const user = await findUserById(db, userId);
      if (!user || user.verified !== 1 || user.disabled === 1 || !hasEmail(user)) return false;
      // The same per-address limit as a self-service request, so repeated bulk sends cannot flood a mailbox.
      if (!(await limiter.tryConsume('passwordResetPerIdentifier', identifierKey(user.email, 'email')))) return false;
      await sendResetLink(user, appUrl);
      return true;
    },

    async requestSmsReset(identifier, identifierType, client) {
      const sessionId = newSecret();
      // SMS recovery off: the same answer as always (it names no account), and nothing is looked up or sent.
      if (!smsActive()) return { sessionId };
      if (!(await allowRequest(identifier, identifierType, client))) return { sessionId };
      inBackground('reset SMS', async () => {
        const user = await findRecoverableUser(identifier, identifierType);
        if (!user?.phone_number) return;
        const now = clock.now();
        const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
        await invalidateUserSmsResetSessions(db, user.id, now);
        await insertSmsResetSession(db, {
          session_hash: sha256(sessionId),
          user_id: user.id,
          // Keyed by the session id, which only the browser holds: a leaked table cannot be brute-forced.
          code_hash: sha256(`${sessionId}:${code}`),
          attempts: 0,
          created_at: now,
          expires_at: now + config.resetPasswordSmsCodeTtl * 1000,
          used_at: null,
        });
        const minutes = Math.max(1, Math.round(config.resetPasswordSmsCodeTtl / 60));
        await sms.send({ to: user.phone_number, body: `Your Gatehouse password reset code is ${code}. It expires in ${minutes} minutes. Never share it.` });
      });
      return { sessionId };
    },

    async verifySmsCode(sessionId, code, client) {
      await limiter.consume('passwordResetVerifyPerIp', client.ip ?? UNKNOWN_CLIENT);
      const hash = sha256(sessionId);
      const row = await findSmsResetSession(db, hash);
      if (!row || row.used_at !== null || row.expires_at <= clock.now()) throw invalidCode();
      // Counted before the comparison, atomically, so parallel guesses cannot exceed the limit.
      if (!(await countSmsResetAttempt(db, hash, SMS_CODE_MAX_ATTEMPTS))) throw invalidCode();
      if (!safeEqual(row.code_hash, sha256(`${sessionId}:${code}`))) throw invalidCode();
      if (!(await consumeSmsResetSession(db, hash, clock.now()))) throw invalidCode();
      const user = await findUserById(db, row.user_id);
      if (!user || user.disabled === 1) throw invalidCode();
      return { userId: user.id, token: await issueResetToken(user.id) };
    },

    async resetPassword(body, client) {
      await limiter.consume('passwordResetVerifyPerIp', client.ip ?? UNKNOWN_CLIENT);
      const hash = sha256(body.token);
      const row = await findOneTimeToken(db, hash, RESET_PASSWORD);
      const now = clock.now();
      if (!row || row.used_at !== null || row.expires_at <= now || !safeEqual(row.user_id, body.userId)) throw invalidToken();
      const user = await findUserById(db, row.user_id);
      if (!user || user.disabled === 1) throw invalidToken();
      // Checked before the token is spent, so a refused password can be fixed with the same link.
      await assertAcceptable(user, body.password);
      const passwordHash = await hashPassword(body.password);
      if (!(await consumeOneTimeToken(db, hash, clock.now()))) throw invalidToken();
      await setPassword(user, passwordHash, client, { action: AuditActions.passwordReset, description: 'Password reset with an emailed link or texted code', json: {} });
      return signInAfterReset(user.id, client);
    },

    async changePassword(ctx, body) {
      // An impersonator acts as the user but never changes how the account is protected.
      refuseWhileImpersonating(ctx);
      // With a second factor, the password alone (maybe typed on a stolen session) is not enough.
      if ((await listMfaDevices(db, ctx.userId, 'active')).length > 0) requireRecentStepUp(ctx, clock.now());
      // Counted before the check (a right password clears it), so guesses in parallel cannot slip in.
      await limiter.consume('passwordChangeFailuresPerUser', ctx.userId);
      const user = await findUserById(db, ctx.userId);
      if (!(await verifyPassword(user?.password_hash, body.password)) || !user) throw wrongCurrentPassword();
      await limiter.reset('passwordChangeFailuresPerUser', ctx.userId);
      await assertAcceptable(user, body.newPassword, ctx.tenantId);
      const client = ctx.client ?? { ip: null, userAgent: null };
      await setPassword(user, await hashPassword(body.newPassword), client, { action: AuditActions.passwordChanged, description: 'Password changed; other sessions were signed out', json: {} }, ctx.sessionId, ctx.tenantId);
    },

    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
