/**
 * Passwordless sign-in (seed 000 sections 1, 4.2, 7.2): a magic link or a 6-digit code by email,
 * chosen by the vendor's login policy. Requests answer the same way for every identifier: the lookup
 * and the email run after the answer, in the background. Links and codes are random, stored hashed,
 * single use and short-lived; a code's attempts are reserved atomically before it is compared.
 * A proven link or code ends like a password sign-in: the MFA gate, then a session.
 */
import { AuthMethods, ErrorCodes, passwordlessTypeOf, usesUsername, type PasswordlessPostLoginRequest, type PasswordlessPreLoginRequest, type PasswordlessType } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId, newSecret, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import {
  consumePasswordless, findLatestPasswordless, findPasswordlessBySecret, insertPasswordlessCode, invalidateUserPasswordless, reservePasswordlessAttempt,
  spendExhaustedPasswordless,
} from '../../db/queries/passwordless-codes';
import { findUserByEmail, findUserById, findUserByUsername, hasEmail, type UserRow } from '../../db/queries/users';
import { AppError, Errors } from '../../errors';
import type { AuthService, ClientInfo, IssuedSession } from '../auth/auth';
import { requireLocalLogin } from '../auth/login-policy';
import type { Mailer } from '../messaging/mail';
import type { EmailService } from '../messaging/emails/email-service';
import { AuditActions, recordUserAudit } from '../admin/audit-log';
import { SignInMethods } from '../auth/sign-in-methods';
import { newEmailCode } from '../mfa/factors';
import { UNKNOWN_CLIENT, type RateLimiter } from '../platform/rate-limit';
import { log, reasonOf } from '../../log';

export const MAGIC_LINK_TTL_MS = 15 * 60_000;
export const CODE_TTL_MS = 10 * 60_000;
/** Wrong guesses one emailed code allows; then it is spent and a new one must be requested. */
export const CODE_MAX_ATTEMPTS = 5;
/** Path of the login box's magic-link callback route (seed 000 section 2.1, magicLinkCallbackUrl). */
export const MAGIC_LINK_PATH = '/account/login/magic-link';

/**
 * amr of a passwordless session (RFC 8176): a magic link proves control of the mailbox ('email' is
 * not in RFC 8176's registry; the registry allows such additions); an emailed code is also a
 * one-time password ('otp'). Neither carries 'mfa', so neither counts as a step-up.
 */
export const AMR_MAGIC_LINK = ['email'];
export const AMR_EMAIL_CODE = ['email', AuthMethods.otp];

const invalidLink = () => new AppError(ErrorCodes.invalidMagicLink, 400, 'The sign-in link is invalid or has expired');
// One message for a wrong, expired, used, exhausted code or an unknown identifier: no answer tells them apart.
const invalidCode = () => new AppError(ErrorCodes.invalidPasswordlessCode, 400, 'The code is invalid or has expired');

type Identifier = Pick<PasswordlessPreLoginRequest, 'email' | 'username'>;

export interface PasswordlessService {
  /** Emails a link or code to a known, active user; answers the same way (and as fast) for anyone. */
  preLogin(type: PasswordlessType, body: Identifier, appUrl: string, client: ClientInfo): Promise<void>;
  /** A live link, or the identifier's live code: the MFA gate's answer or a new session. */
  postLogin(type: PasswordlessType, body: PasswordlessPostLoginRequest, client: ClientInfo): Promise<IssuedSession>;
  /** Resolves once every background delivery started so far has finished (shutdown and tests). */
  idle(): Promise<void>;
}

