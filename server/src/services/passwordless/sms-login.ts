/**
 * SMS sign-in (seed 000 sections 1, 2.2, 4.2, 7.2): passwordless type `smscode`, chosen by the login
 * policy. SmsCode: the user types an email; SmsCodeV2: a phone number; UsernameAndSms: a username.
 * A 6-digit code is texted to the account's verified phone number. Requests answer the same way for
 * every identifier (the lookup and the SMS run after the answer); codes are random, stored hashed,
 * single use, short-lived, and their attempts are reserved atomically before each comparison.
 * The code of a phone sign-up (seed 4.2: "Phone sign-up then triggers an SMS one-time-code login",
 * loginWithQuickSmsOtc) is the same kind of code: proving it verifies the number, activates the
 * account and signs it in. A proven code ends like a password sign-in: the MFA gate, then a session.
 */
import { SignInMethods } from '../auth/sign-in-methods';
import { randomInt } from 'node:crypto';
import { AuthMethods, ErrorCodes, passwordlessTypeOf, usesUsername, type PasswordlessPostLoginRequest, type PasswordlessPreLoginRequest, type PasswordlessPreLoginResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import {
  consumePasswordless, findLatestPasswordless, insertPasswordlessCode, invalidateUserPasswordless, reservePasswordlessAttempt, spendExhaustedPasswordless,
} from '../../db/queries/passwordless-codes';
import { findUserByVerifiedPhone, markPhoneVerified } from '../../db/queries/phone-users';
import { findUserByEmail, findUserById, findUserByUsername, type UserRow } from '../../db/queries/users';
import { AppError, Errors } from '../../errors';
import type { AuthService, ClientInfo, IssuedSession } from '../auth/auth';
import { requireLocalLogin } from '../auth/login-policy';
import { INVALID_PHONE_MESSAGE, maskPhoneNumber, normalizePhoneNumber } from '../platform/phone';
import { findWaitingPhoneSignUp } from '../users/phone-signup';
import { UNKNOWN_CLIENT, type RateLimiter } from '../platform/rate-limit';
import type { SmsSender } from '../messaging/sms';
import { log, reasonOf } from '../../log';

/** A texted sign-in code lives this long. */
export const SMS_CODE_TTL_MS = 5 * 60_000;
/** Wrong guesses one texted code allows; then it is spent and a new one must be requested. */
export const SMS_CODE_MAX_ATTEMPTS = 5;
/** passwordless_codes.kind of a texted sign-in code. */
const KIND = 'smscode';

/**
 * amr of an SMS sign-in (RFC 8176): 'sms', confirmation by a text message to the user's registered
 * number, and 'otp', a one-time password. No 'mfa', so it does not count as a step-up.
 */
export const AMR_SMS_CODE = [AuthMethods.sms, AuthMethods.otp];

// One message for a wrong, expired, used, exhausted code or an unknown identifier: no answer tells them apart.
const invalidCode = () => new AppError(ErrorCodes.invalidPasswordlessCode, 400, 'The code is invalid or has expired');

type Identifier = { kind: 'email' | 'username' | 'phoneNumber'; value: string };

/** Who a code goes to: a signed-up user with a verified number, or a phone sign-up proving its number. */
interface Target {
  user: UserRow;
  phone: string;
  signUp: boolean;
}

export interface SmsLoginService {
  /** Texts a code to a known account's verified number; answers the same way (and as fast) for anyone. */
  preLogin(body: PasswordlessPreLoginRequest, client: ClientInfo): Promise<PasswordlessPreLoginResponse>;
  /** The identifier's live code: the MFA gate's answer or a new session (a phone sign-up is activated first). */
  postLogin(body: PasswordlessPostLoginRequest, client: ClientInfo): Promise<IssuedSession>;
  /** Resolves once every background delivery started so far has finished (shutdown and tests). */
  idle(): Promise<void>;
}

/**
 * The code's hash is keyed by its row id and by the number it was texted to: a code texted to a
 * number the account no longer holds is dead, and equal codes never share a hash.
 */
const secretOf = (rowId: string, phone: string, code: string) => sha256(`${rowId}:${phone}:${code}`);

export function createSmsLoginService(deps: {
  db: Db;
  sms: SmsSender;
  clock: Clock;
  auth: AuthService;
  limiter: RateLimiter;
  /** The MFA gate of a password sign-in: a pending-MFA answer replaces the session, null lets it through. */
  secondFactor?: (user: UserRow, client: ClientInfo) => Promise<IssuedSession | null>;
  config: Pick<Config, 'loginStrategy'>;
}): SmsLoginService {
  const { db, sms, clock, auth, limiter, config } = deps;
  const pending = new Set<Promise<void>>();

  function inBackground(task: () => Promise<void>): void {
    const run = task()
      .catch((err: unknown) => {
        // Only the error's message: never the code or the number.
        log.error('SMS sign-in: code delivery failed:', reasonOf(err));
      })
      .finally(() => pending.delete(run));
    pending.add(run);
  }

  /** Refuses unless the login policy is an SMS strategy (and every type under NoLocalAuthentication). */
  function requireSmsStrategy(): void {
    requireLocalLogin(config.loginStrategy);
    if (passwordlessTypeOf(config.loginStrategy) !== 'smscode') {
      throw new AppError(ErrorCodes.passwordlessNotEnabled, 400, 'Sign-in by SMS code is not enabled for this application');
    }
  }

  /** The identifier the strategy signs in with: a phone number (SmsCodeV2), a username or an email. */
  function identifierOf(body: Pick<PasswordlessPostLoginRequest, 'email' | 'username' | 'phoneNumber'>): Identifier {
    if (config.loginStrategy === 'SmsCodeV2') {
      if (!body.phoneNumber) throw Errors.validation('phoneNumber is required');
      const e164 = normalizePhoneNumber(body.phoneNumber);
      if (!e164) throw Errors.validation(INVALID_PHONE_MESSAGE);
      return { kind: 'phoneNumber', value: e164 };
    }
    if (body.username && usesUsername(config.loginStrategy)) return { kind: 'username', value: body.username.trim() };
    if (body.email) return { kind: 'email', value: body.email.trim().toLowerCase() };
    throw Errors.validation(usesUsername(config.loginStrategy) ? 'username is required' : 'email is required');
  }

  const active = (user: UserRow | undefined): user is UserRow => user !== undefined && user.verified === 1 && user.disabled !== 1;

  /** Where a code for this identifier may go; undefined for unknown, disabled or unverified numbers. */
  async function findTarget(id: Identifier): Promise<Target | undefined> {
    if (id.kind === 'phoneNumber') {
      const user = await findUserByVerifiedPhone(db, id.value);
      if (user) return active(user) ? { user, phone: id.value, signUp: false } : undefined;
      const signUp = await findWaitingPhoneSignUp(db, clock, id.value);
      return signUp && signUp.disabled !== 1 ? { user: signUp, phone: id.value, signUp: true } : undefined;
    }
    const user = id.kind === 'email' ? await findUserByEmail(db, id.value) : await findUserByUsername(db, id.value);
    // A number typed into a profile is not proven: only a verified one receives sign-in codes.
    if (!active(user) || user.phone_verified !== 1 || !user.phone_number) return undefined;
    return { user, phone: user.phone_number, signUp: false };
  }

  /** Proven: the MFA gate first (seed 4.2: no session until MFA is verified), else a session. */
  async function signIn(userId: string, client: ClientInfo): Promise<IssuedSession> {
    const user = await findUserById(db, userId);
    if (!active(user)) throw invalidCode();
    const signingIn: ClientInfo = { ...client, signInMethod: SignInMethods.smsCode };
    const pendingMfa = await deps.secondFactor?.(user, signingIn);
    if (pendingMfa) return pendingMfa;
    return auth.startSession(user, signingIn, AMR_SMS_CODE);
  }

  return {
    async preLogin(body, client) {
      requireSmsStrategy();
      const id = identifierOf(body);
      // Where the code goes, when the user typed it: their own input, masked; nothing is looked up.
      const answer: PasswordlessPreLoginResponse = id.kind === 'phoneNumber' ? { phoneNumber: maskPhoneNumber(id.value) } : {};
      await limiter.consume('passwordlessPerIp', client.ip ?? UNKNOWN_CLIENT);
      // Over the per-identifier limit the answer stays the same; only the SMS is not sent.
      if (!(await limiter.tryConsume('passwordlessPerIdentifier', `${id.kind}:${id.value.toLowerCase()}`))) return answer;
      inBackground(async () => {
        const target = await findTarget(id);
        if (!target) return;
        // Per destination too: an email and a username of one account lead to the same phone.
        if (id.kind !== 'phoneNumber' && !(await limiter.tryConsume('passwordlessPerIdentifier', `phoneNumber:${target.phone}`))) return;
        // An unproven number is anyone's to type in: a waiting phone sign-up gets a few codes in all,
        // and every code counts against the number's cap over all SMS flows (SMS pumping).
        if (target.signUp && !(await limiter.tryConsume('phoneSignUpCodes', target.user.id))) return;
        if (!(await limiter.tryConsume('smsCodesPerNumber', target.phone))) return;
        const now = clock.now();
        // Only the newest code works.
        await invalidateUserPasswordless(db, target.user.id, KIND, now);
        const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
        const rowId = newId();
        await insertPasswordlessCode(db, { id: rowId, user_id: target.user.id, kind: KIND, secret_hash: secretOf(rowId, target.phone, code), attempts: 0, created_at: now, expires_at: now + SMS_CODE_TTL_MS, used_at: null });
        const minutes = SMS_CODE_TTL_MS / 60_000;
        await sms.send({ to: target.phone, body: `Your Gatehouse sign-in code is ${code}. It expires in ${minutes} minutes. Never share it.` });
      });
      return answer;
    },

    async postLogin(body, client) {
      requireSmsStrategy();
      await limiter.consume('passwordlessPerIp', client.ip ?? UNKNOWN_CLIENT);
      const id = identifierOf(body);
      const now = clock.now();
      const code = (body.code ?? '').trim();
      const target = await findTarget(id);
      const row = target ? await findLatestPasswordless(db, target.user.id, KIND) : undefined;
      // Reserve-first: the attempt is counted before the comparison, so parallel guesses cannot pass the limit.
      if (!target || !row || !(await reservePasswordlessAttempt(db, row.id, now, SMS_CODE_MAX_ATTEMPTS))) throw invalidCode();
      if (!/^\d{6}$/.test(code) || !safeEqual(row.secret_hash, secretOf(row.id, target.phone, code))) {
        await spendExhaustedPasswordless(db, row.id, now, SMS_CODE_MAX_ATTEMPTS);
        throw invalidCode();
      }
      if (!(await consumePasswordless(db, row.id, now))) throw invalidCode();
      if (target.signUp && !(await markPhoneVerified(db, target.user.id, target.phone, true))) {
        // Someone else proved this number first (a race between two phone sign-ups of one number).
        throw new AppError(ErrorCodes.userAlreadyExists, 409, 'User already exists');
      }
      return signIn(target.user.id, client);
    },

    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
