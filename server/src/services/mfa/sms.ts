/**
 * SMS as a second factor (seed 000 sections 2.2 smsSetPhoneNumber/smsVerifyCode, 3 `phones`, 7.2, 7.3):
 * enrolment at sign-in (forceTwoFactor) and by the signed-in user, the texted code at sign-in and
 * step-up (amr 'sms'), and removal of a phone with a code texted to it.
 * Codes are 6 digits from a CSPRNG, stored as SHA-256 of `<id>:<code>`, single use, 5 minutes, five
 * attempts each (reserved before the comparison) and under the per-user MFA attempt limit; sends are
 * limited per user and per destination number. No HTTP and no SQL here.
 */
import { AuthMethods, ErrorCodes, MfaStrategies, type LoginEnrollResponse, type SmsCodeSentResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import { newId, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { activateMfaDevice, deletePendingDevices, insertMfaDevice, listMfaDevices, type MfaDeviceRow } from '../../db/queries/mfa-devices';
import { consumeSmsCode, deleteExpiredSmsCodes, findSmsCode, insertSmsCode, invalidateSmsCodes, reserveSmsCodeAttempt, spendExhaustedSmsCode, type MfaSmsCodeRow } from '../../db/queries/mfa-sms-codes';
import { AppError, Errors } from '../../errors';
import type { AuthContext, ClientInfo } from '../auth/auth';
import type { MfaCompletion } from './mfa';
import { MFA_ATTEMPTS_BUCKET, type MfaCore } from './core';
import { factorName } from './factor-audit';
import { MFA_MAX_ATTEMPTS, newEmailCode } from './factors';
import { requireActiveStrategy } from './strategies';
import { INVALID_PHONE_MESSAGE, maskPhoneNumber, normalizePhoneNumber } from '../platform/phone';
import type { RateLimiter } from '../platform/rate-limit';
import { requireFreshAuthForNewFactor, requireRecentAuth } from '../auth/recent-auth';
import { SmsDeliveryError, type SmsSender } from '../messaging/sms';
import { log } from '../../log';

/** A texted code lives this long. */
export const SMS_CODE_TTL_MS = 5 * 60_000;

type CodePurpose = 'login' | 'enroll' | 'disable';

export interface MfaSmsService {
  /** Pre-verify at sign-in or step-up: texts a code to the user's phone; answers its otcToken and the masked number. */
  sendLoginCode(input: { mfaToken: string; deviceId?: string }): Promise<SmsCodeSentResponse>;
  verifyLoginCode(input: { mfaToken: string; otcToken: string; code: string; rememberDevice?: boolean }, client: ClientInfo): Promise<MfaCompletion>;
  /** forceTwoFactor: texts the first code to the number typed (smsSetPhoneNumber). */
  loginEnroll(input: { mfaToken: string; phoneNumber: string }): Promise<SmsCodeSentResponse>;
  /** forceTwoFactor: the first code enrols the phone and ends signed in, with recovery codes. */
  loginEnrollVerify(input: { mfaToken: string; otcToken: string; code: string }, client: ClientInfo): Promise<MfaCompletion & { response: LoginEnrollResponse }>;
  /** The signed-in user's enrolment (recent sign-in, or a recent step-up once the account has a factor). */
  enroll(ctx: AuthContext, phoneNumber: string): Promise<SmsCodeSentResponse>;
  verifyEnrollment(ctx: AuthContext, otcToken: string, code: string): Promise<{ recoveryCodes: string[] }>;
  /** Removing a phone: a recent sign-in, then a code texted to that phone. */
  startDisable(ctx: AuthContext, deviceId: string): Promise<SmsCodeSentResponse>;
  disable(ctx: AuthContext, deviceId: string, otcToken: string, code: string): Promise<void>;
}

const invalidCode = () => new AppError(ErrorCodes.invalidMfaCode, 400, 'Invalid code, please try again');
const notEnrolled = () => new AppError(ErrorCodes.noMfaEnrolled, 400, 'No phone is enrolled for text message codes');
const undelivered = () => new AppError(ErrorCodes.generic, 502, 'The text message could not be sent, please try again');

export function createMfaSmsService(deps: { db: Db; clock: Clock; sms: SmsSender; limiter: RateLimiter; core: MfaCore }): MfaSmsService {
  const { db, clock, sms, limiter, core } = deps;
  const requireSms = () => requireActiveStrategy(core.active, MfaStrategies.sms);

  function phoneOf(input: string): string {
    const e164 = normalizePhoneNumber(input);
    if (!e164) throw Errors.validation(`phoneNumber: ${INVALID_PHONE_MESSAGE}`);
    return e164;
  }

  /** Texts a fresh code for `device`; older codes of the purpose die. Counted per user and per number first. */
  async function sendCode(userId: string, purpose: CodePurpose, device: Pick<MfaDeviceRow, 'id' | 'phone_number'>, mfaTokenHash: string | null): Promise<SmsCodeSentResponse> {
    const to = device.phone_number;
    if (!to) throw notEnrolled();
    await limiter.consume('smsCodesPerUser', userId);
    await limiter.consume('smsCodesPerNumber', to);
    const now = clock.now();
    await deleteExpiredSmsCodes(db, now - SMS_CODE_TTL_MS);
    await invalidateSmsCodes(db, userId, purpose, now);
    const id = newId();
    const code = newEmailCode();
    await insertSmsCode(db, { id, user_id: userId, purpose, mfa_token_hash: mfaTokenHash, device_id: device.id, code_hash: sha256(`${id}:${code}`), created_at: now, expires_at: now + SMS_CODE_TTL_MS, used_at: null, failed_attempts: 0 });
    try {
      await sms.send({ to, body: `Your Gatehouse verification code is ${code}. It expires in ${SMS_CODE_TTL_MS / 60_000} minutes. Never share it.` });
    } catch (err) {
      if (err instanceof SmsDeliveryError) {
        log.error('MFA SMS:', err.message);
        throw undelivered();
      }
      throw err;
    }
    return { otcToken: id, phoneNumber: maskPhoneNumber(to) };
  }

  /**
   * Checks a texted code, attempt reserved before the comparison; true only for the right code of a
   * live row, which is spent. `sent` must already be the user's row of the expected purpose.
   */
  async function checkCode(sent: MfaSmsCodeRow | undefined, code: string): Promise<boolean> {
    const now = clock.now();
    if (!sent || !(await reserveSmsCodeAttempt(db, sent.id, now, MFA_MAX_ATTEMPTS))) return false;
    if (!safeEqual(sent.code_hash, sha256(`${sent.id}:${code}`)) || !(await consumeSmsCode(db, sent.id, now))) {
      await spendExhaustedSmsCode(db, sent.id, now, MFA_MAX_ATTEMPTS);
      return false;
    }
    return true;
  }

  /** A pending SMS device for `phoneNumber` (older unfinished enrolments are dropped). */
  async function pendingPhone(userId: string, phoneNumber: string): Promise<Pick<MfaDeviceRow, 'id' | 'phone_number'>> {
    await deletePendingDevices(db, userId, 'sms');
    const id = newId();
    await insertMfaDevice(db, { id, user_id: userId, type: 'sms', status: 'pending', secret: null, email: null, last_used_step: null, created_at: clock.now(), verified_at: null, phone_number: phoneNumber });
    return { id, phone_number: phoneNumber };
  }

  /** The user's active SMS devices. */
  const phones = async (userId: string) => (await listMfaDevices(db, userId, 'active')).filter((d) => d.type === 'sms');

  /** The pending SMS device a code was sent for, once the code proved it. */
  async function confirmPending(userId: string, sent: MfaSmsCodeRow): Promise<MfaDeviceRow> {
    const pending = (await listMfaDevices(db, userId, 'pending')).find((d) => d.id === sent.device_id && d.type === 'sms');
    if (!pending) throw invalidCode();
    await activateMfaDevice(db, pending.id, clock.now(), null);
    return pending;
  }

  return {
    async sendLoginCode({ mfaToken, deviceId }) {
      const row = await core.liveToken(mfaToken, ['login', 'step-up']);
      requireSms();
      const mine = await phones(row.user_id);
      const device = deviceId ? mine.find((d) => d.id === deviceId) : mine[0];
      if (!device) throw deviceId ? Errors.notFound('MFA device not found') : notEnrolled();
      return sendCode(row.user_id, 'login', device, row.token_hash);
    },

    async verifyLoginCode({ mfaToken, otcToken, code, rememberDevice }, client) {
      const row = await core.liveToken(mfaToken, ['login', 'step-up']);
      requireSms();
      await core.beginAttempt(row);
      const sent = await findSmsCode(db, otcToken, row.user_id, 'login');
      // Bound to the mfaToken it was sent for, and to a phone still enrolled.
      const bound = sent && sent.mfa_token_hash === row.token_hash && (await phones(row.user_id)).some((d) => d.id === sent.device_id) ? sent : undefined;
      if (!(await checkCode(bound, code))) return core.wrongCode(row, undefined, client);
      return core.complete(row, [AuthMethods.sms], client, rememberDevice);
    },

    async loginEnroll({ mfaToken, phoneNumber }) {
      const row = await core.liveToken(mfaToken, ['enroll']);
      requireSms();
      const device = await pendingPhone(row.user_id, phoneOf(phoneNumber));
      return sendCode(row.user_id, 'enroll', device, row.token_hash);
    },

    async loginEnrollVerify({ mfaToken, otcToken, code }, client) {
      const row = await core.liveToken(mfaToken, ['enroll']);
      requireSms();
      await core.beginAttempt(row);
      const sent = await findSmsCode(db, otcToken, row.user_id, 'enroll');
      const bound = sent && sent.mfa_token_hash === row.token_hash ? sent : undefined;
      if (!bound || !(await checkCode(bound, code))) return core.wrongCode(row, undefined, client);
      const device = await confirmPending(row.user_id, bound);
      await core.factorAdded(row.user_id, factorName(device), client);
      const done = await core.complete(row, [AuthMethods.sms], client);
      return { ...done, response: { ...done.response, recoveryCodes: await core.newRecoveryCodes(row.user_id) } };
    },

    async enroll(ctx, phoneNumber) {
      requireSms();
      const e164 = phoneOf(phoneNumber);
      const active = await listMfaDevices(db, ctx.userId, 'active');
      if (active.some((d) => d.type === 'sms')) throw new AppError(ErrorCodes.mfaAlreadyEnrolled, 409, 'A phone is already enrolled for text message codes; remove it first');
      requireFreshAuthForNewFactor(ctx, clock.now(), active.length > 0);
      const device = await pendingPhone(ctx.userId, e164);
      return sendCode(ctx.userId, 'enroll', device, null);
    },

    async verifyEnrollment(ctx, otcToken, code) {
      const hadFactor = await core.hasActiveFactor(ctx.userId);
      requireFreshAuthForNewFactor(ctx, clock.now(), hadFactor);
      requireSms();
      // Counted like every other second-factor check, and cleared by the right code.
      await limiter.consume(MFA_ATTEMPTS_BUCKET, ctx.userId);
      const sent = await findSmsCode(db, otcToken, ctx.userId, 'enroll');
      // A login-time enrolment code (bound to an mfaToken) is not usable here.
      const bound = sent && sent.mfa_token_hash === null ? sent : undefined;
      if (!bound || !(await checkCode(bound, code))) throw invalidCode();
      await limiter.reset(MFA_ATTEMPTS_BUCKET, ctx.userId);
      const device = await confirmPending(ctx.userId, bound);
      await core.factorAdded(ctx.userId, factorName(device), ctx.client ?? { ip: null, userAgent: null }, ctx.tenantId);
      // Only the first factor brings recovery codes; a second one must not silently replace saved codes.
      return { recoveryCodes: hadFactor ? [] : await core.newRecoveryCodes(ctx.userId) };
    },

    async startDisable(ctx, deviceId) {
      requireRecentAuth(ctx, clock.now());
      const device = (await phones(ctx.userId)).find((d) => d.id === deviceId);
      if (!device) throw Errors.notFound('MFA device not found');
      return sendCode(ctx.userId, 'disable', device, null);
    },

    async disable(ctx, deviceId, otcToken, code) {
      // A stolen or old session cannot strip the account's second factor: the sign-in must be recent.
      requireRecentAuth(ctx, clock.now());
      const devices = await listMfaDevices(db, ctx.userId, 'active');
      if (!devices.some((d) => d.id === deviceId && d.type === 'sms')) throw Errors.notFound('MFA device not found');
      await limiter.consume(MFA_ATTEMPTS_BUCKET, ctx.userId);
      const sent = await findSmsCode(db, otcToken, ctx.userId, 'disable');
      if (!sent || sent.device_id !== deviceId || !(await checkCode(sent, code))) throw invalidCode();
      await limiter.reset(MFA_ATTEMPTS_BUCKET, ctx.userId);
      await core.removeFactor(ctx.userId, devices, deviceId, ctx);
    },
  };
}