export function createPasswordlessService(deps: {
  db: Db;
  mail: Mailer;
  emails: EmailService;
  clock: Clock;
  auth: AuthService;
  limiter: RateLimiter;
  /** The MFA gate of a password sign-in: a pending-MFA answer replaces the session, null lets it through. */
  secondFactor?: (user: UserRow, client: ClientInfo) => Promise<IssuedSession | null>;
  config: Pick<Config, 'loginStrategy'>;
}): PasswordlessService {
  const { db, mail, emails, clock, auth, limiter, config } = deps;
  const pending = new Set<Promise<void>>();

  function inBackground(what: string, task: () => Promise<void>): void {
    const run = task()
      .catch((err: unknown) => {
        // Only the error's message: never the link, the code or the address.
        log.error(`Passwordless sign-in: ${what} failed:`, reasonOf(err));
      })
      .finally(() => pending.delete(run));
    pending.add(run);
  }

  /** Refuses a type the login policy does not use (and every type under NoLocalAuthentication). */
  function requireType(type: PasswordlessType): void {
    requireLocalLogin(config.loginStrategy);
    if (passwordlessTypeOf(config.loginStrategy) !== type) {
      throw new AppError(ErrorCodes.passwordlessNotEnabled, 400, `Sign-in by ${type === 'magiclink' ? 'magic link' : 'code'} is not enabled for this application`);
    }
  }

  /** The typed identifier; a username only where the strategy signs in with usernames. */
  function identifierOf(body: Identifier): { kind: 'email' | 'username'; value: string } {
    if (body.username && usesUsername(config.loginStrategy)) return { kind: 'username', value: body.username.trim() };
    if (body.email) return { kind: 'email', value: body.email.trim().toLowerCase() };
    throw Errors.validation(usesUsername(config.loginStrategy) ? 'username is required' : 'email is required');
  }

  /** A user passwordless sign-in may reach: known, activated and not disabled. */
  async function findActiveUser(id: { kind: 'email' | 'username'; value: string }): Promise<UserRow | undefined> {
    const user = id.kind === 'email' ? await findUserByEmail(db, id.value) : await findUserByUsername(db, id.value);
    return user && user.verified === 1 && user.disabled !== 1 ? user : undefined;
  }

  async function issue(user: UserRow, kind: PasswordlessType, secretOf: (id: string) => string, ttlMs: number): Promise<void> {
    const now = clock.now();
    // Only the newest link or code works.
    await invalidateUserPasswordless(db, user.id, kind, now);
    const id = newId();
    await insertPasswordlessCode(db, { id, user_id: user.id, kind, secret_hash: secretOf(id), attempts: 0, created_at: now, expires_at: now + ttlMs, used_at: null });
  }

  /** Proven: the MFA gate first (seed 4.2: no session until MFA is verified), else a session. */
  async function signIn(userId: string, client: ClientInfo, amr: string[], error: () => AppError): Promise<IssuedSession> {
    const user = await findUserById(db, userId);
    if (!user || user.verified !== 1 || user.disabled === 1) throw error();
    const signingIn: ClientInfo = { ...client, signInMethod: amr === AMR_MAGIC_LINK ? SignInMethods.magicLink : SignInMethods.emailCode };
    const pendingMfa = await deps.secondFactor?.(user, signingIn);
    if (pendingMfa) return pendingMfa;
    return auth.startSession(user, signingIn, amr);
  }

  return {
    async preLogin(type, body, appUrl, client) {
      requireType(type);
      const id = identifierOf(body);
      await limiter.consume('passwordlessPerIp', client.ip ?? UNKNOWN_CLIENT);
      // Over the per-identifier limit the answer stays the same; only the email is not sent.
      if (!(await limiter.tryConsume('passwordlessPerIdentifier', `${id.kind}:${id.value.toLowerCase()}`))) return;
      inBackground(type === 'magiclink' ? 'magic link' : 'code', async () => {
        const user = await findActiveUser(id);
        // A username can belong to an account without an email (phone sign-up): nothing to send.
        if (!hasEmail(user)) return;
        if (type === 'magiclink') {
          const token = newSecret();
          await issue(user, 'magiclink', () => sha256(token), MAGIC_LINK_TTL_MS);
          const link = `${appUrl}${MAGIC_LINK_PATH}?token=${encodeURIComponent(token)}`;
          await mail.send(await emails.render('magicLink', user, { link, lifetime: { minutes: MAGIC_LINK_TTL_MS / 60_000 } }, { locale: client.locale }));
        } else {
          const code = newEmailCode();
          await issue(user, 'code', (rowId) => sha256(`${rowId}:${code}`), CODE_TTL_MS);
          await mail.send(await emails.render('signInCode', user, { code, lifetime: { minutes: CODE_TTL_MS / 60_000 } }, { locale: client.locale }));
        }
      });
    },

    async postLogin(type, body, client) {
      requireType(type);
      await limiter.consume('passwordlessPerIp', client.ip ?? UNKNOWN_CLIENT);
      const now = clock.now();
      if (type === 'magiclink') {
        if (!body.token) throw invalidLink();
        const row = await findPasswordlessBySecret(db, sha256(body.token), 'magiclink');
        // consume is the atomic single-use check (expiry included): a second click loses here.
        if (!row || !(await consumePasswordless(db, row.id, now))) throw invalidLink();
        return signIn(row.user_id, client, AMR_MAGIC_LINK, invalidLink);
      }
      const code = (body.code ?? '').trim();
      const user = await findActiveUser(identifierOf(body));
      const row = user ? await findLatestPasswordless(db, user.id, 'code') : undefined;
      // Reserve-first: the attempt is counted before the comparison, so parallel guesses cannot pass the limit.
      if (!row || !(await reservePasswordlessAttempt(db, row.id, now, CODE_MAX_ATTEMPTS))) throw invalidCode();
      if (!/^\d{6}$/.test(code) || !safeEqual(row.secret_hash, sha256(`${row.id}:${code}`))) {
        await spendExhaustedPasswordless(db, row.id, now, CODE_MAX_ATTEMPTS);
        // A known account's wrong code is told to its tenant's admins; an unknown identifier writes nothing.
        if (user) {
          await recordUserAudit(db, user, client, { action: AuditActions.signInFailed, description: `Sign-in with ${SignInMethods.emailCode} failed: wrong code`, json: { method: SignInMethods.emailCode, reason: 'wrong code' } }, now);
        }
        throw invalidCode();
      }
      if (!(await consumePasswordless(db, row.id, now))) throw invalidCode();
      return signIn(row.user_id, client, AMR_EMAIL_CODE, invalidCode);
    },

    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
