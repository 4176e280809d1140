import { ErrorCodes, type ActivateRequest, type SignUpRequest, type SignUpResponse, type SignUpStrategiesResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { newId, newSecret, safeEqual, sha256 } from '../crypto';
import type { Db } from '../db';
import { consumeOneTimeToken, findOneTimeToken, insertOneTimeToken, invalidateUserTokens } from '../db/queries/one-time-tokens';
import { assignRole } from '../db/queries/roles';
import { addUserToTenant, listUserTenants } from '../db/queries/tenants';
import { findUserByEmail, findUserById, insertUser, updateUser, type UserRow } from '../db/queries/users';
import { AppError } from '../errors';
import type { AuthService, ClientInfo, IssuedSession } from './auth';
import { activationEmail, type Mailer } from './mail';
import { checkPasswordPolicy, hashPassword } from './passwords';
import { createTenantWithRoles } from './tenants';

const ACTIVATION = 'activation';

const invalidToken = () => new AppError(ErrorCodes.invalidActivationToken, 400, 'The activation link is invalid or has expired');

export interface SignUpService {
  strategies(): SignUpStrategiesResponse;
  /** `appUrl` is where the emailed link points (an allowed request origin or the configured app URL). */
  signUp(body: SignUpRequest, appUrl: string): Promise<SignUpResponse>;
  activationStrategy(userId: string, token: string): Promise<{ shouldSetPassword: boolean }>;
  activate(body: ActivateRequest, client: ClientInfo): Promise<IssuedSession>;
  resendActivation(email: string, appUrl: string): Promise<void>;
}

export function createSignUpService(deps: { db: Db; mail: Mailer; clock: Clock; auth: AuthService; config: Pick<Config, 'allowSignups' | 'password' | 'activationTokenTtl'> }): SignUpService {
  const { db, mail, clock, auth, config } = deps;

  function policyError(password: string): AppError | null {
    const message = checkPasswordPolicy(password, config.password);
    return message ? new AppError(ErrorCodes.passwordPolicy, 400, message) : null;
  }

  async function sendActivation(user: UserRow, appUrl: string): Promise<void> {
    const now = clock.now();
    await invalidateUserTokens(db, user.id, ACTIVATION, now);
    const token = newSecret();
    await insertOneTimeToken(db, { token_hash: sha256(token), user_id: user.id, purpose: ACTIVATION, created_at: now, expires_at: now + config.activationTokenTtl * 1000, used_at: null });
    const link = `${appUrl}/account/activate?userId=${encodeURIComponent(user.id)}&token=${encodeURIComponent(token)}`;
    await mail.send(activationEmail(user.email, user.name, link));
  }

  /** Finds the user behind a live activation token without using it up. */
  async function checkToken(userId: string, token: string): Promise<{ user: UserRow; hash: string }> {
    const hash = sha256(token);
    const row = await findOneTimeToken(db, hash, ACTIVATION);
    if (!row || row.used_at !== null || row.expires_at <= clock.now() || !safeEqual(row.user_id, userId) || !safeEqual(row.token_hash, hash)) throw invalidToken();
    const user = await findUserById(db, row.user_id);
    if (!user) throw invalidToken();
    return { user, hash };
  }

  return {
    strategies: () => ({ email: { enabled: true, required: true }, phoneNumber: { enabled: false, required: false } }),

    async signUp(body, appUrl) {
      if (!config.allowSignups) throw new AppError(ErrorCodes.signUpDisabled, 403, 'Sign up is disabled');
      const existing = await findUserByEmail(db, body.email);
      if (existing) {
        if (existing.verified === 1) throw new AppError(ErrorCodes.userAlreadyExists, 409, 'User already exists');
        // An unfinished sign-up: send a fresh link instead of failing, so a lost email is recoverable.
        await sendActivation(existing, appUrl);
        const tenantId = (await listUserTenants(db, existing.id))[0]?.id ?? '';
        return { shouldActivate: true, userId: existing.id, tenantId };
      }
      if (!body.password) throw new AppError(ErrorCodes.passwordPolicy, 400, 'Password is required');
      const bad = policyError(body.password);
      if (bad) throw bad;
      const passwordHash = await hashPassword(body.password);
      const now = clock.now();
      const [local, domain] = body.email.split('@') as [string, string];
      const name = body.name ?? local;
      const userId = newId();
      let tenantId = '';
      try {
        await db.transaction().execute(async (trx) => {
          const created = await createTenantWithRoles(trx, body.companyName ?? domain, now);
          tenantId = created.tenantId;
          await insertUser(trx, {
            id: userId,
            email: body.email,
            username: null,
            name,
            password_hash: passwordHash,
            verified: 0,
            super_user: 0,
            disabled: 0,
            phone_number: body.phoneNumber || null,
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
        });
      } catch (err) {
        // Two sign-ups for one email raced; the loser hits the unique index.
        if (await findUserByEmail(db, body.email)) throw new AppError(ErrorCodes.userAlreadyExists, 409, 'User already exists');
        throw err;
      }
      const user = await findUserById(db, userId);
      await sendActivation(user!, appUrl);
      return { shouldActivate: true, userId, tenantId };
    },

    async activationStrategy(userId, token) {
      const { user } = await checkToken(userId, token);
      return { shouldSetPassword: !user.password_hash };
    },

    async activate(body, client) {
      const { user, hash } = await checkToken(body.userId, body.token);
      let passwordHash: string | undefined;
      if (body.password) {
        const bad = policyError(body.password);
        if (bad) throw bad;
        passwordHash = await hashPassword(body.password);
      } else if (!user.password_hash) {
        throw new AppError(ErrorCodes.passwordPolicy, 400, 'Password is required');
      }
      if (user.disabled === 1) throw new AppError(ErrorCodes.userDisabled, 403, 'User is disabled');
      if (!(await consumeOneTimeToken(db, hash, clock.now()))) throw invalidToken();
      await invalidateUserTokens(db, user.id, ACTIVATION, clock.now());
      await updateUser(db, user.id, { verified: 1, ...(passwordHash ? { password_hash: passwordHash } : {}) });
      return auth.startSession({ ...user, verified: 1 }, client);
    },

    async resendActivation(email, appUrl) {
      const user = await findUserByEmail(db, email);
      // Always the same answer, so this call cannot be used to probe for accounts.
      if (user && user.verified !== 1) await sendActivation(user, appUrl);
    },
  };
}
