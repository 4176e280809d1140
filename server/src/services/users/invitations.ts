/**
 * Invitations (seed 000 sections 2.2, 4.4, 5, 7.3; seed 001 "invite user"): a tenant admin invites a
 * user into the tenant they act in; the emailed link (and, under INVITATION_STRATEGY=code, a code
 * printed in the email) accepts it.
 *
 * - A new address becomes an unverified user without a password, a member of the tenant with the
 *   granted roles (shown as invited); accepting sets its password (the activation policies apply),
 *   verifies it and signs it in.
 * - An existing account (verified: with a password, or signing in by SSO, social login or
 *   passwordless) joins the tenant only when it accepts: an admin cannot put someone's account into
 *   their tenant on their own. It keeps how it signs in (no password is set) and signs in as usual.
 * - Acceptance grants exactly the invitation's tenant and the roles the inviter granted; nothing in
 *   the request can name another tenant or role. Inviters can only grant roles whose permissions
 *   they hold themselves.
 * - Tokens and codes are random, stored as SHA-256 hashes, single use and expiring; codes are
 *   compared in constant time after an attempt is reserved atomically (5 per email).
 */
import { SignInMethods } from '../auth/sign-in-methods';
import {
  ErrorCodes,
  Permissions,
  type AcceptInvitationRequest,
  type AcceptInvitationResponse,
  type InviteUserRequest,
  type InvitedUserResponse,
  type InvitationTokenRequest,
  type VerifyInvitationResponse,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId, newSecret, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { raiseInUserTenants } from '../connectivity/user-events';
import {
  defaultRoleIds,
  findInvitation,
  findInvitationByToken,
  findLatestOpenInvitation,
  grantRoles,
  insertInvitation,
  joinTenant,
  markInvitationAccepted,
  reissueInvitation,
  reserveInvitationAttempt,
  tenantRoleIds,
  type InvitationRow,
} from '../../db/queries/invitations';
import { invalidateUserTokens } from '../../db/queries/one-time-tokens';
import { listRolePermissions } from '../../db/queries/roles';
import { findTenant, hasMembership } from '../../db/queries/tenants';
import { findUserByEmail, findUserById, insertUser, updateUser, type UserRow } from '../../db/queries/users';
import { AppError, Errors } from '../../errors';
import type { AuthContext, AuthService, ClientInfo, IssuedSession } from '../auth/auth';
import { breachedPasswordError } from '../platform/breached-passwords';
import type { Mailer } from '../messaging/mail';
import type { EmailService } from '../messaging/emails/email-service';
import { lifetimeOf } from '../messaging/emails/templates';
import { newEmailCode } from '../mfa/factors';
import { checkPasswordPolicy, hashPassword } from '../platform/passwords';
import type { AdminCaller } from '../admin/access';
import type { SecurityPolicyService } from '../security/policies';
import { AuditActions, recordAudit } from '../admin/audit-log';
import { raiseAuditEvents } from '../connectivity/audit-events';
import { covers } from '../admin/permissions';
import { INVALID_PHONE_MESSAGE, normalizePhoneNumber } from '../platform/phone';
import { UNKNOWN_CLIENT, type RateLimiter } from '../platform/rate-limit';
import { log, reasonOf } from '../../log';
import type { EntitlementsService } from '../entitlements';
import type { EmailDomainRestrictionService } from '../security/email-domain-restrictions';

/** Login-box routes the emailed link opens (seed 000 section 2.1 acceptInvitationUrl / acceptInvitationWithOTCUrl). */
export const ACCEPT_INVITATION_PATH = '/account/invitation/accept';
export const ACCEPT_INVITATION_WITH_CODE_PATH = '/account/invitation/code';
/** Wrong codes one invitation email allows; then only a resend (a new email) helps. */
export const INVITATION_CODE_MAX_ATTEMPTS = 5;
/** one_time_tokens.purpose of activation links: accepting an invitation makes them moot. */
const ACTIVATION = 'activation';

/** Seed 000 section 8: the message of an invitation token that cannot be verified. */
export const INVALID_INVITATION_MESSAGE = "We couldn't verify your invitation";
const invalidInvitation = (message = INVALID_INVITATION_MESSAGE) => new AppError(ErrorCodes.invalidInvitation, 400, message);
// One message for a wrong, used-up or exhausted code, so no answer tells them apart.
const invalidCode = () => new AppError(ErrorCodes.invalidInvitationCode, 400, 'The code is invalid or has expired');

type Client = Pick<ClientInfo, 'ip'>;

/** Who invites: an admin caller (services/admin/access.ts) acting in `tenantId` with `keys`. */
export type Inviter = AdminCaller;

export interface InvitationService {
  /**
   * Invites `body.email` into the tenant the inviter acts in; `appUrl` is where the emailed link points.
   * The inviter comes from the admin guard, which already checked fe.secure.write.users and refused
   * impersonation sessions; roles are granted only within the inviter's own keys.
   */
  invite(inviter: Inviter, body: InviteUserRequest, appUrl: string, options?: { audit?: boolean }): Promise<InvitedUserResponse>;
  /** The greeting of the accept screen; uses nothing up. */
  verify(body: InvitationTokenRequest, client: Client): Promise<VerifyInvitationResponse>;
  /** Accepts with the link (`code` undefined) or with the link and the emailed code. */
  accept(body: AcceptInvitationRequest & { code?: string }, client: ClientInfo): Promise<{ response: AcceptInvitationResponse; refreshToken?: string }>;
  /** A new invitation email for the address's newest open invitation; the same answer for any address. */
  resend(email: string, appUrl: string, client: Client): Promise<void>;
  /** Admin "resend": a new link for the open invitation of this user into this tenant; false when there is none. */
  resendToMember(tenantId: string, userId: string, appUrl: string): Promise<boolean>;
  /** Resolves once every background delivery started so far has finished (shutdown and tests). */
  idle(): Promise<void>;
}

/**
 * An account someone already owns: verified, with a password or without one (SSO, social and
 * passwordless accounts). Only an unverified one is set up by accepting.
 */
function isEstablished(user: UserRow): boolean {
  return user.verified === 1;
}

function parseRoleIds(row: InvitationRow): string[] {
  try {
    const parsed = JSON.parse(row.role_ids) as unknown;
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function createInvitationService(deps: {
  db: Db;
  mail: Mailer;
  emails: EmailService;
  clock: Clock;
  auth: AuthService;
  limiter: RateLimiter;
  /** The MFA gate of a sign-in: a pending-MFA answer replaces the session, null lets it through. */
  secondFactor?: (user: UserRow, client: ClientInfo) => Promise<IssuedSession | null>;
  /** The joined tenant's password rules and history (issue 12). */
  security: Pick<SecurityPolicyService, 'effective' | 'passwordRuleError' | 'assertNotReused' | 'rememberPassword'>;
  config: Pick<Config, 'invitation' | 'password' | 'passwordPolicies'>;
  /** The tenant's email-domain restrictions: a refused address is not invited (403 ER-02803; bulk invite lists it as unallowed). */
  emailDomains?: Pick<EmailDomainRestrictionService, 'assertAllowed'>;
  /** The seat limit of the tenant's plan: an invitation takes a seat, and so does its acceptance (403 ER-03009, nothing written). */
  seats?: Pick<EntitlementsService, 'assertSeatsAvailable'>;
}): InvitationService {
  const { db, mail, emails, clock, auth, limiter, config } = deps;
  const pending = new Set<Promise<void>>();

  function inBackground(what: string, task: () => Promise<void>): void {
    const run = task()
      .catch((err: unknown) => {
        // Only the error's message: never the link, the code or the address.
        log.error(`Invitations: ${what} failed:`, reasonOf(err));
      })
      .finally(() => pending.delete(run));
    pending.add(run);
  }

  function policyError(password: string): AppError | null {
    const message = checkPasswordPolicy(password, config.password);
    return message ? new AppError(ErrorCodes.passwordPolicy, 400, message) : breachedPasswordError(password, config.passwordPolicies);
  }

  /** The roles an invitation grants: the named roles of this tenant (each one the inviter could hold), else its default roles. */
  async function rolesToGrant(ctx: Inviter, roleIds: string[] | undefined): Promise<string[]> {
    if (!roleIds || roleIds.length === 0) return defaultRoleIds(db, ctx.tenantId);
    const wanted = [...new Set(roleIds)];
    const found = await tenantRoleIds(db, ctx.tenantId, wanted);
    const missing = wanted.filter((id) => !found.includes(id));
    if (missing.length > 0) throw new AppError(ErrorCodes.roleNotGrantable, 400, `roleIds: ${missing.join(', ')} ${missing.length === 1 ? 'is not a role' : 'are not roles'} of this account`, { roleIds: missing });
    // No escalation: an inviter (a person, or an API token with its own keys) grants only what it
    // could do itself (super users anything); the keys are those the admin guard resolved.
    if (!ctx.superUser) {
      const beyond = (await listRolePermissions(db, wanted)).filter((p) => !covers(ctx.keys, p.key)).map((p) => p.key);
      if (beyond.length > 0) throw new AppError(ErrorCodes.roleNotGrantable, 403, 'You cannot grant a role with permissions you do not have', { permissions: beyond });
    }
    return wanted;
  }

  /** A new token (and code) on the invitation row, stored hashed, and the email carrying them. */
  type InvitationInput = { invitationId: string; email: string; user: UserRow; tenantId: string; inviterId: string | null; roleIds: string[]; appUrl: string; existing: boolean; locale?: string };
  type IssuedInvitation = { input: InvitationInput; token: string; code: string | null; expiresAt: number };

  /** Writes the invitation's row (new or reissued) through `q`, which may be the inviting transaction. */
  async function issue(q: Db, input: InvitationInput): Promise<IssuedInvitation> {
    const now = clock.now();
    const token = newSecret();
    const code = config.invitation.strategy === 'code' ? newEmailCode() : null;
    const fields = {
      token_hash: sha256(token),
      // Keyed by the row id, so equal codes of two invitations never share a hash.
      code_hash: code ? sha256(`${input.invitationId}:${code}`) : null,
      sent_at: now,
      expires_at: now + config.invitation.tokenTtl * 1000,
      role_ids: JSON.stringify(input.roleIds),
      invited_by: input.inviterId,
    };
    if (input.existing) await reissueInvitation(q, input.invitationId, fields);
    else await insertInvitation(q, { id: input.invitationId, tenant_id: input.tenantId, user_id: input.user.id, attempts: 0, created_at: now, accepted_at: null, ...fields });
    return { input, token, code, expiresAt: fields.expires_at };
  }

  /** Emails an issued invitation (after its transaction committed). */
  async function deliver({ input, token, code }: IssuedInvitation): Promise<void> {
    const inviter = input.inviterId ? await findUserById(db, input.inviterId) : undefined;
    const path = code ? ACCEPT_INVITATION_WITH_CODE_PATH : ACCEPT_INVITATION_PATH;
    const link = `${input.appUrl}${path}?userId=${encodeURIComponent(input.user.id)}&token=${encodeURIComponent(token)}`;
    // In the inviting tenant's name and look, in the invitee's language (or the inviter's request's).
    const message = await emails.render('invitation', input.user, { link, code, inviter: inviter?.name ?? null, lifetime: lifetimeOf(config.invitation.tokenTtl) }, { to: input.email, tenantId: input.tenantId, locale: input.locale });
    await mail.send(message);
  }

  async function send(input: InvitationInput): Promise<{ expiresAt: number }> {
    const issued = await issue(db, input);
    await deliver(issued);
    return { expiresAt: issued.expiresAt };
  }

  /** The invitation behind a link, not yet used up, and its user; one message for every refusal a guesser could learn from. */
  async function liveInvitation(userId: string, token: string): Promise<{ row: InvitationRow; user: UserRow; hash: string }> {
    const hash = sha256(token);
    const row = await findInvitationByToken(db, hash);
    if (!row || !safeEqual(row.user_id, userId) || !safeEqual(row.token_hash, hash)) throw invalidInvitation();
    // The caller holds a real link from now on: telling it what became of the invitation is safe.
    if (row.accepted_at !== null) throw invalidInvitation('This invitation has already been accepted. Sign in to continue.');
    if (row.expires_at <= clock.now()) throw invalidInvitation('This invitation has expired. Ask for a new one below.');
    const user = await findUserById(db, row.user_id);
    if (!user) throw invalidInvitation();
    if (user.disabled === 1) throw new AppError(ErrorCodes.userDisabled, 403, 'User is disabled');
    return { row, user, hash };
  }

  return {
    async invite(ctx, body, appUrl, options = {}) {
      await limiter.consume('invitePerUser', ctx.userId);
      let phone: string | null = null;
      if (body.phoneNumber) {
        phone = normalizePhoneNumber(body.phoneNumber);
        if (!phone) throw Errors.validation(`phoneNumber: ${INVALID_PHONE_MESSAGE}`);
      }
      const roleIds = await rolesToGrant(ctx, body.roleIds);
      const tenantId = ctx.tenantId;
      await deps.emailDomains?.assertAllowed(tenantId, body.email);
      const now = clock.now();

      let user = await findUserByEmail(db, body.email);
      if (user && (await hasMembership(db, user.id, tenantId))) {
        const open = await findInvitation(db, tenantId, user.id);
        throw new AppError(
          ErrorCodes.alreadyTenantMember,
          409,
          open && open.accepted_at === null ? 'User is already invited to this account; resend the invitation instead' : 'User is already a member of this account',
        );
      }
      // An invited person holds a seat from now on (their open invitation counts); one already invited is not counted twice.
      await deps.seats?.assertSeatsAvailable(tenantId, 1, user ? { joiningUserId: user.id } : {});
      // The account and membership (when new here), the invitation row and the audit row (which
      // raises user.invited) are written in one transaction; the email goes once it committed.
      const inviteIn = async (trx: Db, invitee: UserRow): Promise<IssuedInvitation> => {
        const previous = await findInvitation(trx, tenantId, invitee.id);
        const issued = await issue(trx, { invitationId: previous?.id ?? newId(), email: body.email, user: invitee, tenantId, inviterId: ctx.userId, roleIds, appUrl, existing: Boolean(previous), locale: ctx.auth?.client?.locale });
        const facts = { action: AuditActions.userInvited, json: { userId: invitee.id, roleIds } };
        if (options.audit !== false) await recordAudit(trx, ctx, { ...facts, description: `${body.email} invited` }, now);
        // A bulk invitation writes one audit row for the whole call (services/admin/users.ts), after
        // every invitation; each invitation's user.invited is still raised here, with its change.
        else await raiseAuditEvents(trx, { tenantId, actor: { userId: ctx.userId, email: ctx.email }, ...facts }, now);
        return issued;
      };
      let issued: IssuedInvitation;
      if (!user) {
        const userId = newId();
        try {
          issued = await db.transaction().execute(async (trx) => {
            // Again under the tenant's lock: parallel invitations cannot take the last seat together.
            await deps.seats?.assertSeatsAvailable(tenantId, 1, { trx });
            await insertUser(trx, {
              id: userId,
              email: body.email,
              username: null,
              name: body.name,
              password_hash: null,
              verified: 0,
              super_user: 0,
              disabled: 0,
              phone_number: phone,
              address: null,
              job_title: null,
              profile_picture_id: null,
              metadata: null,
              last_tenant_id: tenantId,
              created_at: now,
              last_login: null,
            });
            await joinTenant(trx, userId, tenantId, now);
            await grantRoles(trx, userId, tenantId, roleIds);
            return inviteIn(trx, (await findUserById(trx, userId))!);
          });
        } catch (err) {
          // Two invitations for one new address raced; the loser hits the unique email index.
          if (await findUserByEmail(db, body.email)) throw new AppError(ErrorCodes.alreadyTenantMember, 409, 'User is already invited to this account; resend the invitation instead');
          throw err;
        }
        user = issued.input.user;
      } else if (!isEstablished(user)) {
        // Nobody owns this account yet (an unfinished sign-up or another invitation): it is set up in
        // this tenant now, and whoever opens an emailed link first chooses its password.
        const invitee = user;
        issued = await db.transaction().execute(async (trx) => {
          await deps.seats?.assertSeatsAvailable(tenantId, 1, { joiningUserId: invitee.id, trx });
          await joinTenant(trx, invitee.id, tenantId, now);
          await grantRoles(trx, invitee.id, tenantId, roleIds);
          return inviteIn(trx, invitee);
        });
      } else {
        // An established account joins on acceptance only: nothing is granted until then.
        const invitee = user;
        issued = await db.transaction().execute((trx) => inviteIn(trx, invitee));
      }
      await deliver(issued);
      const expiresAt = issued.expiresAt;
      return {
        id: user.id,
        email: body.email,
        // What the admin typed: an existing account's own name would tell any inviter it exists, and who it is.
        name: body.name,
        tenantId,
        roleIds,
        invitationAccepted: false,
        invitationExpiresAt: new Date(expiresAt).toISOString(),
      };
    },

    async verify(body, client) {
      await limiter.consume('invitationAcceptPerIp', client.ip ?? UNKNOWN_CLIENT);
      const { row, user } = await liveInvitation(body.userId, body.token);
      const tenant = await findTenant(db, row.tenant_id);
      return { name: user.name, email: user.email ?? '', tenantName: tenant?.name ?? '', shouldSetPassword: !isEstablished(user), codeRequired: row.code_hash !== null };
    },

    async accept(body, client) {
      await limiter.consume('invitationAcceptPerIp', client.ip ?? UNKNOWN_CLIENT);
      const withCode = body.code !== undefined;
      const { row, user, hash } = await liveInvitation(body.userId, body.token);
      if (row.code_hash !== null && !withCode) throw new AppError(ErrorCodes.invitationCodeRequired, 400, 'This invitation needs the code from the invitation email');
      // A domain the tenant restricted since the invitation was sent does not join (403 ER-02803);
      // the link stays usable should the restriction be lifted.
      if (user.email) await deps.emailDomains?.assertAllowed(row.tenant_id, user.email);
      const setsPassword = !isEstablished(user);
      // The password is checked before the code, so a refused password costs no code attempt, and
      // before the link is used up, so it can be fixed with the same link.
      let passwordHash: string | null = null;
      if (setsPassword) {
        if (!body.password) throw new AppError(ErrorCodes.passwordPolicy, 400, 'Password is required');
        // The rules and history of the tenant being joined (issue 12), then the breached list.
        const policies = await deps.security.effective(row.tenant_id);
        const bad = deps.security.passwordRuleError(body.password, policies) ?? policyError(body.password);
        if (bad) throw bad;
        await deps.security.assertNotReused(user, body.password, policies);
        passwordHash = await hashPassword(body.password);
      }
      if (withCode) {
        // Reserve-first: the attempt counts before the comparison, so parallel guesses cannot pass the limit.
        if (row.code_hash === null || !(await reserveInvitationAttempt(db, row.id, clock.now(), INVITATION_CODE_MAX_ATTEMPTS))) throw invalidCode();
        if (!safeEqual(row.code_hash, sha256(`${row.id}:${body.code!.trim()}`))) throw invalidCode();
      }
      // An established account joins only now: the seat its invitation held must still fit the plan (it may have shrunk).
      const joins = !(await hasMembership(db, user.id, row.tenant_id));
      if (joins) await deps.seats?.assertSeatsAvailable(row.tenant_id, 1, { joiningUserId: user.id });
      const now = clock.now();
      if (!(await markInvitationAccepted(db, row.id, hash, now))) throw invalidInvitation();
      // Roles deleted since the invitation was sent are simply not granted.
      const roleIds = await tenantRoleIds(db, row.tenant_id, parseRoleIds(row));
      await db.transaction().execute(async (trx) => {
        if (joins) await deps.seats?.assertSeatsAvailable(row.tenant_id, 1, { joiningUserId: user.id, trx });
        await joinTenant(trx, user.id, row.tenant_id, now);
        await grantRoles(trx, user.id, row.tenant_id, roleIds);
        // The next sign-in lands in the tenant just joined.
        await updateUser(trx, user.id, { last_tenant_id: row.tenant_id, ...(passwordHash ? { verified: 1, password_hash: passwordHash, password_changed_at: now } : {}) });
        if (passwordHash) await deps.security.rememberPassword(trx, user.id, passwordHash);
        await raiseInUserTenants(trx, user, { key: 'user.activated' }, { userId: user.id, email: user.email }, now, row.tenant_id);
      });
      if (!passwordHash) return { response: { outcome: 'joined', tenantId: row.tenant_id } };
      // The mailbox owner chose the password: links of earlier, unfinished sign-ups die with their pending passwords.
      await invalidateUserTokens(db, user.id, ACTIVATION, now);
      const ready = { ...user, verified: 1, password_hash: passwordHash, password_changed_at: now, last_tenant_id: row.tenant_id };
      const signingIn: ClientInfo = { ...client, signInMethod: SignInMethods.invitation };
      const pendingMfa = await deps.secondFactor?.(ready, signingIn);
      const issued = pendingMfa ?? (await auth.startSession(ready, signingIn));
      return { response: { outcome: 'signedIn', tenantId: row.tenant_id, authResponse: issued.response }, ...(issued.refreshToken ? { refreshToken: issued.refreshToken } : {}) };
    },

    async resend(email, appUrl, client) {
      await limiter.consume('invitationResendPerIp', client.ip ?? UNKNOWN_CLIENT);
      const address = email.trim().toLowerCase();
      // Counted for every address, known or not; over the limit nothing is sent but the answer is the
      // same, so this call can neither bomb an inbox nor probe for accounts or invitations.
      if (!(await limiter.tryConsume('invitationResendPerEmail', address))) return;
      inBackground('resend', async () => {
        const user = await findUserByEmail(db, address);
        if (!user || user.disabled === 1) return;
        const row = await findLatestOpenInvitation(db, user.id);
        if (!row) return;
        await send({ invitationId: row.id, email: address, user, tenantId: row.tenant_id, inviterId: row.invited_by, roleIds: parseRoleIds(row), appUrl, existing: true });
      });
    },

    async resendToMember(tenantId, userId, appUrl) {
      const row = await findInvitation(db, tenantId, userId);
      const user = await findUserById(db, userId);
      if (!row || row.accepted_at !== null || !user?.email || user.disabled === 1) return false;
      await send({ invitationId: row.id, email: user.email, user, tenantId, inviterId: row.invited_by, roleIds: parseRoleIds(row), appUrl, existing: true });
      return true;
    },

    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
