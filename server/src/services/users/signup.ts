import { timingSafeEqual } from 'node:crypto';
import { ErrorCodes, SelfServiceErrorCodes, type ActivateRequest, type ActivateWithCodeRequest, type SignUpRequest, type SignUpResponse, type SignUpStrategiesResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId, newSecret, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { consumeOneTimeToken, findLiveUserToken, findOneTimeToken, insertOneTimeToken, invalidateUserTokens, reserveTokenCodeAttempt, type OneTimeTokenRow } from '../../db/queries/one-time-tokens';
import { assignRole } from '../../db/queries/roles';
import { addUserToTenant, hasAnyMembership, hasMembership, listUserTenants } from '../../db/queries/tenants';
import { findUserByEmail, findUserById, hasEmail, insertUser, updateUser, type UserRow } from '../../db/queries/users';
import { AppError, isAppError } from '../../errors';
import type { AuthService, ClientInfo, IssuedSession } from '../auth/auth';
import type { Mailer } from '../messaging/mail';
import type { EmailService } from '../messaging/emails/email-service';
import { lifetimeOf } from '../messaging/emails/templates';
import { newEmailCode } from '../mfa/factors';
import { SignInMethods } from '../auth/sign-in-methods';
import { supportedLocale } from '@gatehouse/shared/i18n';
import { breachedPasswordError } from '../platform/breached-passwords';
import { checkPasswordPolicy, hashPassword } from '../platform/passwords';
import { UNKNOWN_CLIENT, type RateLimiter } from '../platform/rate-limit';
import { createTenantWithRoles } from '../admin/tenants';
import type { SecurityPolicyService } from '../security/policies';
import { signUpPhoneNumber } from './phone-signup';
import { findLiveInviteLink, joinByInviteLink, unverifiedInviteLink } from '../admin/invite-links';
import { raiseInUserTenants, raiseUserCreated } from '../connectivity/user-events';
import type { EmailDomainRestrictionService } from '../security/email-domain-restrictions';
import type { EntitlementsService } from '../entitlements';
import { BillingErrorCodes } from '@gatehouse/shared/wire';

const ACTIVATION = 'activation';

const invalidToken = () => new AppError(ErrorCodes.invalidActivationToken, 400, 'The activation link is invalid or has expired');
// One answer for an unknown address, an activated account, a wrong, used, expired or exhausted code.
const invalidCode = () => new AppError(SelfServiceErrorCodes.invalidActivationCode, 400, 'The activation code is invalid or has expired');
/** Wrong codes one activation email allows; then only its link (or a resend) activates. */
export const ACTIVATION_CODE_MAX_ATTEMPTS = 5;
const passwordRequired = () => new AppError(ErrorCodes.passwordPolicy, 400, 'Password is required');

/** Profile fields of one sign-up, kept on its activation token until that sign-up is proven to be the owner's. */
interface PendingProfile {
  name?: string;
  phoneNumber?: string;
  companyName?: string;
  metadata?: string;
  /** SHA-256 of the invite link the sign-up came through (never the token): re-checked at activation. */
  inviteLinkHash?: string;
}

/** What a sign-up hands back: the response body and the browser-binding secret for the `gatehouse-signup` cookie. */
export interface SignUpResult {
  response: SignUpResponse;
  binding: string;
}

export interface SignUpService {
  strategies(): SignUpStrategiesResponse;
  /** `appUrl` is where the emailed link points (an allowed request origin or the configured app URL). */
  signUp(body: SignUpRequest, appUrl: string, client: Pick<ClientInfo, 'ip' | 'locale'>): Promise<SignUpResult>;
  /** `binding` is the `gatehouse-signup` cookie of the calling browser, if any. */
  activationStrategy(userId: string, token: string, client: Pick<ClientInfo, 'ip'>, binding?: string): Promise<{ shouldSetPassword: boolean }>;
  activate(body: ActivateRequest, client: ClientInfo, binding?: string): Promise<IssuedSession>;
  /**
   * activateWithOTCUrl: the code printed in the newest activation email (single use, 5 tries,
   * compared in constant time), then the same as the link. One answer for every refusal.
   */
  activateWithCode(body: ActivateWithCodeRequest, client: ClientInfo, binding?: string): Promise<IssuedSession>;
  /** Over the per-email limit it sends nothing, yet answers like any other resend. */
  resendActivation(email: string, appUrl: string, client: Pick<ClientInfo, 'ip' | 'locale'>): Promise<void>;
}

/**
 * Sign-up and activation, safe against pre-sign-up account takeover: whoever signs up first with an
 * address gets no say over the account. The sign-up's password and profile live on its activation
 * token (not on the user) and only become the account's when the emailed link is opened in the very
 * browser that signed up (it holds the `gatehouse-signup` cookie whose hash is on the token). Opened
 * anywhere else, the link makes its holder (the inbox owner) choose the password.
 */
export function createSignUpService(deps: {
  db: Db;
  mail: Mailer;
  emails: EmailService;
  clock: Clock;
  auth: AuthService;
  limiter: RateLimiter;
  config: Pick<Config, 'allowSignups' | 'password' | 'activationTokenTtl' | 'passwordPolicies' | 'signUpStrategies'>;
  /** The tenant's password rules and history (issue 12), at activation, and the history every new password joins. */
  security: Pick<SecurityPolicyService, 'effective' | 'effectiveForUser' | 'passwordRuleError' | 'assertNotReused' | 'rememberPassword'>;
  /** The tenant's email-domain restrictions, at a sign-up into it through an invite link (403 ER-02803). */
  emailDomains?: Pick<EmailDomainRestrictionService, 'check' | 'assertAllowed'>;
  /** The seat limit of the plan of a tenant joined through an invite link (403 ER-03009 at sign-up; at activation, a full tenant is not joined). */
  seats?: Pick<EntitlementsService, 'assertSeatsAvailable'>;
}): SignUpService {
  const { db, mail, emails, clock, auth, limiter, config, security } = deps;

  /** Does the tenant's plan have a seat for this user? (Other failures still fail the call.) */
  async function seatAvailable(tenantId: string, userId: string): Promise<boolean> {
    try {
      await deps.seats?.assertSeatsAvailable(tenantId, 1, { joiningUserId: userId });
      return true;
    } catch (err) {
      if (isAppError(err) && err.code === BillingErrorCodes.seatLimitReached) return false;
      throw err;
    }
  }

  function policyError(password: string): AppError | null {
    const message = checkPasswordPolicy(password, config.password);
    return message ? new AppError(ErrorCodes.passwordPolicy, 400, message) : breachedPasswordError(password, config.passwordPolicies);
  }

  /** The sign-up's password, checked against the policy and hashed (argon2id). */
  async function signUpPasswordHash(password: string | undefined): Promise<string> {
    if (!password) throw passwordRequired();
    const bad = policyError(password);
    if (bad) throw bad;
    return hashPassword(password);
  }

  /**
   * Kills every older activation link of the user, stores a new token and emails it. A sign-up passes
   * its binding and pending password/profile; a plain resend passes none, so its link always asks for
   * a password.
   */
  async function sendActivation(user: UserRow, appUrl: string, locale: string | undefined, bound?: { binding: string; passwordHash: string; profile: PendingProfile }): Promise<void> {
    const now = clock.now();
    await invalidateUserTokens(db, user.id, ACTIVATION, now);
    const token = newSecret();
    // The same email also carries a code for the activation-by-code page (activateWithOTCUrl).
    const code = newEmailCode();
    await insertOneTimeToken(db, {
      token_hash: sha256(token),
      user_id: user.id,
      purpose: ACTIVATION,
      created_at: now,
      expires_at: now + config.activationTokenTtl * 1000,
      used_at: null,
      binding_hash: bound ? sha256(bound.binding) : null,
      pending_password_hash: bound?.passwordHash ?? null,
      pending_profile: bound ? JSON.stringify(bound.profile) : null,
      // Keyed by the user id, so equal codes of two accounts never share a hash.
      code_hash: sha256(`${user.id}:${code}`),
      code_attempts: 0,
    });
    const link = `${appUrl}/account/activate?userId=${encodeURIComponent(user.id)}&token=${encodeURIComponent(token)}`;
    // The greeting uses the user row, never the (possibly someone else's) name typed at this sign-up:
    // text typed by whoever signs up an address is never put into an email to that address.
    // Users reach here by their email; a phone sign-up account (no email) is proven by SMS instead.
    if (hasEmail(user)) await mail.send(await emails.render('activation', user, { link, code, lifetime: lifetimeOf(config.activationTokenTtl) }, { locale }));
  }

  /** Finds the user behind a live activation token without using it up. */
  async function checkToken(userId: string, token: string): Promise<{ user: UserRow; row: OneTimeTokenRow; hash: string }> {
    const hash = sha256(token);
    const row = await findOneTimeToken(db, hash, ACTIVATION);
    if (!row || row.used_at !== null || row.expires_at <= clock.now() || !safeEqual(row.user_id, userId) || !safeEqual(row.token_hash, hash)) throw invalidToken();
    const user = await findUserById(db, row.user_id);
    if (!user) throw invalidToken();
    return { user, row, hash };
  }

  /** True only when this browser made the sign-up behind this token (constant-time compare of the hashes). */
  function isBound(row: OneTimeTokenRow, binding: string | undefined): boolean {
    if (!binding || !row.binding_hash || !row.pending_password_hash) return false;
    const expected = Buffer.from(row.binding_hash, 'hex');
    const actual = Buffer.from(sha256(binding), 'hex');
    return expected.length === 32 && actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  function pendingProfile(row: OneTimeTokenRow): PendingProfile {
    if (!row.pending_profile) return {};
    try {
      const parsed = JSON.parse(row.pending_profile) as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as PendingProfile) : {};
    } catch {
      return {};
    }
  }

  /** The proven activation token (by link or code) makes the account the prover's: password, profile, tenant, session. */
  async function activateWith(user: UserRow, row: OneTimeTokenRow, hash: string, password: string | undefined, client: ClientInfo, binding: string | undefined, refused: () => AppError): Promise<IssuedSession> {
    const bound = isBound(row, binding);
    let passwordHash: string;
    if (password) {
      // An account an admin added to a tenant activates under that tenant's rules and history.
      const policies = await security.effectiveForUser(user);
      const bad = security.passwordRuleError(password, policies) ?? policyError(password);
      if (bad) throw bad;
      await security.assertNotReused(user, password, policies);
      passwordHash = await hashPassword(password);
    } else if (bound) {
      passwordHash = row.pending_password_hash!;
    } else {
      // Not the browser that signed up: whoever holds the link (the inbox owner) chooses the password.
      throw passwordRequired();
    }
    if (user.disabled === 1) throw new AppError(ErrorCodes.userDisabled, 403, 'User is disabled');
    const now = clock.now();
    if (!(await consumeOneTimeToken(db, hash, now))) throw refused();
    await invalidateUserTokens(db, user.id, ACTIVATION, now);
    const profile = bound ? pendingProfile(row) : {};
    // The link is checked again now: deleted or expired since the sign-up, the account is still
    // activated (nothing typed is lost) with a tenant of its own, and the answer says the invitation failed.
    const linked = profile.inviteLinkHash ? await findLiveInviteLink(db, profile.inviteLinkHash, now) : undefined;
    // A domain the tenant's email-domain restrictions refuse (since the sign-up) does not join it
    // either: the same outcome as a dead link.
    const domainRefused = linked && user.email ? (await deps.emailDomains?.check(linked.tenantId, user.email))?.allowed === false : false;
    // Nor does a tenant whose plan's seats filled up since the sign-up.
    const seatsRefused = linked && !domainRefused && !(await hasMembership(db, user.id, linked.tenantId)) ? !(await seatAvailable(linked.tenantId, user.id)) : false;
    const invite = domainRefused || seatsRefused ? undefined : linked;
    const invitationFailed = Boolean(profile.inviteLinkHash && !invite);
    const patch = {
      verified: 1,
      password_hash: passwordHash,
      password_changed_at: now,
      ...(profile.name ? { name: profile.name } : {}),
      ...(profile.phoneNumber ? { phone_number: profile.phoneNumber } : {}),
      ...(profile.metadata !== undefined ? { metadata: profile.metadata } : {}),
      ...(invite ? { last_tenant_id: invite.tenantId } : {}),
    };
    const actor = { userId: user.id, email: user.email };
    await db.transaction().execute(async (trx) => {
      await updateUser(trx, user.id, patch);
      await security.rememberPassword(trx, user.id, passwordHash);
      await settleMembership(trx);
      // Every tenant the account is in now hears of it (issue 16), with the change.
      await raiseInUserTenants(trx, user, { key: 'user.activated' }, actor, now);
    });
    async function settleMembership(trx: Db): Promise<void> {
      if (invite) {
        // Already in (say, invited by an admin with other roles): the link changes nothing.
        if (!(await hasMembership(trx, user.id, invite.tenantId))) await joinByInviteLink(trx, user, invite.tenantId, client, now);
        return;
      }
      if (!(await hasAnyMembership(trx, user.id))) {
        // A sign-up through a link that did not join (link gone, or activated from another browser).
        const created = await createTenantWithRoles(trx, profile.companyName ?? user.email?.split('@')[1] ?? 'Account', now);
        await addUserToTenant(trx, user.id, created.tenantId, now);
        await assignRole(trx, user.id, created.tenantId, created.roleIds.Admin!);
        await updateUser(trx, user.id, { last_tenant_id: created.tenantId });
        await raiseUserCreated(trx, { tenantId: created.tenantId, user: { id: user.id, email: user.email, name: patch.name ?? user.name }, source: 'signup', actor }, now);
        return;
      }
      if (profile.companyName) {
        // Only the tenant this sign-up created, and only while the user is its sole tenant.
        const tenants = await listUserTenants(trx, user.id);
        if (tenants.length === 1 && tenants[0]!.id === user.last_tenant_id) await trx.updateTable('tenants').set({ name: profile.companyName }).where('id', '=', tenants[0]!.id).execute();
      }
    }
    // last_tenant_id is the link's tenant: the session starts there (unless that membership is disabled).
    const issued = await auth.startSession({ ...user, ...patch }, client);
    return invitationFailed ? { ...issued, response: { ...issued.response, invitationFailed: true } } : issued;
  }

  return {
    // SIGNUP_EMAIL / SIGNUP_PHONE_NUMBER; the same for everyone.
    strategies: () => structuredClone(config.signUpStrategies),

    async signUp(body, appUrl, client) {
      if (!config.allowSignups) throw new AppError(ErrorCodes.signUpDisabled, 403, 'Sign up is disabled');
      const strategies = config.signUpStrategies;
      if (!strategies.email.enabled) throw new AppError(ErrorCodes.signUpStrategyDisabled, 403, 'Sign-up with an email address is disabled; sign up with your phone number');
      // The phone number of an email sign-up is a profile field: stored in E.164, never verified here.
      const phoneNumber = (body.phoneNumber?.trim() || strategies.phoneNumber.required) ? signUpPhoneNumber(body.phoneNumber, 'Phone number is required') : undefined;
      // Before any argon2 work or mail.
      await limiter.consume('signUpPerIp', client.ip ?? UNKNOWN_CLIENT);
      const existing = await findUserByEmail(db, body.email);
      if (existing?.verified === 1) throw new AppError(ErrorCodes.userAlreadyExists, 409, 'User already exists');
      const passwordHash = await signUpPasswordHash(body.password);
      // Through an invite link: the account will join the link's tenant instead of getting its own.
      // A dead link is refused before anything is created, with the one uniform answer.
      let invite: { hash: string; tenantId: string } | undefined;
      if (body.invitationToken) {
        await limiter.consume('invitationAcceptPerIp', client.ip ?? UNKNOWN_CLIENT);
        const hash = sha256(body.invitationToken);
        const link = await findLiveInviteLink(db, hash, clock.now());
        if (!link) throw unverifiedInviteLink();
        // Sign-up into an existing tenant: its email-domain restrictions decide, before anything is made.
        await deps.emailDomains?.assertAllowed(link.tenantId, body.email);
        // And its plan's seat limit (403 ER-03009).
        await deps.seats?.assertSeatsAvailable(link.tenantId, 1, existing ? { joiningUserId: existing.id } : {});
        // And its password rules (issue 12), stricter than the vendor's the password already passed.
        const ruleError = security.passwordRuleError(body.password ?? '', await security.effective(link.tenantId));
        if (ruleError) throw ruleError;
        invite = { hash, tenantId: link.tenantId };
      }
      const binding = newSecret();
      const profile: PendingProfile = {
        ...(body.name ? { name: body.name } : {}),
        ...(phoneNumber ? { phoneNumber } : {}),
        ...(body.companyName ? { companyName: body.companyName } : {}),
        ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
        ...(invite ? { inviteLinkHash: invite.hash } : {}),
      };

      if (existing) {
        // An unfinished sign-up (maybe by someone else): this sign-up gets its own link, bound to this
        // browser, and older links die. The user row is left untouched; nothing typed here applies
        // unless this sign-up's link is opened in this browser.
        await sendActivation(existing, appUrl, client.locale, { binding, passwordHash, profile });
        // Fresh opaque ids: the caller has not shown it owns the address, so the real ids of an
        // account it did not create are not disclosed (the response has the same shape either way).
        return { response: { shouldActivate: true, userId: newId(), tenantId: newId() }, binding };
      }

      const now = clock.now();
      const [local, domain] = body.email.split('@') as [string, string];
      const userId = newId();
      let tenantId = invite?.tenantId ?? '';
      try {
        await db.transaction().execute(async (trx) => {
          // Neutral placeholders until activation: the typed profile waits on the token with the password.
          // Through an invite link no tenant is made now: activation joins the link's (or, the link
          // gone by then, makes the account its own).
          const created = invite ? null : await createTenantWithRoles(trx, domain, now);
          if (created) tenantId = created.tenantId;
          await insertUser(trx, {
            id: userId,
            email: body.email,
            username: null,
            name: local,
            password_hash: null,
            verified: 0,
            super_user: 0,
            disabled: 0,
            phone_number: null,
            address: null,
            job_title: null,
            profile_picture_id: null,
            metadata: null,
            last_tenant_id: created ? tenantId : null,
            created_at: now,
            last_login: null,
            // The language the sign-up page showed: the account's emails are written in it.
            locale: supportedLocale(client.locale) ?? null,
          });
          if (!created) return;
          await addUserToTenant(trx, userId, tenantId, now);
          await assignRole(trx, userId, tenantId, created.roleIds.Admin!);
          await raiseUserCreated(trx, { tenantId, user: { id: userId, email: body.email, name: local }, source: 'signup', actor: { userId, email: body.email } }, now);
        });
      } catch (err) {
        // Two sign-ups for one email raced; the loser hits the unique index.
        if (await findUserByEmail(db, body.email)) throw new AppError(ErrorCodes.userAlreadyExists, 409, 'User already exists');
        throw err;
      }
      const user = await findUserById(db, userId);
      await sendActivation(user!, appUrl, client.locale, { binding, passwordHash, profile });
      // Through an invite link the account is in no tenant before activation: an opaque id, never the link's tenant.
      return { response: { shouldActivate: true, userId, tenantId: invite ? newId() : tenantId }, binding };
    },

    async activationStrategy(userId, token, client, binding) {
      await limiter.consume('activationPerIp', client.ip ?? UNKNOWN_CLIENT);
      const { row } = await checkToken(userId, token);
      return { shouldSetPassword: !isBound(row, binding) };
    },

    async activate(body, client, binding) {
      await limiter.consume('activationPerIp', client.ip ?? UNKNOWN_CLIENT);
      const { user, row, hash } = await checkToken(body.userId, body.token);
      return activateWith(user, row, hash, body.password, { ...client, signInMethod: SignInMethods.activation }, binding, invalidToken);
    },

    async activateWithCode(body, client, binding) {
      await limiter.consume('activationPerIp', client.ip ?? UNKNOWN_CLIENT);
      const now = clock.now();
      const user = body.userId ? await findUserById(db, body.userId) : await findUserByEmail(db, body.email ?? '');
      if (!user || user.verified === 1 || (body.userId && body.email && user.email !== body.email)) throw invalidCode();
      const row = await findLiveUserToken(db, user.id, ACTIVATION, now);
      // Reserve-first: the attempt is counted atomically before the comparison, so parallel guesses cannot pass the limit.
      if (!row?.code_hash || !(await reserveTokenCodeAttempt(db, row.token_hash, now, ACTIVATION_CODE_MAX_ATTEMPTS))) throw invalidCode();
      if (!safeEqual(row.code_hash, sha256(`${user.id}:${body.code.trim()}`))) throw invalidCode();
      return activateWith(user, row, row.token_hash, body.password, { ...client, signInMethod: SignInMethods.activationCode }, binding, invalidCode);
    },

    async resendActivation(email, appUrl, client) {
      await limiter.consume('resendPerIp', client.ip ?? UNKNOWN_CLIENT);
      // Counted for every address, known or not; over the limit nothing is sent but the answer is the
      // same, so this call can neither bomb an inbox nor probe for accounts.
      if (!(await limiter.tryConsume('resendPerEmail', email.trim().toLowerCase()))) return;
      const user = await findUserByEmail(db, email);
      if (user && user.verified !== 1) await sendActivation(user, appUrl, client.locale);
    },
  };
}
