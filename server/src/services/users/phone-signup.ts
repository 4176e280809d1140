/**
 * Sign-up by phone number (seed 000 sections 2.2, 3, 4.2, 5, 7.3): `POST users v1 signUp/phoneNumber`.
 * The account has a phone number and no email or password. It stays unactivated until the number is
 * proven: the browser then asks for an SMS code (passwordless smscode prelogin, the VerifyPhone stage
 * and the loginWithQuickSmsOtc step), and the right code verifies the number, activates the account
 * and signs it in (services/passwordless/sms-login.ts).
 *
 * Like an email sign-up, nothing here is proven: a second sign-up of the same unproven number reuses
 * the waiting account instead of adding accounts, and only the holder of the phone can finish it.
 * The second sign-up changes nothing on it (anyone who knows the number could otherwise choose the
 * profile, metadata and account name its owner ends up with). A waiting account expires after
 * PENDING_PHONE_SIGNUP_TTL_MS and receives at most a few codes (RATE_LIMIT_PHONE_SIGNUP_CODES), so
 * unproven numbers cannot be made lasting SMS targets; after it expires a new sign-up starts afresh.
 * A number some account already verified answers 409, as an email sign-up of an activated address does.
 */
import { ErrorCodes, PHONE_SIGNUP_REQUIRED_MESSAGE, phoneSignUpOpen, type PhoneSignUpRequest, type SignUpResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { raiseUserCreated } from '../connectivity/user-events';
import { findPendingPhoneSignUp, findUserByVerifiedPhone } from '../../db/queries/phone-users';
import { assignRole } from '../../db/queries/roles';
import { addUserToTenant } from '../../db/queries/tenants';
import { insertUser } from '../../db/queries/users';
import { AppError, Errors } from '../../errors';
import type { ClientInfo } from '../auth/auth';
import { INVALID_PHONE_MESSAGE, maskPhoneNumber, normalizePhoneNumber } from '../platform/phone';
import { UNKNOWN_CLIENT, type RateLimiter } from '../platform/rate-limit';
import { createTenantWithRoles } from '../admin/tenants';

export interface PhoneSignUpService {
  signUp(body: PhoneSignUpRequest, client: Pick<ClientInfo, 'ip'>): Promise<SignUpResponse>;
}

/** A phone sign-up whose number is not proven by then has expired: no more codes, and a new sign-up starts afresh. */
export const PENDING_PHONE_SIGNUP_TTL_MS = 24 * 3600_000;

/** The number's phone sign-up still waiting for its code, unless it has expired. */
export function findWaitingPhoneSignUp(db: Db, clock: Clock, e164: string) {
  return findPendingPhoneSignUp(db, e164, clock.now() - PENDING_PHONE_SIGNUP_TTL_MS);
}

const userAlreadyExists = () => new AppError(ErrorCodes.userAlreadyExists, 409, 'User already exists');

/** The E.164 form of a sign-up's phone number; the seed's message when it is missing. */
export function signUpPhoneNumber(typed: string | undefined, missingMessage: string): string {
  if (!typed?.trim()) throw Errors.validation(missingMessage);
  const e164 = normalizePhoneNumber(typed);
  if (!e164) throw Errors.validation(INVALID_PHONE_MESSAGE);
  return e164;
}

export function createPhoneSignUpService(deps: { db: Db; clock: Clock; limiter: RateLimiter; config: Pick<Config, 'allowSignups' | 'signUpStrategies'> }): PhoneSignUpService {
  const { db, clock, limiter, config } = deps;

  return {
    async signUp(body, client) {
      if (!config.allowSignups) throw new AppError(ErrorCodes.signUpDisabled, 403, 'Sign up is disabled');
      const strategies = config.signUpStrategies;
      if (!strategies.phoneNumber.enabled) throw new AppError(ErrorCodes.signUpStrategyDisabled, 403, 'Sign-up with a phone number is disabled');
      // Email required: every account needs one, and this call makes accounts without.
      if (!phoneSignUpOpen(strategies)) throw Errors.validation('Email is required: sign up with your email address');
      await limiter.consume('signUpPerIp', client.ip ?? UNKNOWN_CLIENT);
      const phone = signUpPhoneNumber(body.phoneNumber, PHONE_SIGNUP_REQUIRED_MESSAGE);
      if (await findUserByVerifiedPhone(db, phone)) throw userAlreadyExists();

      const now = clock.now();
      const name = body.name ?? '';
      // An unfinished sign-up of this number (maybe by someone else): whoever proves the number gets
      // that account as it is; this sign-up's profile is not applied. Fresh opaque ids: the caller has
      // not shown it holds the number (the same shape either way).
      if (await findWaitingPhoneSignUp(db, clock, phone)) return { shouldActivate: true, userId: newId(), tenantId: newId() };

      const userId = newId();
      let tenantId = '';
      try {
        await db.transaction().execute(async (trx) => {
          const created = await createTenantWithRoles(trx, body.companyName ?? (name || maskPhoneNumber(phone)), now);
          tenantId = created.tenantId;
          await insertUser(trx, {
            id: userId,
            email: null,
            username: null,
            name,
            password_hash: null,
            verified: 0,
            super_user: 0,
            disabled: 0,
            phone_number: phone,
            phone_verified: 0,
            address: null,
            job_title: null,
            profile_picture_id: null,
            metadata: body.metadata ?? null,
            last_tenant_id: tenantId,
            created_at: now,
            last_login: null,
          });
          await addUserToTenant(trx, userId, tenantId, now);
          await assignRole(trx, userId, tenantId, created.roleIds.Admin!);
          await raiseUserCreated(trx, { tenantId, user: { id: userId, email: null, name }, source: 'signup', actor: { userId, email: null } }, now);
        });
      } catch (err) {
        if (await findUserByVerifiedPhone(db, phone)) throw userAlreadyExists();
        throw err;
      }
      return { shouldActivate: true, userId, tenantId };
    },
  };
}
