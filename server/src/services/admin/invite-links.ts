/**
 * A tenant's invite link (seed 001 sections 3 "Invite link: token, expiresInMinutes", 7 "invite links
 * get, create, update, delete"; default expiry 43200 minutes): one shareable link per tenant that
 * lets anyone holding it join the tenant with its default roles, until it expires or is deleted.
 *
 * Unlike an invitation it is meant to be shared with many people, so it is not single-use; it is a
 * 256-bit random token, found by its SHA-256, stored sealed (AES-256-GCM when
 * GATEHOUSE_KEY_ENCRYPTION_KEY is set) so the admin can copy it again. Updating changes the expiry,
 * deleting kills it at once; joins are rate-limited per IP like invitation acceptance.
 */
import { AdminErrorCodes, type CreateInviteLinkRequest, type InviteLink, type JoinByInviteLinkResponse, type UpdateInviteLinkRequest, type VerifyInviteLinkResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { decrypt, encrypt, newId, newSecret, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { defaultRoleIds, grantRoles, joinTenant } from '../../db/queries/invitations';
import { deleteInviteLink, findInviteLink, findInviteLinkByToken, insertInviteLink, updateInviteLink, type InviteLinkRow } from '../../db/queries/invite-links';
import { findTenant, hasMembership } from '../../db/queries/tenants';
import { findUserById, type UserRow } from '../../db/queries/users';
import { isUniqueViolation } from '../../db/unique-violation';
import { AppError, Errors } from '../../errors';
import type { AdminCaller } from './access';
import { AuditActions, recordAudit } from './audit-log';
import type { AuthContext } from '../auth/auth';
import { refuseWhileImpersonating } from './permissions';
import { UNKNOWN_CLIENT, type RateLimiter } from '../platform/rate-limit';
import type { EntitlementsService } from '../entitlements';
import type { EmailDomainRestrictionService } from '../security/email-domain-restrictions';

/** The login box route a shared link opens (seed 000 section 7.2: sign-in carries an invitationToken). */
export const INVITE_LINK_PATH = '/account/sign-up';

export interface InviteLinkService {
  get(caller: AdminCaller, appUrl: string): Promise<InviteLink>;
  create(caller: AdminCaller, body: CreateInviteLinkRequest, appUrl: string): Promise<InviteLink>;
  update(caller: AdminCaller, body: UpdateInviteLinkRequest, appUrl: string): Promise<InviteLink>;
  remove(caller: AdminCaller): Promise<void>;
  /** Public ("Verify invite token returns name", seed 000 section 7.3): the name of a live link's tenant. */
  verify(token: string, client: { ip: string | null }): Promise<VerifyInviteLinkResponse>;
  /** A signed-in user joins the link's tenant with its default roles. */
  join(ctx: AuthContext, token: string, client: { ip: string | null; userAgent: string | null }): Promise<JoinByInviteLinkResponse>;
}

const invalidLink = () => new AppError(AdminErrorCodes.invalidInviteLink, 400, 'This invite link is invalid or has expired');
const noLink = () => Errors.notFound('This account has no invite link');
const linkExists = () => new AppError(AdminErrorCodes.inviteLinkExists, 409, 'This account already has an invite link; update or delete it');
/**
 * The one answer for an unknown, expired or deleted link (seed 000 section 8: 'We couldn't verify
 * your invitation'), so the public calls tell nothing about which it was.
 */
export const unverifiedInviteLink = () => new AppError(AdminErrorCodes.invalidInviteLink, 404, "We couldn't verify your invitation");

/** A live link's tenant for this token hash (the hash compared in constant time), else undefined. */
export async function findLiveInviteLink(db: Db, tokenHash: string, now: number): Promise<{ tenantId: string; tenantName: string } | undefined> {
  const row = await findInviteLinkByToken(db, tokenHash);
  if (!row || !safeEqual(row.token_hash, tokenHash) || row.expires_at <= now) return undefined;
  const tenant = await findTenant(db, row.tenant_id);
  return tenant ? { tenantId: tenant.id, tenantName: tenant.name } : undefined;
}

/**
 * Makes the user a member of the tenant with its default roles and writes the audit row, in the
 * caller's transaction; used by the join call and by the activation of a sign-up made through a link.
 */
export async function joinByInviteLink(
  trx: Db,
  user: Pick<UserRow, 'id' | 'email'>,
  tenantId: string,
  client: { ip: string | null; userAgent: string | null },
  now: number,
): Promise<string[]> {
  const roleIds = await defaultRoleIds(trx, tenantId);
  await joinTenant(trx, user.id, tenantId, now);
  await grantRoles(trx, user.id, tenantId, roleIds);
  await recordAudit(
    trx,
    { tenantId, userId: user.id, email: user.email, ip: client.ip, userAgent: client.userAgent },
    { action: AuditActions.joinedByInviteLink, description: `${user.email ?? user.id} joined by invite link`, json: { userId: user.id, roleIds } },
    now,
  );
  return roleIds;
}

export function createInviteLinkService(deps: {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  config: Pick<Config, 'keyEncryptionKey'>;
  /** The tenant's email-domain restrictions: an address they refuse does not join by the link (403 ER-02803). */
  emailDomains?: Pick<EmailDomainRestrictionService, 'assertAllowed'>;
  /** The seat limit of the tenant's plan: a full tenant is not joined by the link (403 ER-03009). */
  seats?: Pick<EntitlementsService, 'assertSeatsAvailable'>;
}): InviteLinkService {
  const { db, clock, limiter, config } = deps;
  const seal = (token: string) => (config.keyEncryptionKey ? encrypt(token, config.keyEncryptionKey) : token);

  function present(row: InviteLinkRow, appUrl: string): InviteLink {
    const token = decrypt(row.token_sealed, config.keyEncryptionKey);
    return {
      id: row.id,
      token,
      url: `${appUrl}${INVITE_LINK_PATH}?invitationToken=${encodeURIComponent(token)}`,
      expires: new Date(row.expires_at).toISOString(),
      expiresInMinutes: Math.max(0, Math.ceil((row.expires_at - clock.now()) / 60_000)),
    };
  }

  return {
    async get(caller, appUrl) {
      const row = await findInviteLink(db, caller.tenantId);
      if (!row) throw noLink();
      return present(row, appUrl);
    },

    async create(caller, body, appUrl) {
      const now = clock.now();
      const minutes = body.expiresInMinutes ?? 43200;
      const existing = await findInviteLink(db, caller.tenantId);
      // A live link is changed with update; an expired one is simply replaced.
      if (existing && existing.expires_at > now) throw linkExists();
      const token = newSecret();
      const row = { id: newId(), tenant_id: caller.tenantId, token_hash: sha256(token), token_sealed: seal(token), created_by: caller.userId, created_at: now, updated_at: now, expires_at: now + minutes * 60_000 };
      try {
        await db.transaction().execute(async (trx) => {
          if (existing) await deleteInviteLink(trx, caller.tenantId);
          await insertInviteLink(trx, row);
          await recordAudit(trx, caller, { action: AuditActions.inviteLinkCreated, description: `Invite link created, valid for ${minutes} minutes`, json: { expiresInMinutes: minutes } }, now);
        });
      } catch (err) {
        // Two creates at once both find no live link: the one-link-per-tenant index decides.
        if (isUniqueViolation(err)) throw linkExists();
        throw err;
      }
      return present(row, appUrl);
    },

    async update(caller, body, appUrl) {
      const now = clock.now();
      if (!(await findInviteLink(db, caller.tenantId))) throw noLink();
      await db.transaction().execute(async (trx) => {
        await updateInviteLink(trx, caller.tenantId, { expires_at: now + body.expiresInMinutes * 60_000, updated_at: now });
        await recordAudit(trx, caller, { action: AuditActions.inviteLinkUpdated, description: `Invite link now valid for ${body.expiresInMinutes} minutes`, json: { expiresInMinutes: body.expiresInMinutes } }, now);
      });
      return present((await findInviteLink(db, caller.tenantId))!, appUrl);
    },

    async remove(caller) {
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        if ((await deleteInviteLink(trx, caller.tenantId)) === 0) throw noLink();
        await recordAudit(trx, caller, { action: AuditActions.inviteLinkDeleted, description: 'Invite link deleted', severity: 'High' }, now);
      });
    },

    async verify(token, client) {
      await limiter.consume('invitationAcceptPerIp', client.ip ?? UNKNOWN_CLIENT);
      const link = await findLiveInviteLink(db, sha256(token), clock.now());
      if (!link) throw unverifiedInviteLink();
      return { name: link.tenantName };
    },

    async join(ctx, token, client) {
      refuseWhileImpersonating(ctx);
      await limiter.consume('invitationAcceptPerIp', client.ip ?? UNKNOWN_CLIENT);
      const now = clock.now();
      const link = await findLiveInviteLink(db, sha256(token), now);
      const user = link ? await findUserById(db, ctx.userId) : undefined;
      if (!link || !user) throw invalidLink();
      // Already in (even a disabled or locked membership): the link changes nothing.
      if (await hasMembership(db, user.id, link.tenantId)) return { tenantId: link.tenantId, tenantName: link.tenantName, joined: false };
      // A signed-in account without an email (phone sign-up) has no domain to refuse.
      if (user.email) await deps.emailDomains?.assertAllowed(link.tenantId, user.email);
      await deps.seats?.assertSeatsAvailable(link.tenantId, 1, { joiningUserId: user.id });
      await db.transaction().execute(async (trx) => {
        await deps.seats?.assertSeatsAvailable(link.tenantId, 1, { joiningUserId: user.id, trx });
        await joinByInviteLink(trx, user, link.tenantId, client, now);
      });
      return { tenantId: link.tenantId, tenantName: link.tenantName, joined: true };
    },
  };
}
