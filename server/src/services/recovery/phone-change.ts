/**
 * Reset phone number (seed 000 section 2.2: ResetPhoneNumber -> VerifyResetPhoneNumber ->
 * ChangePhoneNumber; section 7.3 phone/reset, phone/reset/verify, PUT phone/change, phone/verify)
 * and the signed-in user's phone change (POST phone, phone/verify).
 *
 * A user who lost their phone gives their email; a 6-digit code goes to it (the request answers the
 * same way, at once, whether or not the account exists). The code yields a short-lived token that
 * may set a new number; the new number gets a texted code, and only that code makes it replace the
 * old one, on the account and on its SMS second factor. Every code is stored as SHA-256 of
 * `<id>:<code>` (the id only the browser holds), single use, expiring, 5 attempts reserved before
 * the comparison. No HTTP and no SQL here.
 *
 * The mailbox alone never replaces an SMS second factor: whoever holds it can reset the password
 * too, so the SMS factor would protect nothing. The emailed code must come with the pending
 * mfaToken of a password sign-in of the same user ("Lost your phone?" on the SMS step); that
 * token is checked, not spent, and the change-phone token is bound to it. Without one, an account
 * with an SMS factor is refused once the emailed code is proven (so the email step still answers
 * the same for every address); accounts without one change their number as before.
 */
