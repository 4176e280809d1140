/**
 * The signed-in user's own second factors (seed 000 section 7.3, issue 11 section 3): status and
 * devices, enrolment of an authenticator app or emailed codes, removal, and a new set of recovery
 * codes. Adding a factor needs a recent sign-in (a recent step-up once the account has one);
 * removing one needs a recent sign-in and a current code; new recovery codes need a recent step-up.
 * Every change is recorded in the audit log of the tenant the user acts in.
 */
import { ErrorCodes, MfaStrategies, type AuthenticatorEnrollResponse, type MfaDevices, type MfaStatusResponse, type MfaStrategy } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import { newId, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { activateMfaDevice, deletePendingDevices, insertMfaDevice, listMfaDevices, listUnusedRecoveryCodes, useRecoveryCode, type MfaDeviceRow } from '../../db/queries/mfa-devices';
import { consumeEmailCode, findEmailCode, insertEmailCode, invalidateEmailCodes, reserveEmailCodeAttempt, spendExhaustedEmailCode } from '../../db/queries/mfa-tokens';
import { findUserById, type UserRow } from '../../db/queries/users';
import { AppError, Errors } from '../../errors';
import { AuditActions, recordUserAudit } from '../admin/audit-log';
import type { AuthContext } from '../auth/auth';
import { requireFreshAuthForNewFactor, requireRecentAuth, requireRecentStepUp } from '../auth/recent-auth';
import type { Mailer, MailMessage } from '../messaging/mail';
import type { RateLimiter } from '../platform/rate-limit';
import type { MfaCore } from './core';
import { recordFactorAdded } from './factor-audit';
import { devicesView, EMAIL_CODE_TTL_MS, findMatchingHash, MFA_MAX_ATTEMPTS, newEmailCode } from './factors';
import { MFA_ATTEMPTS_BUCKET } from './core';
import { requireActiveStrategy } from './strategies';

export interface MfaSelfService {
  status(ctx: AuthContext): Promise<MfaStatusResponse>;
  devices(ctx: AuthContext): Promise<MfaDevices>;
  /** Enrolment needs a recent sign-in, or a recent step-up when the user already has a factor. */
  enrollAuthenticator(ctx: AuthContext): Promise<AuthenticatorEnrollResponse>;
  /** Recovery codes come only with the first factor (empty when the user already had one). */
  verifyAuthenticatorEnrollment(ctx: AuthContext, code: string): Promise<{ recoveryCodes: string[] }>;
  enrollEmail(ctx: AuthContext): Promise<{ otcToken: string }>;
  verifyEmailEnrollment(ctx: AuthContext, otcToken: string, code: string): Promise<{ recoveryCodes: string[] }>;
  /** Removes one device (or every factor when deviceId is null); needs a recent sign-in and an authenticator or recovery code. */
  disable(ctx: AuthContext, deviceId: string | null, code: string): Promise<void>;
  /** A new set of recovery codes (older ones stop working); needs MFA enrolled and a recent step-up. */
  regenerateRecoveryCodes(ctx: AuthContext): Promise<{ recoveryCodes: string[] }>;
}

/** What the self-service shares with the sign-in side of the MFA service (mfa.ts). */
export interface MfaSelfServiceHelpers {
  core: MfaCore;
  policyFor(user: UserRow): Promise<{ enforce: 'optional' | 'force'; rememberDeviceDays: number; rememberSeconds: number }>;
  /** A new pending authenticator and its QR code, issued under `tenantId`'s name. */
  pendingAuthenticator(user: UserRow, tenantId?: string): Promise<AuthenticatorEnrollResponse>;
  /** Confirms the newest pending authenticator with its first code; false for a wrong code. */
  confirmAuthenticator(userId: string, code: string): Promise<boolean>;
  /** The authenticator a code is valid for now (replay refused), or null. */
  acceptTotp(devices: MfaDeviceRow[], code: string): Promise<MfaDeviceRow | null>;
  /** The email carrying an enrolment code to `user`. */
  codeEmail(user: UserRow, code: string, tenantId: string): Promise<MailMessage>;
}

const invalidCode = () => new AppError(ErrorCodes.invalidMfaCode, 400, 'Invalid code, please try again');
const notEnrolled = () => new AppError(ErrorCodes.noMfaEnrolled, 400, 'MFA is not enrolled');

export function createMfaSelfService(deps: { db: Db; clock: Clock; mail: Mailer; limiter: RateLimiter; active: ReadonlySet<MfaStrategy> }, helpers: MfaSelfServiceHelpers): MfaSelfService {
  const { db, clock, mail, limiter, active: activeStrategies } = deps;
  const { core } = helpers;
  const clientOf = (ctx: AuthContext) => ctx.client ?? { ip: null, userAgent: null };

  async function userOf(ctx: AuthContext): Promise<UserRow> {
    const user = await findUserById(db, ctx.userId);
    if (!user) throw Errors.unauthorized();
    return user;
  }

  return {
    async status(ctx) {
      const user = await userOf(ctx);
      const devices = await listMfaDevices(db, user.id, 'active');
      return { enrolled: devices.length > 0, enforce: (await helpers.policyFor(user)).enforce, devices: devicesView(devices), recoveryCodesLeft: (await listUnusedRecoveryCodes(db, user.id)).length };
    },

    async devices(ctx) {
      return devicesView(await listMfaDevices(db, ctx.userId, 'active'));
    },

    async enrollAuthenticator(ctx) {
      requireActiveStrategy(activeStrategies, MfaStrategies.authenticatorApp);
      const user = await userOf(ctx);
      const active = await listMfaDevices(db, user.id, 'active');
      if (active.some((d) => d.type === 'authenticator')) {
        throw new AppError(ErrorCodes.mfaAlreadyEnrolled, 409, 'An authenticator app is already enrolled; remove it first');
      }
      requireFreshAuthForNewFactor(ctx, clock.now(), active.length > 0);
      return helpers.pendingAuthenticator(user, ctx.tenantId);
    },

    async verifyAuthenticatorEnrollment(ctx, code) {
      const hadFactor = await core.hasActiveFactor(ctx.userId);
      requireFreshAuthForNewFactor(ctx, clock.now(), hadFactor);
      if (!(await helpers.confirmAuthenticator(ctx.userId, code))) throw invalidCode();
      await recordFactorAdded(db, ctx.userId, 'authenticator app', clientOf(ctx), clock.now(), ctx.tenantId);
      // Only the first factor brings recovery codes; a second one must not silently replace saved codes.
      return { recoveryCodes: hadFactor ? [] : await core.newRecoveryCodes(ctx.userId) };
    },

    async enrollEmail(ctx) {
      requireActiveStrategy(activeStrategies, MfaStrategies.emailCode);
      const user = await userOf(ctx);
      // An account made by phone sign-up has no email address to send codes to.
      if (!user.email) throw new AppError(ErrorCodes.validation, 400, 'This account has no email address; choose another method');
      const active = await listMfaDevices(db, user.id, 'active');
      if (active.some((d) => d.type === 'email')) {
        throw new AppError(ErrorCodes.mfaAlreadyEnrolled, 409, 'Email codes are already enrolled');
      }
      requireFreshAuthForNewFactor(ctx, clock.now(), active.length > 0);
      const now = clock.now();
      await deletePendingDevices(db, user.id, 'email');
      await insertMfaDevice(db, { id: newId(), user_id: user.id, type: 'email', status: 'pending', secret: null, email: user.email, last_used_step: null, created_at: now, verified_at: null });
      await invalidateEmailCodes(db, user.id, 'enroll', now);
      const code = newEmailCode();
      const id = newId();
      await insertEmailCode(db, { id, user_id: user.id, purpose: 'enroll', mfa_token_hash: null, code_hash: sha256(code), created_at: now, expires_at: now + EMAIL_CODE_TTL_MS, used_at: null, failed_attempts: 0 });
      await mail.send(await helpers.codeEmail(user, code, ctx.tenantId));
      return { otcToken: id };
    },

    async verifyEmailEnrollment(ctx, otcToken, code) {
      const now = clock.now();
      const hadFactor = await core.hasActiveFactor(ctx.userId);
      requireFreshAuthForNewFactor(ctx, now, hadFactor);
      const sent = await findEmailCode(db, otcToken, ctx.userId, 'enroll');
      const pending = (await listMfaDevices(db, ctx.userId, 'pending')).find((d) => d.type === 'email');
      // Reserve-first: the attempt is counted atomically before the comparison.
      if (!sent || !pending || !(await reserveEmailCodeAttempt(db, sent.id, now, MFA_MAX_ATTEMPTS))) throw invalidCode();
      if (!safeEqual(sent.code_hash, sha256(code)) || !(await consumeEmailCode(db, sent.id, now))) {
        await spendExhaustedEmailCode(db, sent.id, now, MFA_MAX_ATTEMPTS);
        throw invalidCode();
      }
      await activateMfaDevice(db, pending.id, now, null);
      await recordFactorAdded(db, ctx.userId, 'emailed codes', clientOf(ctx), now, ctx.tenantId);
      return { recoveryCodes: hadFactor ? [] : await core.newRecoveryCodes(ctx.userId) };
    },

    async disable(ctx, deviceId, code) {
      // A stolen or old session cannot strip the account's second factor: the sign-in must be recent.
      requireRecentAuth(ctx, clock.now());
      const devices = await listMfaDevices(db, ctx.userId, 'active');
      if (devices.length === 0) throw notEnrolled();
      if (deviceId && !devices.some((d) => d.id === deviceId)) throw Errors.notFound('MFA device not found');
      // Counted before the comparison (same per-user brake as sign-in), cleared by a right code.
      await limiter.consume(MFA_ATTEMPTS_BUCKET, ctx.userId);
      const proven = /^\d{6}$/.test(code.trim())
        ? (await helpers.acceptTotp(devices, code.trim())) !== null
        : await (async () => {
            const match = findMatchingHash(await listUnusedRecoveryCodes(db, ctx.userId), code);
            return match !== undefined && (await useRecoveryCode(db, match.id, clock.now()));
          })();
      if (!proven) throw invalidCode();
      await limiter.reset(MFA_ATTEMPTS_BUCKET, ctx.userId);
      await core.removeFactor(ctx.userId, devices, deviceId, ctx);
    },

    async regenerateRecoveryCodes(ctx) {
      // Codes are a way in without the factor: only a fresh second factor may replace them.
      if (!(await core.hasActiveFactor(ctx.userId))) throw notEnrolled();
      requireRecentStepUp(ctx, clock.now());
      const user = await userOf(ctx);
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        const recoveryCodes = await core.newRecoveryCodes(ctx.userId, trx);
        await recordUserAudit(trx, user, clientOf(ctx), { action: AuditActions.recoveryCodesRegenerated, description: 'New recovery codes made; the old ones stopped working', json: { count: recoveryCodes.length } }, now, ctx.tenantId);
        return { recoveryCodes };
      });
    },
  };
}
