/**
 * Sub-accounts (seed 001 sections 3 "Account", 5, 6, 7 "Tenants"; README "All accounts").
 *
 * Everything is seen from the tenant the caller acts in (C, after the admin guard): the accounts
 * it addresses are C itself or a descendant of C (any depth); any other tenant id is "not found".
 * - The structure (tree, search, parents, counts, the selected account) needs the read key only.
 * - Looking inside a descendant (its users and roles), changing it, creating under it or moving an
 *   account under it needs, on top, sub-account access to it through the tenant whose keys the
 *   caller uses (services/admin/sub-account-access.ts); without it: 403. API tokens and impersonation
 *   sessions stay in their own tenant: descendants are "not found" to them, and tree and search
 *   show none.
 * - A tenant id that has an audit history (a deleted account's) is never given out again (409).
 * - A tenant never becomes its own ancestor (moving under itself or a descendant: 409); a tenant
 *   with sub-accounts is never deleted (409: delete or move them first); the depth stops at MAX_DEPTH.
 * - Every change writes an audit row in C and, when it happened in a descendant, one there too.
 */
import {
  AdminErrorCodes,
  ErrorCodes,
  SubAccountPaths,
  type Account,
  type AccountNode,
  type AccountRef,
  type AccountUsersResponse,
  type AddAccountUsersRequest,
  type CreateSubAccountRequest,
  type RoleSummary,
  type SelectedAccount,
  type SubAccountAccessType,
  type TenantType,
  type TreeQuery,
  type UpdateSubAccountRequest,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { findTenantRolesByIds, listTenantRoles } from '../../db/queries/admin-roles';
import { listRolesOfUsers, removeMembership, replaceUserRoles } from '../../db/queries/admin-users';
import { tenantMemberIds } from '../../db/queries/groups';
import { listRolePermissions } from '../../db/queries/roles';
import {
  accountUsersPage,
  ancestorsOf,
  childCounts,
  childrenPage,
  countAccountUsers,
  findAccount,
  findMembership,
  MAX_DEPTH,
  searchDescendants,
  tenantIdHasHistory,
  updateAccount,
  usersCounts,
  type AccountRow,
} from '../../db/queries/sub-accounts';
import { hasMembership, isMember } from '../../db/queries/tenants';
import { findUserById } from '../../db/queries/users';
import type { EntitlementsService } from '../entitlements';
import type { EmailDomainRestrictionService } from '../security/email-domain-restrictions';
import { AppError, Errors } from '../../errors';
import { assertCovers, assertManageable, type AdminCaller } from './access';
import { actorOf, AuditActions, recordAudit, type AuditEvent } from './audit-log';
import { accessAllowed, grantThrough } from './sub-account-access';
import { createTenantWithRoles } from './tenants';

export interface SubAccountService {
  tree(caller: AdminCaller, query: TreeQuery): Promise<AccountNode>;
  search(caller: AdminCaller, filter: string, offset: number, limit: number): Promise<{ items: Account[]; loadMoreLink: string | null }>;
  metadata(caller: AdminCaller): Promise<Account>;
  parents(caller: AdminCaller, tenantId: string): Promise<AccountRef[]>;
  usersCount(caller: AdminCaller, tenantIds: string[]): Promise<{ tenantId: string; numberOfUsers: number }[]>;
  get(caller: AdminCaller, tenantId: string): Promise<SelectedAccount>;
  create(caller: AdminCaller, body: CreateSubAccountRequest): Promise<Account>;
  update(caller: AdminCaller, tenantId: string, body: UpdateSubAccountRequest): Promise<Account>;
  remove(caller: AdminCaller, tenantId: string): Promise<void>;
  setManagement(caller: AdminCaller, tenantId: string, isReseller: boolean): Promise<Account>;
  setHierarchySettings(caller: AdminCaller, tenantId: string, type: SubAccountAccessType | undefined): Promise<Account>;
  roles(caller: AdminCaller, tenantId: string): Promise<RoleSummary[]>;
  users(caller: AdminCaller, tenantId: string, offset: number, limit: number): Promise<AccountUsersResponse>;
  addUsers(caller: AdminCaller, tenantId: string, body: AddAccountUsersRequest): Promise<AccountUsersResponse>;
  removeUser(caller: AdminCaller, tenantId: string, userId: string): Promise<void>;
  setUserRoles(caller: AdminCaller, tenantId: string, userId: string, roleIds: string[]): Promise<void>;
  setUserAccess(caller: AdminCaller, tenantId: string, userId: string, allow: boolean): Promise<void>;
}

const accountNotFound = () => Errors.notFound('Account not found');
/** API tokens and impersonation sessions: confined to the structure of their own tenant, never its descendants. */
const confined = (caller: AdminCaller) => Boolean(caller.apiTokenId || caller.auth.claims.act);
const noAccess = () => new AppError(ErrorCodes.forbidden, 403, 'You do not have access to this sub-account (sub-account access is off for you)');

export function createSubAccountService(deps: {
  db: Db;
  clock: Clock;
  /** The sub-account's email-domain restrictions: a user whose address they refuse is not added (403 ER-02803). */
  emailDomains?: Pick<EmailDomainRestrictionService, 'assertAllowed'>;
  /** The seat limit of the sub-account's plan: every added user takes a seat (403 ER-03009, none added). */
  seats?: Pick<EntitlementsService, 'assertSeatsAvailable'>;
}): SubAccountService {
  const { db, clock } = deps;

  async function present(rows: AccountRow[]): Promise<Account[]> {
    const ids = rows.map((r) => r.id);
    const [users, children] = await Promise.all([usersCounts(db, ids, clock.now()), childCounts(db, ids)]);
    return rows.map((r) => ({
      tenantId: r.id,
      name: r.name,
      parentTenantId: r.parent_tenant_id ?? null,
      numberOfUsers: users.get(r.id) ?? 0,
      numberOfSubAccounts: children.get(r.id) ?? 0,
      createdAt: new Date(Number(r.created_at)).toISOString(),
      metadata: r.metadata,
      isReseller: Number(r.is_reseller) === 1,
      subAccountAccessType: r.sub_account_access_type as SubAccountAccessType,
      tenantType: r.tenant_type as TenantType,
    }));
  }
  const presentOne = async (row: AccountRow) => (await present([row]))[0]!;

  /** The caller's own tenant, or a descendant of it (any depth); anything else: 404. Returns the row and its ancestors. */
  async function locate(caller: AdminCaller, tenantId: string, opts: { self: boolean }) {
    const account = await findAccount(db, tenantId);
    if (!account) throw accountNotFound();
    if (tenantId === caller.tenantId) {
      if (!opts.self) throw accountNotFound();
      return { account, ancestors: [] as { id: string; name: string; depth: number }[] };
    }
    const ancestors = await ancestorsOf(db, tenantId);
    if (!ancestors.some((a) => a.id === caller.tenantId) || confined(caller)) throw accountNotFound();
    return { account, ancestors };
  }

  /**
   * The caller may look inside this located account: their own tenant, or sub-account access to it
   * through the very tenant whose keys they use (the one they act in, or the ancestor they reach it from).
   */
  async function assertAccess(caller: AdminCaller, tenantId: string) {
    if (tenantId === caller.tenantId || caller.superUser) return;
    if (!(await grantThrough(db, caller.userId, tenantId, caller.viaTenantId ?? caller.tenantId, clock.now()))) throw noAccess();
  }

  /** `locate`, and `assertAccess`. */
  async function inside(caller: AdminCaller, tenantId: string, opts: { self: boolean }) {
    const found = await locate(caller, tenantId, opts);
    await assertAccess(caller, tenantId);
    return found.account;
  }

  /** Audit rows: in the tenant the caller acts in and, when different, in the account changed. */
  async function audit(trx: Db, caller: AdminCaller, tenantId: string | null, event: AuditEvent, now: number) {
    await recordAudit(trx, caller, event, now);
    if (tenantId && tenantId !== caller.tenantId) await recordAudit(trx, { ...actorOf(caller), tenantId }, event, now);
  }

  async function assertRolesCovered(caller: AdminCaller, roleIds: readonly string[], message: string) {
    assertCovers(caller, (await listRolePermissions(db, roleIds)).map((p) => p.key), message);
  }

  async function accountRoles(tenantId: string, roleIds: readonly string[]) {
    const wanted = [...new Set(roleIds)];
    const roles = await findTenantRolesByIds(db, tenantId, wanted);
    if (roles.length !== wanted.length) throw Errors.notFound('Role not found in this account');
    return roles;
  }

  async function usersOf(account: AccountRow, offset: number, limit: number): Promise<AccountUsersResponse> {
    const [rows, total] = await Promise.all([accountUsersPage(db, account.id, offset, limit), countAccountUsers(db, account.id)]);
    const roles = await listRolesOfUsers(db, account.id, rows.map((r) => r.id));
    return {
      items: rows.map((r) => ({
        id: r.id,
        name: r.name,
        email: r.email,
        roles: roles.filter((x) => x.user_id === r.id).map((x) => ({ id: x.id, key: x.key, name: x.name, ...(x.description ? { description: x.description } : {}) })),
        subAccountAccessAllowed: accessAllowed(account.sub_account_access_type, r.access === null ? null : Number(r.access)),
      })),
      _metadata: { totalItems: total, offset, limit },
    };
  }

  async function memberOf(tenantId: string, userId: string) {
    if (!(await hasMembership(db, userId, tenantId))) throw Errors.notFound('User not found in this account');
  }

  return {
    async tree(caller, query) {
      const parent = (await locate(caller, query.parentTenantId ?? caller.tenantId, { self: true })).account;
      const rows = confined(caller) ? [] : await childrenPage(db, parent.id, { offset: query._offset, limit: query._limit, sortBy: query._sortBy, order: query._order });
      const more = rows.length > query._limit;
      const next = new URLSearchParams({ parentTenantId: parent.id, _offset: String(query._offset + query._limit), _limit: String(query._limit), _sortBy: query._sortBy, _order: query._order });
      return { ...(await presentOne(parent)), children: await present(rows.slice(0, query._limit)), loadMoreLink: more ? `${SubAccountPaths.tree}?${next}` : null };
    },

    async search(caller, filter, offset, limit) {
      if (confined(caller)) return { items: [], loadMoreLink: null };
      const rows = await searchDescendants(db, caller.tenantId, filter, { offset, limit });
      const more = rows.length > limit;
      const next = new URLSearchParams({ _filter: filter, _offset: String(offset + limit), _limit: String(limit) });
      return { items: await present(rows.slice(0, limit)), loadMoreLink: more ? `${SubAccountPaths.search}?${next}` : null };
    },

    async metadata(caller) {
      const account = await findAccount(db, caller.tenantId);
      if (!account) throw accountNotFound();
      return presentOne(account);
    },

    async parents(caller, tenantId) {
      const { ancestors } = await locate(caller, tenantId, { self: true });
      // From the caller's tenant down to the parent: never above the tenant the caller acts in.
      const upTo = ancestors.findIndex((a) => a.id === caller.tenantId);
      return ancestors
        .slice(0, upTo + 1)
        .reverse()
        .map((a) => ({ tenantId: a.id, name: a.name }));
    },

    async usersCount(caller, tenantIds) {
      const reachable: string[] = [];
      for (const id of [...new Set(tenantIds)]) {
        try {
          await locate(caller, id, { self: true });
          reachable.push(id);
        } catch {
          // Accounts the caller cannot address are left out, as if they did not exist.
        }
      }
      const counts = await usersCounts(db, reachable, clock.now());
      return reachable.map((id) => ({ tenantId: id, numberOfUsers: counts.get(id) ?? 0 }));
    },

    async get(caller, tenantId) {
      const { account } = await locate(caller, tenantId, { self: true });
      return { ...(await presentOne(account)), parentsAccounts: await this.parents(caller, tenantId) };
    },

    async create(caller, body) {
      const parentId = body.parentTenantId ?? caller.tenantId;
      const { ancestors } = await locate(caller, parentId, { self: true });
      await assertAccess(caller, parentId);
      if (ancestors.length + 1 >= MAX_DEPTH) throw Errors.validation(`Accounts nest at most ${MAX_DEPTH} levels deep`);
      if (body.tenantId && (await findAccount(db, body.tenantId))) throw tenantIdTaken(body.tenantId);
      // The audit log of a deleted tenant stays under its id: that id is never given to a new account.
      if (body.tenantId && (await tenantIdHasHistory(db, body.tenantId))) throw tenantIdUsedBefore(body.tenantId);
      const now = clock.now();
      let tenantId = '';
      try {
        await db.transaction().execute(async (trx) => {
          ({ tenantId } = await createTenantWithRoles(trx, body.name, now, { id: body.tenantId, parentTenantId: parentId, metadata: body.metadata ?? null, tenantType: body.tenantType }));
          await audit(trx, caller, parentId, { action: AuditActions.subAccountCreated, description: `Sub-account ${body.name} created`, json: { tenantId, parentTenantId: parentId } }, now);
        });
      } catch (err) {
        // Two creates with the same chosen id at once: the primary key decides, the loser gets 409.
        if (body.tenantId && (await findAccount(db, body.tenantId))) throw tenantIdTaken(body.tenantId);
        throw err;
      }
      return presentOne((await findAccount(db, tenantId))!);
    },

    async update(caller, tenantId, body) {
      const account = await inside(caller, tenantId, { self: false });
      // An empty PATCH changes nothing: the account as it is, nothing written or audited.
      if (Object.values(body).every((value) => value === undefined)) return presentOne(account);
      const now = clock.now();
      const moveTo = body.parentTenantId !== undefined && body.parentTenantId !== account.parent_tenant_id ? body.parentTenantId : null;
      // A tenant cannot become its own ancestor: not under itself, not under one of its descendants.
      const assertMovable = (targetId: string, targetAncestors: { id: string }[]) => {
        if (targetId === account.id || targetAncestors.some((a) => a.id === account.id)) {
          throw new AppError(AdminErrorCodes.subAccountCycle, 409, 'An account cannot be moved under itself or one of its sub-accounts');
        }
        if (targetAncestors.length + 1 >= MAX_DEPTH) throw Errors.validation(`Accounts nest at most ${MAX_DEPTH} levels deep`);
      };
      if (moveTo !== null) {
        const target = await locate(caller, moveTo, { self: true });
        await assertAccess(caller, moveTo);
        assertMovable(target.account.id, target.ancestors);
      }
      await db.transaction().execute(async (trx) => {
        if (moveTo !== null) {
          // Moves within one tree run one at a time: each first locks the tree's root row (a no-op
          // update, held until commit on PostgreSQL; SQLite runs one transaction at a time), then
          // checks again on what is committed now, so two crossing moves never make a cycle.
          // Both ends are below the caller's tenant, so a move never changes a tree's root.
          const chain = await ancestorsOf(trx, account.id);
          const root = chain.at(-1)?.id ?? account.id;
          await trx.updateTable('tenants').set((eb) => ({ name: eb.ref('name') })).where('id', '=', root).execute();
          assertMovable(moveTo, await ancestorsOf(trx, moveTo));
        }
        await updateAccount(trx, account.id, { name: body.name, parent_tenant_id: body.parentTenantId, metadata: body.metadata, tenant_type: body.tenantType });
        await audit(trx, caller, account.id, { action: AuditActions.subAccountUpdated, description: `Sub-account ${body.name ?? account.name} updated`, json: { tenantId: account.id, ...body } }, now);
      });
      return presentOne((await findAccount(db, account.id))!);
    },

    async remove(caller, tenantId) {
      const account = await inside(caller, tenantId, { self: false });
      if (((await childCounts(db, [account.id])).get(account.id) ?? 0) > 0) {
        throw new AppError(AdminErrorCodes.subAccountHasChildren, 409, 'This account has sub-accounts: delete or move them first');
      }
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        // Memberships, roles, groups, invite links and tokens go with it (ON DELETE CASCADE); its audit log stays.
        await trx.deleteFrom('tenants').where('id', '=', account.id).execute();
        // ...and this row in it marks the id as used: it is never given to a new account (tenantIdHasHistory).
        await recordAudit(trx, { ...actorOf(caller), tenantId: account.id }, { action: AuditActions.subAccountDeleted, description: `Sub-account ${account.name} deleted`, severity: 'High', json: { tenantId: account.id, name: account.name } }, now);
        await audit(trx, caller, account.parent_tenant_id !== caller.tenantId ? account.parent_tenant_id : null, { action: AuditActions.subAccountDeleted, description: `Sub-account ${account.name} deleted`, severity: 'High', json: { tenantId: account.id, name: account.name } }, now);
      });
    },

    async setManagement(caller, tenantId, isReseller) {
      const account = await inside(caller, tenantId, { self: false });
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('tenants').set({ is_reseller: isReseller ? 1 : 0 }).where('id', '=', account.id).execute();
        await audit(trx, caller, account.id, { action: AuditActions.subAccountManagementSet, description: `Sub-account management ${isReseller ? 'enabled' : 'disabled'} for ${account.name}`, json: { tenantId: account.id, isReseller } }, now);
      });
      return presentOne((await findAccount(db, account.id))!);
    },

    async setHierarchySettings(caller, tenantId, type) {
      // Seed 001 section 5: the update proceeds only if an access type is given.
      if (!type) throw new AppError(AdminErrorCodes.subAccountAccessTypeRequired, 400, 'subAccountAccessType is required (defaultOff, defaultOn or alwaysOn)');
      const account = await inside(caller, tenantId, { self: true });
      // A member whose own sub-account access was revoked here does not switch it back on for
      // themselves with alwaysOn (it would override the revocation); another admin must decide.
      const mine = caller.superUser ? undefined : await findMembership(db, caller.userId, account.id);
      if (mine && mine.sub_account_access !== null && Number(mine.sub_account_access) === 0 && accessAllowed(type, 0)) {
        throw new AppError(ErrorCodes.forbidden, 403, 'Your own sub-account access was revoked in this account: you cannot set its access type to alwaysOn');
      }
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('tenants').set({ sub_account_access_type: type }).where('id', '=', account.id).execute();
        await audit(trx, caller, account.id, { action: AuditActions.subAccountHierarchySettings, description: `Sub-account access of ${account.name} set to ${type}`, severity: 'High', json: { tenantId: account.id, subAccountAccessType: type } }, now);
      });
      return presentOne((await findAccount(db, account.id))!);
    },

    async roles(caller, tenantId) {
      const account = await inside(caller, tenantId, { self: true });
      return (await listTenantRoles(db, account.id)).map((r) => ({ id: r.id, key: r.key, name: r.name, ...(r.description ? { description: r.description } : {}) }));
    },

    async users(caller, tenantId, offset, limit) {
      return usersOf(await inside(caller, tenantId, { self: true }), offset, limit);
    },

    async addUsers(caller, tenantId, body) {
      const account = await inside(caller, tenantId, { self: false });
      const wanted = [...new Set(body.userIds)];
      // Users come from the tenant the caller acts in; others are as unknown as users that never existed.
      if ((await tenantMemberIds(db, caller.tenantId, wanted)).length !== wanted.length) throw Errors.notFound('User not found in this account');
      // ...and only active ones: a user disabled, locked or expired there gets no fresh membership here.
      for (const userId of wanted) {
        if (!(await isMember(db, userId, caller.tenantId, clock.now()))) throw Errors.validation('Only active users of your account can be added (this user is disabled, locked or expired)');
      }
      for (const userId of wanted) {
        if (await hasMembership(db, userId, account.id)) throw new AppError(AdminErrorCodes.userAlreadyInAccount, 409, 'This user is already in the account');
      }
      // Joining the sub-account, like any other way in, is for addresses its email-domain restrictions allow.
      for (const userId of wanted) {
        const email = (await findUserById(db, userId))?.email;
        if (email) await deps.emailDomains?.assertAllowed(account.id, email);
      }
      const roles = await accountRoles(account.id, body.roleIds);
      await assertRolesCovered(caller, roles.map((r) => r.id), 'You cannot give roles with permissions you do not have');
      await deps.seats?.assertSeatsAvailable(account.id, wanted.length, wanted.length === 1 ? { joiningUserId: wanted[0]! } : {});
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await deps.seats?.assertSeatsAvailable(account.id, wanted.length, { ...(wanted.length === 1 ? { joiningUserId: wanted[0]! } : {}), trx });
        for (const userId of wanted) {
          await trx.insertInto('user_tenants').values({ user_id: userId, tenant_id: account.id, created_at: now }).execute();
          await replaceUserRoles(trx, account.id, userId, roles.map((r) => r.id));
        }
        await audit(trx, caller, account.id, { action: AuditActions.subAccountUsersAdded, description: `${wanted.length} ${wanted.length === 1 ? 'user' : 'users'} added to ${account.name}`, json: { tenantId: account.id, userIds: wanted, roleIds: roles.map((r) => r.id) } }, now);
      });
      return usersOf(account, 0, 10);
    },

    async removeUser(caller, tenantId, userId) {
      const account = await inside(caller, tenantId, { self: false });
      await memberOf(account.id, userId);
      await assertManageable(db, { ...caller, tenantId: account.id }, userId, 'remove');
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await removeMembership(trx, account.id, userId);
        await audit(trx, caller, account.id, { action: AuditActions.subAccountUserRemoved, description: `User removed from ${account.name}`, severity: 'High', json: { tenantId: account.id, userId } }, now);
      });
    },

    async setUserRoles(caller, tenantId, userId, roleIds) {
      const account = await inside(caller, tenantId, { self: false });
      await memberOf(account.id, userId);
      await assertManageable(db, { ...caller, tenantId: account.id }, userId, 'change the roles of');
      const roles = await accountRoles(account.id, roleIds);
      const current = (await listRolesOfUsers(db, account.id, [userId])).map((r) => r.id);
      await assertRolesCovered(caller, [...new Set([...roles.map((r) => r.id), ...current])], 'You cannot give or take away roles with permissions you do not have');
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await replaceUserRoles(trx, account.id, userId, roles.map((r) => r.id));
        await audit(trx, caller, account.id, { action: AuditActions.subAccountUserRolesSet, description: `Roles of a user in ${account.name} set to ${roles.map((r) => r.key).join(', ') || 'none'}`, json: { tenantId: account.id, userId, roleIds: roles.map((r) => r.id) } }, now);
      });
    },

    async setUserAccess(caller, tenantId, userId, allow) {
      const account = await inside(caller, tenantId, { self: true });
      if (!(await findMembership(db, userId, account.id))) throw Errors.notFound('User not found in this account');
      // Not one's own access (no restoring a revoked one), and not that of someone above the caller.
      await assertManageable(db, { ...caller, tenantId: account.id }, userId, 'change the sub-account access of');
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('user_tenants').set({ sub_account_access: allow ? 1 : 0 }).where('tenant_id', '=', account.id).where('user_id', '=', userId).execute();
        await audit(trx, caller, account.id, { action: AuditActions.subAccountAccessSet, description: `Sub-account access ${allow ? 'granted to' : 'revoked from'} a user of ${account.name}`, severity: 'High', json: { tenantId: account.id, userId, allowAccess: allow } }, now);
      });
    },
  };
}

function tenantIdUsedBefore(tenantId: string) {
  return new AppError(AdminErrorCodes.tenantIdTaken, 409, `Tenant id ${tenantId} was used by a deleted account and cannot be used again`);
}

function tenantIdTaken(tenantId: string) {
  return new AppError(AdminErrorCodes.tenantIdTaken, 409, `An account with tenant id ${tenantId} already exists`);
}
