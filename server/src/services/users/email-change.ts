/**
 * The signed-in user's change of email address (seed 000 section 7.3 `users/v1/email/me` and
 * `email/me/verify`; issue 11 section 3). The new address proves itself before it replaces the old
 * one: it gets a link (a 256-bit token) and a 6-digit code, either of which finishes the change
 * (the link from any browser, the code only in the signed-in session that asked). Then the old
 * address is told, password-reset links sent to it stop working, and the audit log records both
 * steps. Asking needs a recent sign-in (a recent step-up once the account has a second factor):
 * whoever holds an old or stolen session must not be able to move the account to their inbox.
 * Hashes only are stored; the code is keyed by the change id; 5 attempts, reserved before the
 * comparison. No HTTP and no SQL here.
 */
import { ErrorCodes, SelfServiceErrorCodes, VERIFY_EMAIL_CHANGE_ROUTE, type ChangeEmailResponse, type VerifyEmailChangeRequest, type VerifyEmailChangeResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import { newId, newSecret, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import {
  cancelEmailChanges,
  consumeEmailChange,
  findLiveEmailChangeByToken,
  findLiveEmailChangeOfUser,
  insertEmailChange,
  reserveEmailChangeAttempt,
  type EmailChangeRow,
} from '../../db/queries/email-changes';
import { listMfaDevices } from '../../db/queries/mfa-devices';
import { invalidateUserTokens } from '../../db/queries/one-time-tokens';
import { findUserByEmail, findUserById, updateUser, type UserRow } from '../../db/queries/users';
import { isUniqueViolation } from '../../db/unique-violation';
import { AppError, Errors } from '../../errors';
import { log, reasonOf } from '../../log';
import { AuditActions, recordUserAudit } from '../admin/audit-log';
import type { AuthContext, RequestClient } from '../auth/auth';
import { requireFreshAuthForNewFactor } from '../auth/recent-auth';
import type { EmailService } from '../messaging/emails/email-service';
import { lifetimeOf } from '../messaging/emails/templates';
import type { Mailer } from '../messaging/mail';
import { maskEmail, newEmailCode } from '../mfa/factors';
import type { RateLimiter } from '../platform/rate-limit';
import { RESET_PASSWORD } from '../recovery/recovery';
import { listUserTenants } from '../../db/queries/tenants';
import type { EmailDomainRestrictionService } from '../security/email-domain-restrictions';
import type { SecurityPolicyService } from '../security/policies';

/** How long the link and the code of an email change live. */
export const EMAIL_CHANGE_TTL_SECONDS = 30 * 60;
/** Wrong codes one email-change request allows; then only its link (or a new request) finishes it. */
export const EMAIL_CHANGE_MAX_ATTEMPTS = 5;

const invalidChange = () => new AppError(SelfServiceErrorCodes.invalidEmailChange, 400, 'The link or code is invalid or has expired');
const emailTaken = () => new AppError(SelfServiceErrorCodes.emailTaken, 409, 'This email address is already in use');
const sameEmail = () => new AppError(SelfServiceErrorCodes.sameEmail, 400, 'This is already your email address');

export interface EmailChangeService {
  /** Sends the link and code to `newEmail`; `appUrl` is where the link points. */
  request(ctx: AuthContext, newEmail: string, appUrl: string): Promise<ChangeEmailResponse>;
  /** The link's token (signed in or not) or the code (`ctx` required) replaces the address. */
  verify(body: VerifyEmailChangeRequest, ctx: AuthContext | null, client: RequestClient): Promise<VerifyEmailChangeResponse>;
}

export function createEmailChangeService(deps: {
  db: Db;
  clock: Clock;
  mail: Mailer;
  emails: EmailService;
  limiter: RateLimiter;
  /** The email-domain restrictions of every tenant the user belongs to: each must let the new address in (403 ER-02803). */
  emailDomains?: Pick<EmailDomainRestrictionService, 'assertAllowed'>;
  /** The user-emails policy of every tenant the user belongs to: each must allow the change (403 ER-02806). */
  userEmails?: Pick<SecurityPolicyService, 'assertEmailChangeAllowed'>;
}): EmailChangeService {
  const { db, clock, mail, emails, limiter } = deps;
  const clientOf = (ctx: AuthContext): RequestClient => ctx.client ?? { ip: null, userAgent: null };

  /**
   * Every tenant of the user allows the change: the address is the account's in all of them, so a
   * tenant's user-emails policy or email-domain restrictions cannot be walked around from another one.
   */
  async function assertChangeAllowed(userId: string, email: string): Promise<void> {
    const tenants = await listUserTenants(db, userId, clock.now());
    for (const tenant of tenants) await deps.userEmails?.assertEmailChangeAllowed(tenant.id);
    for (const tenant of tenants) await deps.emailDomains?.assertAllowed(tenant.id, email);
  }

  /** The proven change: the address is replaced, the old one told; a taken address ends the change. */
  async function apply(change: EmailChangeRow, client: RequestClient, tenantId: string | undefined): Promise<VerifyEmailChangeResponse> {
    const now = clock.now();
    const user = await findUserById(db, change.user_id);
    if (!user) throw invalidChange();
    const holder = await findUserByEmail(db, change.new_email);
    if (holder && holder.id !== user.id) {
      await cancelEmailChanges(db, user.id, now);
      throw emailTaken();
    }
    // Checked again: a tenant may have restricted the domain, or turned email changes off, since the request.
    await assertChangeAllowed(user.id, change.new_email);
    const oldEmail = user.email;
    try {
      await db.transaction().execute(async (trx) => {
        if (!(await consumeEmailChange(trx, change.id, now))) throw invalidChange();
        await updateUser(trx, user.id, { email: change.new_email });
        await cancelEmailChanges(trx, user.id, now);
        // Reset links went to the old address: they must not outlive the change.
        await invalidateUserTokens(trx, user.id, RESET_PASSWORD, now);
        await recordUserAudit(
          trx,
          { ...user, email: change.new_email },
          client,
          { action: AuditActions.emailChanged, description: `Email address changed from ${oldEmail ? maskEmail(oldEmail) : 'none'} to ${maskEmail(change.new_email)}`, json: { from: oldEmail ? maskEmail(oldEmail) : null, to: maskEmail(change.new_email) } },
          now,
          tenantId,
        );
      });
    } catch (err) {
      // Another account took the address between the check and the update (unique index).
      if (isUniqueViolation(err)) throw emailTaken();
      throw err;
    }
    if (oldEmail) {
      try {
        await mail.send(await emails.render('emailChanged', user, { email: maskEmail(change.new_email) }, { to: oldEmail, locale: client.locale, tenantId }));
      } catch (err) {
        // The change stands; the audit log records it even if the notice could not be sent.
        log.error('Email-changed notice failed:', reasonOf(err));
      }
    }
    return { email: change.new_email };
  }

  return {
    async request(ctx, newEmail, appUrl) {
      const now = clock.now();
      const hasFactor = (await listMfaDevices(db, ctx.userId, 'active')).length > 0;
      requireFreshAuthForNewFactor(ctx, now, hasFactor);
      const user: UserRow | undefined = await findUserById(db, ctx.userId);
      if (!user) throw Errors.unauthorized();
      if (user.email === newEmail) throw sameEmail();
      await assertChangeAllowed(user.id, newEmail);
      await limiter.consume('emailChangePerUser', user.id);
      const holder = await findUserByEmail(db, newEmail);
      if (holder && holder.id !== user.id) throw emailTaken();
      const id = newId();
      const token = newSecret();
      const code = newEmailCode();
      await db.transaction().execute(async (trx) => {
        // One pending change at a time: a newer request ends the older links and codes.
        await cancelEmailChanges(trx, user.id, now);
        await insertEmailChange(trx, {
          id,
          user_id: user.id,
          new_email: newEmail,
          token_hash: sha256(token),
          code_hash: sha256(`${id}:${code}`),
          attempts: 0,
          created_at: now,
          expires_at: now + EMAIL_CHANGE_TTL_SECONDS * 1000,
          used_at: null,
        });
        await recordUserAudit(
          trx,
          user,
          clientOf(ctx),
          { action: AuditActions.emailChangeRequested, description: `Asked to change the email address to ${maskEmail(newEmail)}`, json: { to: maskEmail(newEmail) } },
          now,
          ctx.tenantId,
        );
      });
      const link = `${appUrl}${VERIFY_EMAIL_CHANGE_ROUTE}?token=${encodeURIComponent(token)}`;
      await mail.send(await emails.render('emailChangeVerify', user, { link, code, lifetime: lifetimeOf(EMAIL_CHANGE_TTL_SECONDS) }, { to: newEmail, locale: ctx.client?.locale, tenantId: ctx.tenantId }));
      return { email: maskEmail(newEmail), expiresIn: EMAIL_CHANGE_TTL_SECONDS };
    },

    async verify(body, ctx, client) {
      const now = clock.now();
      if (body.token) {
        const change = await findLiveEmailChangeByToken(db, sha256(body.token), now);
        if (!change) throw invalidChange();
        // The session's tenant when the owner is signed in, else the user's own.
        return apply(change, client, ctx?.userId === change.user_id ? ctx.tenantId : undefined);
      }
      if (!ctx) throw Errors.unauthorized();
      const change = await findLiveEmailChangeOfUser(db, ctx.userId, now);
      // Reserve-first: the attempt is counted atomically before the comparison.
      if (!change || !(await reserveEmailChangeAttempt(db, change.id, now, EMAIL_CHANGE_MAX_ATTEMPTS))) throw invalidChange();
      if (!safeEqual(change.code_hash, sha256(`${change.id}:${body.code ?? ''}`))) throw invalidChange();
      return apply(change, client, ctx.tenantId);
    },
  };
}
