import { ErrorCodes, type LoginResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newSecret, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { consumeOneTimeToken, findOneTimeToken, insertOneTimeToken, invalidateUserTokens } from '../../db/queries/one-time-tokens';
import { clearFailedLogins, countFailedLogin, lockUser, unlockUser } from '../../db/queries/password-policies';
import { findUserById, hasEmail, updateUser, type UserRow, type UserWithEmail } from '../../db/queries/users';
import { AppError } from '../../errors';
import type { ClientInfo, IssuedSession } from './auth';
import { breachedPasswordError, isBreachedPassword } from '../platform/breached-passwords';
import type { Mailer } from '../messaging/mail';
import type { EmailService } from '../messaging/emails/email-service';
import { lifetimeOf } from '../messaging/emails/templates';
import { UNKNOWN_CLIENT, type RateLimiter } from '../platform/rate-limit';
import { RESET_PASSWORD } from '../recovery/recovery';
import { log, reasonOf } from '../../log';
import { AuditActions, recordUserAudit } from '../admin/audit-log';
import type { SecurityPolicyService } from '../security/policies';

/** one_time_tokens.purpose of an emailed unlock link (seed 000 sections 4.7, 7.1). */
export const UNLOCK_ACCOUNT = 'unlock-account';
/** Feature flag that turns on the breached-password check at sign-in (seed 000 section 4.2). */
export const BREACHED_PASSWORD_FLAG = 'breached-password';
/** Lifetime of the reset token an expired password is exchanged for at sign-in: long enough to type a new one. */
export const ROTATION_RESET_TOKEN_TTL_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

/** The sentence a locked account gets at every sign-in until it is unlocked. */
export const accountLockedError = () => new AppError(ErrorCodes.accountLocked, 403, 'Your account is locked. Check your email to unlock it.');
const invalidUnlockToken = () => new AppError(ErrorCodes.invalidUnlockToken, 400, 'The unlock link is invalid or has expired');

export type PasswordRotation = NonNullable<LoginResponse['passwordRotation']>;
type Policies = Config['passwordPolicies'];

/**
 * Rotation state of a password set at `changedAt` (seed 000 section 4.2): expired, or the whole days
 * left when they are at or below the notification period, else null (rotation off or nothing to say).
 */
export function rotationStatus(changedAt: number, now: number, policy: Pick<Policies, 'expiresInDays' | 'notificationDays'>): PasswordRotation | null {
  if (policy.expiresInDays <= 0) return null;
  const expiresAt = changedAt + policy.expiresInDays * DAY_MS;
  if (now >= expiresAt) return { expired: true, daysToExpiry: 0 };
  const daysToExpiry = Math.ceil((expiresAt - now) / DAY_MS);
  return daysToExpiry <= policy.notificationDays ? { expired: false, daysToExpiry } : null;
}

/** What sign-in does once the password is proven: stop without a session, or go on (with a rotation notice). */
export type AfterPassword = { blocked: IssuedSession } | { blocked?: undefined; notice: PasswordRotation | null };

export interface PasswordPolicyService {
  /** Before the password is checked: a locked account is told so whatever the password (else a right guess would show). */
  assertNotLocked(user: UserRow | undefined): void;
  /**
   * A wrong password for a known account: counted; the attempt that uses up the policy locks it
   * (recorded in the audit log) and emails the link. `locked`: the account is locked now, and the
   * caller answers so; `reachedThreshold`: the failures reached the policy's limit.
   */
  recordFailure(user: UserRow, client: Pick<ClientInfo, 'appUrl' | 'ip' | 'userAgent' | 'locale'>): Promise<{ locked: boolean; reachedThreshold: boolean }>;
  /** The password is right: failures cleared; an expired or breached password stops the sign-in without a session. */
  afterPassword(user: UserRow, password: string): Promise<AfterPassword>;
  /** The emailed link: unlocks the account (single use, expiring). */
  unlock(token: string, client: Pick<ClientInfo, 'ip' | 'userAgent'>): Promise<void>;
  /** Refusal of a password on the breached list (sign-up, activation, reset, change), or null. */
  breachedPasswordError(password: string): AppError | null;
}

/** Lockout and unlock, password rotation and breached passwords around a password sign-in. */
export function createPasswordPolicyService(deps: {
  db: Db;
  mail: Mailer;
  emails: EmailService;
  clock: Clock;
  limiter: RateLimiter;
  config: Pick<Config, 'passwordPolicies' | 'flags' | 'appUrl'>;
  /** The tenant's lockout and rotation policies (issue 12), read from the database at each sign-in. */
  security: Pick<SecurityPolicyService, 'effectiveForUser'>;
}): PasswordPolicyService {
  const { db, mail, emails, clock, limiter, config, security } = deps;
  const policy = config.passwordPolicies;

  async function issueToken(userId: string, purpose: string, ttlMs: number): Promise<string> {
    const now = clock.now();
    await invalidateUserTokens(db, userId, purpose, now);
    const token = newSecret();
    await insertOneTimeToken(db, {
      token_hash: sha256(token),
      user_id: userId,
      purpose,
      created_at: now,
      expires_at: now + ttlMs,
      used_at: null,
      binding_hash: null,
      pending_password_hash: null,
      pending_profile: null,
    });
    return token;
  }

  /** A sign-in that ends without a session: the user id and what the browser needs for the next step. */
  const noSession = (user: UserRow, extra: Partial<LoginResponse>): IssuedSession => ({
    response: { accessToken: '', expiresIn: 0, expires: '', mfaRequired: false, userId: user.id, ...extra },
    refreshToken: '',
  });

  return {
    assertNotLocked(user) {
      if (user?.locked_at != null) throw accountLockedError();
    },

    async recordFailure(user, client) {
      // Counted even while lockout is off, so a tenant that turns it on (or lowers it) acts on the
      // real run of wrong passwords, as its dry run said; a right password clears the count.
      const failures = await countFailedLogin(db, user.id);
      const { lockout } = await security.effectiveForUser(user);
      if (!lockout.enabled || failures < lockout.maxAttempts) return { locked: false, reachedThreshold: false };
      const now = clock.now();
      const lockedNow = await db.transaction().execute(async (trx) => {
        if (!(await lockUser(trx, user.id, now))) return false;
        await recordUserAudit(
          trx,
          user,
          client,
          { action: AuditActions.userLocked, description: `Account locked after ${failures} wrong passwords in a row`, severity: 'High', json: { failures, maxAttempts: lockout.maxAttempts, by: 'lockout policy' } },
          now,
        );
        return true;
      });
      // Only the request that locked it sends the email; parallel ones just answer locked.
      if (lockedNow) {
        const token = await issueToken(user.id, UNLOCK_ACCOUNT, policy.unlockTokenTtl * 1000);
        const link = `${client.appUrl ?? config.appUrl}/account/unlock?token=${encodeURIComponent(token)}`;
        try {
          // An account without an email (phone sign-up) has no password to lock either; kept for safety.
          if (hasEmail(user)) await mail.send(await emails.render('unlock', user, { link, lifetime: lifetimeOf(policy.unlockTokenTtl) }, { locale: client.locale }));
        } catch (err) {
          // The lock stands; a password reset unlocks too, so the user is never stuck without this email.
          log.error('Unlock email failed:', reasonOf(err));
        }
      }
      return { locked: true, reachedThreshold: true };
    },

    async afterPassword(user, password) {
      // The row this sign-in read shows no failures: nothing to clear (a failure racing this sign-in stays counted).
      if (user.failed_logins !== 0) await clearFailedLogins(db, user.id);
      const { rotation: tenantRotation } = await security.effectiveForUser(user);
      const rotation = rotationStatus(user.password_changed_at ?? user.created_at, clock.now(), { expiresInDays: tenantRotation.passwordExpiresIn, notificationDays: tenantRotation.notificationPeriod });
      if (rotation?.expired) {
        const resetPasswordToken = await issueToken(user.id, RESET_PASSWORD, ROTATION_RESET_TOKEN_TTL_MS);
        return { blocked: noSession(user, { resetPasswordToken, passwordRotation: rotation }) };
      }
      if (config.flags[BREACHED_PASSWORD_FLAG] === 'on' && isBreachedPassword(password)) {
        // Kept on the user for the admin portal's filter; cleared when a new password is set.
        await updateUser(db, user.id, { is_breached_password: 1 });
        return { blocked: noSession(user, { isBreachedPassword: true }) };
      }
      return { notice: rotation };
    },

    async unlock(token, client) {
      await limiter.consume('unlockPerIp', client.ip ?? UNKNOWN_CLIENT);
      const hash = sha256(token);
      const row = await findOneTimeToken(db, hash, UNLOCK_ACCOUNT);
      const now = clock.now();
      if (!row || row.used_at !== null || row.expires_at <= now) throw invalidUnlockToken();
      if (!(await consumeOneTimeToken(db, hash, now))) throw invalidUnlockToken();
      const user = await findUserById(db, row.user_id);
      if (!user) throw invalidUnlockToken();
      await db.transaction().execute(async (trx) => {
        await unlockUser(trx, user.id);
        await recordUserAudit(trx, user, client, { action: AuditActions.userUnlocked, description: 'Account unlocked with the emailed link', json: { by: 'unlock link' } }, now);
      });
      // The owner proved the inbox: the per-account rate limit an attacker ran up must not keep them out either.
      await limiter.reset('loginFailuresPerAccount', `user:${user.id}`);
    },

    breachedPasswordError: (password) => breachedPasswordError(password, policy),
  };
}
