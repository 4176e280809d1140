/**
 * The users of a tenant, for its admins (seed 001 sections 3 "User", 4 "Users", 5, 7 "Team"): the
 * paged, sorted, searchable list with its filter presets, role changes, removal, enable/disable,
 * lock/unlock, temporary users, resend activation and bulk invite.
 *
 * Everything acts on the user's MEMBERSHIP of the caller's tenant: a user who also belongs to other
 * tenants keeps them untouched (disabling, locking, expiring or removing here ends their access here
 * only, and revokes their sessions acting here). Callers come through `authorizeAdmin`; users are
 * looked up in the caller's tenant, so another tenant's user is "not found".
 */
import {
  ApiPaths,
  AdminErrorCodes,
  ErrorCodes,
  ProvisioningErrorCodes,
  type BulkInviteRequest,
  type BulkInviteResponse,
  type TeamStats,
  type TenantUser,
  type UsersGroupsResponse,
  type UsersListQuery,
  type UsersPage,
  type UsersRolesResponse,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db';
import {
  countMembers,
  countMemberships,
  deleteUserAccount,
  findMembership,
  findUsersByIds,
  listGroupsOfUsers,
  listMembersByKeyset,
  listMemberships,
  listRolesOfUsers,
  memberSortColumns,
  memberStats,
  pendingInvitationUserIds,
  removeMembership,
  replaceUserRoles,
  revokeTenantSessions,
  updateMembershipState,
  type MemberSortColumn,
  type MembershipRow,
} from '../../db/queries/admin-users';
import { isPostgres } from '../../db/dialect';
import { findTenantRolesByIds } from '../../db/queries/admin-roles';
import { defaultRoleIds } from '../../db/queries/invitations';
import { listRolePermissions } from '../../db/queries/roles';
import { findUserById, updateUser, type UserRow } from '../../db/queries/users';
import { AppError, Errors, isAppError } from '../../errors';
import { assertCovers, assertManageable, type AdminCaller } from './access';
import { decodeCursor, encodeCursor, listFingerprint, type CursorColumn } from './list-cursor';
import { AuditActions, recordAudit } from './audit-log';
import { listMembersWithMarks, MemberListMarks } from './member-marks';
import type { InvitationService } from '../users/invitations';
import type { SignUpService } from '../users/signup';
import type { EntitlementsService } from '../entitlements';

export interface AdminUserService {
  list(caller: AdminCaller, query: UsersListQuery): Promise<UsersPage>;
  rolesOf(caller: AdminCaller, userIds: string[]): Promise<UsersRolesResponse>;
  groupsOf(caller: AdminCaller, userIds: string[]): Promise<UsersGroupsResponse>;
  stats(caller: AdminCaller): Promise<TeamStats>;
  /** The user's direct roles become exactly `roleIds` (empty: none). */
  setRoles(caller: AdminCaller, userId: string, roleIds: string[]): Promise<TenantUser>;
  remove(caller: AdminCaller, userId: string): Promise<void>;
  setDisabled(caller: AdminCaller, userId: string, disabled: boolean): Promise<TenantUser>;
  setLocked(caller: AdminCaller, userId: string, locked: boolean): Promise<TenantUser>;
  /** `seconds` from now the membership ends; null makes it permanent again. */
  setTemporary(caller: AdminCaller, userId: string, seconds: number | null): Promise<TenantUser>;
  temporaryConfiguration(caller: AdminCaller): { enabled: boolean };
  resendActivation(caller: AdminCaller, userId: string, appUrl: string): Promise<void>;
  bulkInvite(caller: AdminCaller, body: BulkInviteRequest, appUrl: string): Promise<BulkInviteResponse>;
}

const notFound = () => Errors.notFound('User not found in this account');

/** How a cursor's value of each sort column is checked. */
const CURSOR_COLUMNS: Record<MemberSortColumn, CursorColumn> = {
  sort_name: 'text',
  email: 'nullable-text',
  user_created_at: 'integer',
  user_id: 'text',
  verified: 'integer',
  locked: 'integer',
  provider: 'text',
};

/**
 * One page of the users list: by offset (`page`, read from the nearer end of the list) or, with a
 * cursor, the page after or before the row it names (keyset: no rows skipped however deep). Either
 * way the answer has the totals and the cursors of the pages around it.
 */
async function membersPage(db: Db, tenantId: string, query: UsersListQuery, now: number, marks: MemberListMarks | undefined): Promise<Omit<UsersPage, 'items'> & { rows: MembershipRow[] }> {
  const columns = memberSortColumns(query.sortBy);
  // What the list is: a cursor of another sort, direction, search or preset is refused.
  const fingerprint = listFingerprint([query.sortBy, query.sortDirection, query.search?.trim() ?? '', query.preset ?? '']);
  let rows: MembershipRow[];
  let total: number;
  let hasNext: boolean;
  let hasPrev: boolean;
  if (query.cursor) {
    if (query.page !== 0) throw Errors.validation('cursor: give either a cursor or a page offset, not both', { parameter: 'cursor' });
    const keyset = decodeCursor(query.cursor, 'users', fingerprint, columns.map((c) => CURSOR_COLUMNS[c]));
    const [page, count] = await Promise.all([listMembersByKeyset(db, tenantId, query, now, keyset), countMembers(db, tenantId, query, now)]);
    ({ rows } = page);
    total = count;
    // The cursor's own row lies on the side the page was read from.
    hasNext = keyset.way === 'next' ? page.more : rows.length > 0;
    hasPrev = keyset.way === 'prev' ? page.more : rows.length > 0;
  } else {
    ({ rows, total } = await listMembersWithMarks(db, tenantId, query, now, marks));
    hasPrev = query.page > 0 && rows.length > 0;
    hasNext = query.page * query.pageSize + rows.length < total;
  }
  const cursorAt = (way: 'next' | 'prev', row: MembershipRow | undefined) => (row ? encodeCursor('users', fingerprint, way, columns.map((c) => row[c])) : null);
  return {
    rows,
    _metadata: { totalItems: total, totalPages: Math.ceil(total / query.pageSize) },
    nextCursor: hasNext ? cursorAt('next', rows[rows.length - 1]) : null,
    prevCursor: hasPrev ? cursorAt('prev', rows[0]) : null,
  };
}

const managedByScim = () => new AppError(ProvisioningErrorCodes.managedByScim, 403, 'This user is managed by SCIM (managedBy: scim2) and is read-only here: change it in the identity provider');
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function createAdminUserService(deps: {
  db: Db;
  clock: Clock;
  invitations: InvitationService;
  signUp: SignUpService;
  config: Pick<Config, 'publicUrl' | 'temporaryUsers'>;
  /** The seat limit of the tenant's plan: a disabled member holds no seat, so enabling one takes a seat again (403 ER-03009). */
  seats?: Pick<EntitlementsService, 'assertSeatsAvailable'>;
}): AdminUserService {
  const { db, clock, invitations, signUp, config } = deps;
  const pictureBase = `${config.publicUrl}${ApiPaths.profilePicture}/`;
  // Page marks for deep offset pages: PostgreSQL only (member-marks.ts says why).
  const marks = isPostgres(db) ? new MemberListMarks() : undefined;

  /** The list rows of these memberships, in their order: user, roles, groups, pending invitation. */
  async function present(tenantId: string, memberships: MembershipRow[]): Promise<TenantUser[]> {
    const ids = memberships.map((m) => m.user_id);
    const [users, roles, groups, pending] = await Promise.all([findUsersByIds(db, ids), listRolesOfUsers(db, tenantId, ids), listGroupsOfUsers(db, tenantId, ids), pendingInvitationUserIds(db, tenantId, ids)]);
    const byId = new Map(users.map((u) => [u.id, u]));
    return memberships.flatMap((m) => {
      const user = byId.get(m.user_id);
      if (!user) return [];
      const userRoles = roles.filter((r) => r.user_id === m.user_id).map((r) => ({ id: r.id, key: r.key, name: r.name, ...(r.description ? { description: r.description } : {}) }));
      return [
        {
          id: user.id,
          email: user.email,
          name: user.name,
          phoneNumber: user.phone_number,
          profilePictureUrl: user.profile_picture_id ? `${pictureBase}${user.profile_picture_id}` : null,
          tenantId,
          roleIds: userRoles.map((r) => r.id),
          roles: userRoles,
          groups: groups.filter((g) => g.user_id === m.user_id).map((g) => ({ id: g.id, name: g.name, color: g.color })),
          verified: user.verified === 1,
          isLocked: m.admin_locked_at !== null || user.locked_at !== null,
          isDisabled: m.disabled_at !== null,
          invitationPending: pending.has(user.id),
          temporaryExpirationDate: iso(m.expires_at),
          mfaEnrolled: m.mfa_enrolled === 1,
          isBreachedPassword: user.is_breached_password === 1,
          provider: m.provider,
          managedBy: m.managed_by === 'scim2' ? 'scim2' : 'frontegg',
          superUser: user.super_user === 1,
          createdAt: new Date(user.created_at).toISOString(),
          joinedAt: new Date(m.created_at).toISOString(),
          lastSeen: iso(user.last_login),
        },
      ];
    });
  }

  async function one(tenantId: string, userId: string): Promise<TenantUser> {
    const membership = await findMembership(db, tenantId, userId);
    if (!membership) throw notFound();
    const [user] = await present(tenantId, [membership]);
    if (!user) throw notFound();
    return user;
  }

  /** The membership of a user the caller may act on, or 404 / 403. */
  const ROLES_ACTION = 'change the roles of';
  async function target(caller: AdminCaller, userId: string, action: string): Promise<{ membership: MembershipRow; user: UserRow }> {
    const membership = await findMembership(db, caller.tenantId, userId);
    const user = membership ? await findUserById(db, userId) : undefined;
    if (!membership || !user) throw notFound();
    // Issue 15: a membership SCIM provisions is the identity provider's to remove, disable, lock or
    // expire (its roles stay the tenant's to grant, as for any member).
    if (membership.managed_by === 'scim2' && action !== ROLES_ACTION) throw managedByScim();
    await assertManageable(db, caller, userId, action);
    return { membership, user };
  }

  const label = (user: UserRow) => user.email ?? user.phone_number ?? user.id;

  return {
    async list(caller, query) {
      const { rows, _metadata, nextCursor, prevCursor } = await membersPage(db, caller.tenantId, query, clock.now(), marks);
      return { items: await present(caller.tenantId, rows), _metadata, nextCursor, prevCursor };
    },

    async rolesOf(caller, userIds) {
      const members = new Set((await listMemberships(db, caller.tenantId, userIds)).map((m) => m.user_id));
      const roles = await listRolesOfUsers(db, caller.tenantId, [...members]);
      // Users of other tenants are left out, exactly like unknown ids.
      return userIds
        .filter((id) => members.has(id))
        .map((userId) => ({ userId, roles: roles.filter((r) => r.user_id === userId).map((r) => ({ id: r.id, key: r.key, name: r.name, ...(r.description ? { description: r.description } : {}) })) }));
    },

    async groupsOf(caller, userIds) {
      const members = new Set((await listMemberships(db, caller.tenantId, userIds)).map((m) => m.user_id));
      const groups = await listGroupsOfUsers(db, caller.tenantId, [...members]);
      return userIds.filter((id) => members.has(id)).map((userId) => ({ userId, groups: groups.filter((g) => g.user_id === userId).map((g) => ({ id: g.id, name: g.name, color: g.color })) }));
    },

    async stats(caller) {
      return memberStats(db, caller.tenantId, clock.now());
    },

    async setRoles(caller, userId, roleIds) {
      const { user } = await target(caller, userId, ROLES_ACTION);
      const found = await findTenantRolesByIds(db, caller.tenantId, roleIds);
      const missing = roleIds.filter((id) => !found.some((r) => r.id === id));
      if (missing.length > 0) throw new AppError(ErrorCodes.roleNotGrantable, 400, `roleIds: ${missing.join(', ')} ${missing.length === 1 ? 'is not a role' : 'are not roles'} of this account`, { roleIds: missing });
      const before = (await listRolesOfUsers(db, caller.tenantId, [userId])).map((r) => r.id);
      const changed = [...roleIds.filter((id) => !before.includes(id)), ...before.filter((id) => !roleIds.includes(id))];
      // Granting or taking away a role needs every permission it carries.
      assertCovers(caller, (await listRolePermissions(db, changed)).map((p) => p.key), 'You cannot grant or remove a role with permissions you do not have');
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await replaceUserRoles(trx, caller.tenantId, userId, roleIds);
        await recordAudit(trx, caller, { action: AuditActions.userRolesUpdated, description: `Roles of ${label(user)} set to ${found.map((r) => r.key).join(', ') || 'none'}`, json: { userId, roleIds, before } }, now);
      });
      return one(caller.tenantId, userId);
    },

    async remove(caller, userId) {
      const { user } = await target(caller, userId, 'remove');
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await revokeTenantSessions(trx, caller.tenantId, userId, now);
        await removeMembership(trx, caller.tenantId, userId);
        // Nothing left to sign in to: the account goes too, and its address is free again.
        const rest = await countMemberships(trx, userId);
        if (rest === 0) await deleteUserAccount(trx, userId);
        await recordAudit(trx, caller, { action: AuditActions.userRemoved, description: `${label(user)} removed from the account`, severity: 'High', json: { userId, email: user.email, accountDeleted: rest === 0 } }, now);
      });
    },

    async setDisabled(caller, userId, disabled) {
      const { membership, user } = await target(caller, userId, disabled ? 'disable' : 'enable');
      const now = clock.now();
      if ((membership.disabled_at !== null) !== disabled) {
        if (!disabled) await deps.seats?.assertSeatsAvailable(caller.tenantId, 1, { joiningUserId: userId });
        await db.transaction().execute(async (trx) => {
          if (!disabled) await deps.seats?.assertSeatsAvailable(caller.tenantId, 1, { joiningUserId: userId, trx });
          await updateMembershipState(trx, caller.tenantId, userId, { disabled_at: disabled ? now : null });
          if (disabled) await revokeTenantSessions(trx, caller.tenantId, userId, now);
          await recordAudit(trx, caller, { action: disabled ? AuditActions.userDisabled : AuditActions.userEnabled, description: `${label(user)} ${disabled ? 'disabled' : 'enabled'}`, severity: disabled ? 'High' : 'Info', json: { userId } }, now);
        });
      }
      return one(caller.tenantId, userId);
    },

    async setLocked(caller, userId, locked) {
      const { membership, user } = await target(caller, userId, locked ? 'lock' : 'unlock');
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        if (locked) {
          if (membership.admin_locked_at === null) await updateMembershipState(trx, caller.tenantId, userId, { admin_locked_at: now });
          await revokeTenantSessions(trx, caller.tenantId, userId, now);
        } else {
          await updateMembershipState(trx, caller.tenantId, userId, { admin_locked_at: null });
          // The lockout policy locks the account itself; the admin of its only tenant may lift that too.
          if (user.locked_at !== null && (await countMemberships(trx, userId)) === 1) await updateUser(trx, userId, { locked_at: null, failed_logins: 0 });
        }
        await recordAudit(trx, caller, { action: locked ? AuditActions.userLocked : AuditActions.userUnlocked, description: `${label(user)} ${locked ? 'locked' : 'unlocked'}`, severity: locked ? 'High' : 'Info', json: { userId } }, now);
      });
      return one(caller.tenantId, userId);
    },

    async setTemporary(caller, userId, seconds) {
      if (!config.temporaryUsers) throw new AppError(AdminErrorCodes.temporaryUsersDisabled, 400, 'Temporary users are turned off');
      const { user, membership } = await target(caller, userId, seconds === null ? 'change' : 'make temporary');
      const now = clock.now();
      const expiresAt = seconds === null ? null : now + seconds * 1000;
      // A membership past its expiry holds no seat; making it permanent or extending it takes one back.
      const takesSeat = membership.disabled_at === null && membership.expires_at !== null && Number(membership.expires_at) <= now;
      if (takesSeat) await deps.seats?.assertSeatsAvailable(caller.tenantId, 1, { joiningUserId: userId });
      await db.transaction().execute(async (trx) => {
        if (takesSeat) await deps.seats?.assertSeatsAvailable(caller.tenantId, 1, { joiningUserId: userId, trx });
        await updateMembershipState(trx, caller.tenantId, userId, { expires_at: expiresAt });
        await recordAudit(
          trx,
          caller,
          seconds === null
            ? { action: AuditActions.userMadePermanent, description: `${label(user)} made permanent`, json: { userId } }
            : { action: AuditActions.userMadeTemporary, description: `${label(user)} made temporary until ${iso(expiresAt)}`, json: { userId, expirationInSeconds: seconds } },
          now,
        );
      });
      return one(caller.tenantId, userId);
    },

    temporaryConfiguration: () => ({ enabled: config.temporaryUsers }),

    async resendActivation(caller, userId, appUrl) {
      const membership = await findMembership(db, caller.tenantId, userId);
      const user = membership ? await findUserById(db, userId) : undefined;
      if (!membership || !user) throw notFound();
      // An invitation to this tenant gets a new link; an unfinished sign-up gets a new activation email.
      const resent = await invitations.resendToMember(caller.tenantId, userId, appUrl);
      if (!resent) {
        if (user.verified === 1 || !user.email) throw Errors.validation('This user has already activated their account');
        await signUp.resendActivation(user.email, appUrl, { ip: caller.ip });
      }
      await recordAudit(db, caller, { action: AuditActions.activationResent, description: `${resent ? 'Invitation' : 'Activation email'} sent again to ${label(user)}`, json: { userId } }, clock.now());
    },

    async bulkInvite(caller, body, appUrl) {
      const allowed: BulkInviteResponse['allowed'] = [];
      const unallowed: BulkInviteResponse['unallowed'] = [];
      const seen = new Set<string>();
      // The roles are the same for every email: a role beyond the caller's keys refuses the whole call.
      const wanted = body.roleIds?.length ? (await findTenantRolesByIds(db, caller.tenantId, body.roleIds)).map((r) => r.id) : await defaultRoleIds(db, caller.tenantId);
      assertCovers(caller, (await listRolePermissions(db, wanted)).map((p) => p.key), 'You cannot grant a role with permissions you do not have');
      // One by one (seed 001 section 5), each through the invitation rules (roles, limits, membership).
      for (const typed of body.emails) {
        const email = typed.trim().toLowerCase();
        if (seen.has(email)) continue;
        seen.add(email);
        if (!EMAIL.test(email) || email.length > 320) {
          unallowed.push({ email: typed, reason: 'Not a valid email address', errorCode: ErrorCodes.validation });
          continue;
        }
        try {
          const invited = await invitations.invite(caller, { email, name: email.split('@')[0]!, ...(body.roleIds ? { roleIds: body.roleIds } : {}) }, appUrl, { audit: false });
          allowed.push({ email, userId: invited.id });
        } catch (err) {
          if (!isAppError(err) || err.status >= 500) throw err;
          unallowed.push({ email, reason: err.message, errorCode: err.code });
        }
      }
      if (allowed.length > 0) {
        await recordAudit(db, caller, { action: AuditActions.usersBulkInvited, description: `${allowed.length} ${allowed.length === 1 ? 'user' : 'users'} invited`, json: { userIds: allowed.map((a) => a.userId), refused: unallowed.length } }, clock.now());
      }
      return { allowed, unallowed };
    },
  };
}