import { ErrorCodes, PhoneErrorCodes, type ChangePhoneNumberResponse, type ResetPhoneNumberResponse, type VerifyPhoneNumberResponse, type VerifyResetPhoneNumberResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import { newId, newSecret, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { listMfaDevices } from '../../db/queries/mfa-devices';
import { replaceSmsDevices } from '../../db/queries/mfa-factor-devices';
import { findMfaToken, forgetRememberedDevices, type MfaTokenRow } from '../../db/queries/mfa-tokens';
import { consumeOneTimeToken, findOneTimeToken, insertOneTimeToken, invalidateUserTokens } from '../../db/queries/one-time-tokens';
import {
  consumePhoneVerification,
  deleteExpiredPhoneVerifications,
  findLiveUserToken,
  findPhoneVerification,
  findUserIdByVerifiedPhone,
  insertPhoneVerification,
  invalidatePhoneVerifications,
  reservePhoneVerificationAttempt,
  spendExhaustedPhoneVerification,
  type PhoneVerificationRow,
} from '../../db/queries/phone-verifications';
import { findUserByEmail, findUserById, hasEmail, updateUser, type UserWithEmail } from '../../db/queries/users';
import { AppError, Errors } from '../../errors';
import { AMR_PASSWORD, type AuthContext, type ClientInfo } from '../auth/auth';
import type { Mailer } from '../messaging/mail';
import type { EmailService } from '../messaging/emails/email-service';
import { AuditActions, recordUserAudit } from '../admin/audit-log';
import { newEmailCode } from '../mfa/factors';
import { INVALID_PHONE_MESSAGE, maskPhoneNumber, normalizePhoneNumber } from '../platform/phone';
import { UNKNOWN_CLIENT, type RateLimiter } from '../platform/rate-limit';
import { requireFreshAuthForNewFactor } from '../auth/recent-auth';
import { SmsDeliveryError, type SmsSender } from '../messaging/sms';
import { log, reasonOf } from '../../log';

/** The emailed reset code lives this long. */
export const PHONE_RESET_CODE_TTL_MS = 15 * 60_000;
/** After the emailed code: time to choose the new number. */
export const CHANGE_PHONE_TOKEN_TTL_MS = 15 * 60_000;
/** The code texted to a new number lives this long. */
export const PHONE_SMS_CODE_TTL_MS = 5 * 60_000;
/** Wrong codes per request; then it is spent. */
export const PHONE_CODE_MAX_ATTEMPTS = 5;
/** one_time_tokens.purpose of the token a verified reset gives. */
export const CHANGE_PHONE = 'change-phone';

type Purpose = 'reset' | 'reset-change' | 'change';
type Client = Pick<ClientInfo, 'ip' | 'userAgent' | 'locale'>;

export interface PhoneChangeService {
  /** ResetPhoneNumber: emails a code to a known, active account with a phone; the same answer for anyone. */
  requestReset(email: string, client: Client): Promise<ResetPhoneNumberResponse>;
  /**
   * VerifyResetPhoneNumber: the emailed code becomes a token that may set a new number. An account
   * whose phone is an SMS second factor also needs `mfaToken`, its pending password sign-in.
   */
  verifyReset(resetPhoneNumberToken: string, code: string, client: Client, mfaToken?: string): Promise<VerifyResetPhoneNumberResponse>;
  /** ChangePhoneNumber (PUT phone/change): texts a code to the new number. */
  changeAfterReset(changePhoneNumberToken: string, phoneNumber: string, client: Client): Promise<ChangePhoneNumberResponse>;
  /** POST phone: the signed-in user's new number gets a texted code (recent sign-in, or step-up with a second factor). */
  startChange(ctx: AuthContext, phoneNumber: string): Promise<ChangePhoneNumberResponse>;
  /** POST phone/verify: the texted code makes the new number the account's (and, after a reset, its SMS factor's). */
  verifyChange(changePhoneId: string, code: string, client: Client): Promise<VerifyPhoneNumberResponse>;
  /** Resolves once every background delivery started so far has finished (shutdown and tests). */
  idle(): Promise<void>;
}

// One message for a wrong, expired, used, exhausted or made-up request, so no answer tells them apart.
const invalidCode = () => new AppError(ErrorCodes.invalidPhoneCode, 400, 'The code is invalid or has expired');
const resetExpired = () => new AppError(ErrorCodes.invalidPhoneCode, 400, 'The phone number reset has expired, please start again');
const undelivered = () => new AppError(ErrorCodes.generic, 502, 'The text message could not be sent, please try again');
const numberTaken = () => new AppError(ErrorCodes.userAlreadyExists, 409, 'This phone number is already used by another account');
/** The account's phone is an SMS second factor and no password sign-in came with the reset. */
export const NEEDS_PASSWORD_MESSAGE = "Your phone also confirms your sign-ins, so it can only be replaced after your password. Sign in with your password first, then choose 'Lost your phone?'. If you cannot, sign in with one of your recovery codes.";
/** The mfaToken sent with the reset is expired, used, another user's, or not from a password sign-in. */
export const STALE_SIGN_IN_MESSAGE = "Your sign-in has expired or is for another account. Sign in with your password again, then choose 'Lost your phone?'. If you cannot, sign in with one of your recovery codes.";
const needsPassword = () => new AppError(PhoneErrorCodes.phoneResetNeedsPassword, 403, NEEDS_PASSWORD_MESSAGE);
const staleSignIn = () => new AppError(ErrorCodes.invalidMfaToken, 401, STALE_SIGN_IN_MESSAGE);

export function createPhoneChangeService(deps: { db: Db; clock: Clock; mail: Mailer; emails: EmailService; sms: SmsSender; limiter: RateLimiter }): PhoneChangeService {
  const { db, clock, mail, emails, sms, limiter } = deps;
  const pending = new Set<Promise<void>>();

  function inBackground(what: string, task: () => Promise<void>): void {
    const run = task()
      .catch((err: unknown) => {
        // Only the error's message: never the code, the number or the address.
        log.error(`Phone number: ${what} failed:`, reasonOf(err));
      })
      .finally(() => pending.delete(run));
    pending.add(run);
  }

  function phoneOf(input: string): string {
    const e164 = normalizePhoneNumber(input);
    if (!e164) throw Errors.validation(`phoneNumber: ${INVALID_PHONE_MESSAGE}`);
    return e164;
  }

  /** Records a new number waiting for its texted code; only the user's newest one works. */
  async function newNumberRequest(userId: string, purpose: 'reset-change' | 'change', phoneNumber: string): Promise<{ id: string; code: string }> {
    const id = newSecret();
    const code = newEmailCode();
    const now = clock.now();
    await deleteExpiredPhoneVerifications(db, now - PHONE_SMS_CODE_TTL_MS);
    await invalidatePhoneVerifications(db, userId, ['change', 'reset-change'], now);
    await insertPhoneVerification(db, { id_hash: sha256(id), user_id: userId, purpose, phone_number: phoneNumber, code_hash: sha256(`${id}:${code}`), attempts: 0, created_at: now, expires_at: now + PHONE_SMS_CODE_TTL_MS, used_at: null });
    return { id, code };
  }

  /** The right code of a live request of one of `purposes` spends it and returns it; anything else is the same 400. */
  async function proven(id: string, code: string, purposes: Purpose[]): Promise<PhoneVerificationRow> {
    const hash = sha256(id);
    const row = await findPhoneVerification(db, hash);
    const now = clock.now();
    if (!row || !(purposes as string[]).includes(row.purpose) || row.used_at !== null || row.expires_at <= now) throw invalidCode();
    // Counted before the comparison, atomically, so parallel guesses cannot exceed the limit.
    if (!(await reservePhoneVerificationAttempt(db, hash, now, PHONE_CODE_MAX_ATTEMPTS))) throw invalidCode();
    if (!safeEqual(row.code_hash, sha256(`${id}:${code}`)) || !(await consumePhoneVerification(db, hash, clock.now()))) {
      await spendExhaustedPhoneVerification(db, hash, clock.now(), PHONE_CODE_MAX_ATTEMPTS);
      throw invalidCode();
    }
    return row;
  }

  const hasSmsFactor = async (userId: string) => (await listMfaDevices(db, userId, 'active')).some((d) => d.type === 'sms');

  /**
   * A pending password sign-in: a live mfaToken of a sign-in that proved the password (as services/mfa/mfa.ts
   * checks tokens; only read, never spent or counted). Anything else is refused.
   */
  async function passwordSignIn(mfaToken: string): Promise<MfaTokenRow> {
    const row = await findMfaToken(db, sha256(mfaToken));
    if (!row || row.used_at !== null || row.expires_at <= clock.now() || row.purpose !== 'login' || row.primary_method !== AMR_PASSWORD) throw staleSignIn();
    return row;
  }

  /** Texts a code to the new number (limited per user and per number) and answers the changePhoneId. */
  async function textNewNumber(userId: string, purpose: 'reset-change' | 'change', phoneNumber: string): Promise<ChangePhoneNumberResponse> {
    await limiter.consume('smsCodesPerUser', userId);
    await limiter.consume('smsCodesPerNumber', phoneNumber);
    const { id, code } = await newNumberRequest(userId, purpose, phoneNumber);
    try {
      await sms.send({ to: phoneNumber, body: `Your Gatehouse code to confirm this phone number is ${code}. It expires in ${PHONE_SMS_CODE_TTL_MS / 60_000} minutes. Never share it.` });
    } catch (err) {
      if (err instanceof SmsDeliveryError) {
        log.error('Phone verification SMS:', err.message);
        throw undelivered();
      }
      throw err;
    }
    return { changePhoneId: id, phoneNumber: maskPhoneNumber(phoneNumber) };
  }

  return {
    async requestReset(email, client) {
      await limiter.consume('phoneResetPerIp', client.ip ?? UNKNOWN_CLIENT);
      const resetPhoneNumberToken = newSecret();
      // Over the per-email limit: the same answer, and nothing is sent.
      if (!(await limiter.tryConsume('phoneResetPerEmail', email.trim().toLowerCase()))) return { resetPhoneNumberToken };
      inBackground('reset email', async () => {
        const user = await findUserByEmail(db, email.trim());
        if (!hasEmail(user) || user.verified !== 1 || user.disabled === 1) return;
        // Nothing to reset for an account without a phone.
        if (!user.phone_number && !(await hasSmsFactor(user.id))) return;
        const code = newEmailCode();
        const now = clock.now();
        await deleteExpiredPhoneVerifications(db, now - PHONE_RESET_CODE_TTL_MS);
        await invalidatePhoneVerifications(db, user.id, ['reset'], now);
        await insertPhoneVerification(db, {
          id_hash: sha256(resetPhoneNumberToken),
          user_id: user.id,
          purpose: 'reset',
          phone_number: null,
          code_hash: sha256(`${resetPhoneNumberToken}:${code}`),
          attempts: 0,
          created_at: now,
          expires_at: now + PHONE_RESET_CODE_TTL_MS,
          used_at: null,
        });
        await mail.send(await emails.render('resetPhone', user, { code, lifetime: { minutes: PHONE_RESET_CODE_TTL_MS / 60_000 } }, { locale: client.locale }));
      });
      return { resetPhoneNumberToken };
    },

    async verifyReset(resetPhoneNumberToken, code, client, mfaToken) {
      await limiter.consume('phoneVerifyPerIp', client.ip ?? UNKNOWN_CLIENT);
      // Checked before the code, which it leaves unspent: it tells nothing about the account being reset.
      const signIn = mfaToken === undefined ? null : await passwordSignIn(mfaToken);
      const row = await proven(resetPhoneNumberToken, code, ['reset']);
      const user = await findUserById(db, row.user_id);
      if (!user || user.disabled === 1) throw invalidCode();
      // Only now, to someone who proved the mailbox, may the answer depend on the account.
      if (signIn && signIn.user_id !== user.id) throw staleSignIn();
      if (!signIn && (await hasSmsFactor(user.id))) throw needsPassword();
      const now = clock.now();
      await invalidateUserTokens(db, user.id, CHANGE_PHONE, now);
      const changePhoneNumberToken = newSecret();
      await insertOneTimeToken(db, {
        token_hash: sha256(changePhoneNumberToken),
        user_id: user.id,
        purpose: CHANGE_PHONE,
        created_at: now,
        expires_at: now + CHANGE_PHONE_TOKEN_TTL_MS,
        used_at: null,
        // Bound to the password sign-in: only such a token may replace an SMS second factor.
        binding_hash: signIn?.token_hash ?? null,
        pending_password_hash: null,
        pending_profile: null,
      });
      return { changePhoneNumberToken };
    },

    async changeAfterReset(changePhoneNumberToken, phoneNumber, client) {
      await limiter.consume('phoneVerifyPerIp', client.ip ?? UNKNOWN_CLIENT);
      const token = await findOneTimeToken(db, sha256(changePhoneNumberToken), CHANGE_PHONE);
      if (!token || token.used_at !== null || token.expires_at <= clock.now()) throw resetExpired();
      // No text to send when the number could not replace the factor anyway (phone/verify checks it again).
      if (!token.binding_hash && (await hasSmsFactor(token.user_id))) throw needsPassword();
      // The token stays live until the new number is proven, so a mistyped number can be corrected.
      return textNewNumber(token.user_id, 'reset-change', phoneOf(phoneNumber));
    },

    async startChange(ctx, phoneNumber) {
      const user = await findUserById(db, ctx.userId);
      if (!user) throw Errors.unauthorized();
      // The phone number can sign in and recover the password: changing it is a security change.
      requireFreshAuthForNewFactor(ctx, clock.now(), (await listMfaDevices(db, user.id, 'active')).length > 0);
      const e164 = phoneOf(phoneNumber);
      if (user.phone_number === e164 && user.phone_verified === 1) throw Errors.validation('phoneNumber: This is already your phone number');
      return textNewNumber(user.id, 'change', e164);
    },

    async verifyChange(changePhoneId, code, client) {
      await limiter.consume('phoneVerifyPerIp', client.ip ?? UNKNOWN_CLIENT);
      const row = await proven(changePhoneId, code, ['change', 'reset-change']);
      const user = await findUserById(db, row.user_id);
      const phoneNumber = row.phone_number;
      if (!user || user.disabled === 1 || !phoneNumber) throw invalidCode();
      // Told only to whoever just proved they hold the phone.
      const holder = await findUserIdByVerifiedPhone(db, phoneNumber);
      if (holder && holder !== user.id) throw numberTaken();
      const now = clock.now();
      const smsPhones = (await listMfaDevices(db, user.id, 'active')).filter((d) => d.type === 'sms');
      if (row.purpose === 'reset-change') {
        const live = await findLiveUserToken(db, user.id, CHANGE_PHONE, now);
        if (!live) throw resetExpired();
        // An SMS factor (even one enrolled since the emailed code) is replaced only after a password sign-in.
        if (smsPhones.length > 0 && !live.binding_hash) throw needsPassword();
        // The reset is used up: its token dies before anything changes, so it cannot be replayed.
        if (!(await consumeOneTimeToken(db, live.token_hash, now))) throw resetExpired();
      }
      const masked = maskPhoneNumber(phoneNumber);
      try {
        await db.transaction().execute(async (trx) => {
          await updateUser(trx, user.id, { phone_number: phoneNumber, phone_verified: 1 });
          await recordUserAudit(
            trx,
            user,
            client,
            { action: AuditActions.phoneChanged, description: `Phone number changed to ${masked}${row.purpose === 'reset-change' ? ' after a phone number reset' : ''}`, json: { phoneNumber: masked, reset: row.purpose === 'reset-change' } },
            now,
          );
        });
      } catch (err) {
        // Two accounts proving one number at the same moment: the unique index lets one win.
        if (err instanceof Error && /unique|duplicate/i.test(err.message)) throw numberTaken();
        throw err;
      }
      if (row.purpose === 'reset-change') {
        if (smsPhones.length > 0) {
          // The lost phone's SMS factor is replaced by the proven number (the reset proved the password too).
          await replaceSmsDevices(db, user.id, { id: newId(), user_id: user.id, type: 'sms', status: 'active', secret: null, email: null, last_used_step: null, created_at: now, verified_at: now, phone_number: phoneNumber });
        }
        await invalidateUserTokens(db, user.id, CHANGE_PHONE, now);
        // Browsers trusted under the old factor must prove the new one.
        await forgetRememberedDevices(db, user.id);
      }
      await invalidatePhoneVerifications(db, user.id, ['reset', 'change', 'reset-change'], now);
      // The numbers this change replaces: the account's, and after a reset the SMS factor's.
      const previous = new Set([user.phone_number, ...(row.purpose === 'reset-change' ? smsPhones.map((d) => d.phone_number) : [])].filter((n): n is string => !!n && n !== phoneNumber));
      inBackground('change notice', async () => {
        if (hasEmail(user)) await mail.send(await emails.render('phoneChanged', user, { phone: masked }, { locale: client.locale }));
        // The old number hears of it too: if the change was not its owner's, they learn at once.
        for (const to of previous) await sms.send({ to, body: `The phone number of your Gatehouse account was changed to ${masked}. If this was not you, contact your administrator.` });
      });
      return { phoneNumber: masked };
    },

    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
