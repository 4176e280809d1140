/**
 * Groups of a tenant (seed 001 sections 3 "Group", 6 "Groups hold roles and users", 7 "groups CRUD
 * plus roles and users, bulkGet"): name, description, color, metadata, roles and users. A group's
 * members hold its roles in the tenant (services/admin/tenants.ts loadAuthorization adds them).
 *
 * - Groups, their roles and their users are all of the caller's tenant; anything else is "not found".
 * - No escalation: adding a role to a group, or a user to a group with roles, needs every permission
 *   those roles carry; so does removing them.
 * - No demotion of a superior (review L4): removing users needs each of them to be manageable by
 *   the caller (assertManageable: not the caller, no super user, no permission the caller lacks);
 *   taking a group's roles away (removing roles, deleting the group) needs that of every member but
 *   the caller, since it demotes them all just the same. Adding users only gives them roles the
 *   caller holds, so it keeps just the self rule: nobody changes their own group memberships.
 * - A group an identity provider manages (`managedBy` set, e.g. by SCIM) is read-only here.
 */
import { AdminErrorCodes, type CreateGroupRequest, type Group, type UpdateGroupRequest } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { findTenantRolesByIds } from '../../db/queries/admin-roles';
import {
  addGroupRoles,
  addGroupUsers,
  deleteGroup,
  findGroup,
  findGroupByName,
  insertGroup,
  listGroups,
  removeGroupRoles,
  removeGroupUsers,
  rolesByGroup,
  tenantMemberIds,
  updateGroup,
  usersByGroup,
  type GroupRow,
} from '../../db/queries/groups';
import { listRolePermissions } from '../../db/queries/roles';
import { isUniqueViolation } from '../../db/unique-violation';
import { AppError, Errors } from '../../errors';
import { assertCovers, assertManageable, type AdminCaller } from './access';
import { AuditActions, recordAudit } from './audit-log';

/** Which lists a group answer fills; the groups list fills none unless asked (`_groupsRelations`). */
export type GroupRelations = 'roles' | 'users' | 'rolesAndUsers' | 'none';

export interface AdminGroupService {
  list(caller: AdminCaller, relations: GroupRelations | undefined): Promise<Group[]>;
  get(caller: AdminCaller, groupId: string): Promise<Group>;
  bulkGet(caller: AdminCaller, groupIds: string[]): Promise<Group[]>;
  create(caller: AdminCaller, body: CreateGroupRequest): Promise<Group>;
  update(caller: AdminCaller, groupId: string, body: UpdateGroupRequest): Promise<Group>;
  remove(caller: AdminCaller, groupId: string): Promise<void>;
  addRoles(caller: AdminCaller, groupId: string, roleIds: string[]): Promise<Group>;
  removeRoles(caller: AdminCaller, groupId: string, roleIds: string[]): Promise<Group>;
  addUsers(caller: AdminCaller, groupId: string, userIds: string[]): Promise<Group>;
  removeUsers(caller: AdminCaller, groupId: string, userIds: string[]): Promise<Group>;
}

const groupNotFound = () => Errors.notFound('Group not found in this account');

export function createAdminGroupService(deps: { db: Db; clock: Clock }): AdminGroupService {
  const { db, clock } = deps;

  async function present(groups: GroupRow[], relations: GroupRelations = 'rolesAndUsers'): Promise<Group[]> {
    const ids = groups.map((g) => g.id);
    const withRoles = relations === 'roles' || relations === 'rolesAndUsers';
    const withUsers = relations === 'users' || relations === 'rolesAndUsers';
    const [roles, users] = await Promise.all([withRoles ? rolesByGroup(db, ids) : new Map(), withUsers ? usersByGroup(db, ids) : new Map()]);
    return groups.map((g) => ({
      id: g.id,
      name: g.name,
      description: g.description,
      color: g.color,
      metadata: g.metadata,
      managedBy: g.managed_by,
      roles: (roles.get(g.id) ?? []).map((r: { id: string; key: string; name: string; description: string | null }) => ({ id: r.id, key: r.key, name: r.name, ...(r.description ? { description: r.description } : {}) })),
      users: users.get(g.id) ?? [],
      createdAt: new Date(g.created_at).toISOString(),
      updatedAt: new Date(g.updated_at).toISOString(),
    }));
  }

  async function one(tenantId: string, groupId: string): Promise<Group> {
    const group = await findGroup(db, tenantId, groupId);
    if (!group) throw groupNotFound();
    return (await present([group]))[0]!;
  }

  /** A group of the caller's tenant that this product may change. */
  async function writable(caller: AdminCaller, groupId: string): Promise<GroupRow> {
    const group = await findGroup(db, caller.tenantId, groupId);
    if (!group) throw groupNotFound();
    if (group.managed_by) throw new AppError(AdminErrorCodes.groupManagedByProvider, 403, `This group is managed by ${group.managed_by} and is read-only here`);
    return group;
  }

  const nameTaken = (name: string) => new AppError(AdminErrorCodes.groupNameTaken, 409, `A group named ${name} already exists in this account`);

  async function assertNameFree(tenantId: string, name: string, exceptId?: string): Promise<void> {
    const other = await findGroupByName(db, tenantId, name);
    if (other && other.id !== exceptId) throw nameTaken(name);
  }

  /** These ids, all of them roles of the tenant (else 404, like any object of another tenant). */
  async function tenantRoles(caller: AdminCaller, roleIds: readonly string[]) {
    const wanted = [...new Set(roleIds)];
    const roles = await findTenantRolesByIds(db, caller.tenantId, wanted);
    if (roles.length !== wanted.length) throw Errors.notFound('Role not found in this account');
    return roles;
  }

  /** assertManageable for each of these users: what removing them from a group needs. */
  async function assertUsersManageable(caller: AdminCaller, userIds: readonly string[]): Promise<void> {
    for (const id of userIds) await assertManageable(db, caller, id, 'change the group memberships of');
  }

  /** Taking the group's roles away from all its members: none of them may be above the caller. */
  async function assertMembersManageable(caller: AdminCaller, groupId: string): Promise<void> {
    const members = (await usersByGroup(db, [groupId])).get(groupId) ?? [];
    for (const m of members) if (m.id !== caller.userId) await assertManageable(db, caller, m.id, 'take group roles away from');
  }

  async function assertCoversRoles(caller: AdminCaller, roleIds: readonly string[], message: string): Promise<void> {
    assertCovers(caller, (await listRolePermissions(db, roleIds)).map((p) => p.key), message);
  }

  return {
    async list(caller, relations) {
      return present(await listGroups(db, caller.tenantId), relations ?? 'none');
    },

    get: (caller, groupId) => one(caller.tenantId, groupId),

    async bulkGet(caller, groupIds) {
      // Ids of other tenants' groups are simply not in the answer.
      return present(await listGroups(db, caller.tenantId, [...new Set(groupIds)]));
    },

    async create(caller, body) {
      await assertNameFree(caller.tenantId, body.name);
      const roles = body.roleIds ? await tenantRoles(caller, body.roleIds) : [];
      await assertCoversRoles(caller, roles.map((r) => r.id), 'You cannot give a group roles with permissions you do not have');
      const now = clock.now();
      const id = newId();
      try {
        await db.transaction().execute(async (trx) => {
          await insertGroup(trx, { id, tenant_id: caller.tenantId, name: body.name, description: body.description ?? null, color: body.color ?? null, metadata: body.metadata ?? null, managed_by: null, created_at: now, updated_at: now });
          await addGroupRoles(trx, id, roles.map((r) => r.id));
          await recordAudit(trx, caller, { action: AuditActions.groupCreated, description: `Group ${body.name} created`, json: { groupId: id, roleIds: roles.map((r) => r.id) } }, now);
        });
      } catch (err) {
        // Two creates of one name at once both pass the check: the (tenant_id, name) index decides.
        if (isUniqueViolation(err)) throw nameTaken(body.name);
        throw err;
      }
      return one(caller.tenantId, id);
    },

    async update(caller, groupId, body) {
      const group = await writable(caller, groupId);
      if (body.name !== undefined) await assertNameFree(caller.tenantId, body.name, group.id);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await updateGroup(trx, caller.tenantId, group.id, {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description || null } : {}),
          ...(body.color !== undefined ? { color: body.color } : {}),
          ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
          updated_at: now,
        });
        await recordAudit(trx, caller, { action: AuditActions.groupUpdated, description: `Group ${body.name ?? group.name} updated`, json: { groupId: group.id, ...body } }, now);
      });
      return one(caller.tenantId, group.id);
    },

    async remove(caller, groupId) {
      const group = await writable(caller, groupId);
      // Its members lose the group's roles: only someone holding those may take them away.
      await assertCoversRoles(caller, [...((await rolesByGroup(db, [group.id])).get(group.id) ?? [])].map((r) => r.id), 'You cannot delete a group whose roles carry permissions you do not have');
      await assertMembersManageable(caller, group.id);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await deleteGroup(trx, caller.tenantId, group.id);
        await recordAudit(trx, caller, { action: AuditActions.groupDeleted, description: `Group ${group.name} deleted`, severity: 'High', json: { groupId: group.id, name: group.name } }, now);
      });
    },

    async addRoles(caller, groupId, roleIds) {
      const group = await writable(caller, groupId);
      const roles = await tenantRoles(caller, roleIds);
      await assertCoversRoles(caller, roles.map((r) => r.id), 'You cannot give a group roles with permissions you do not have');
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await addGroupRoles(trx, group.id, roles.map((r) => r.id));
        await updateGroup(trx, caller.tenantId, group.id, { updated_at: now });
        await recordAudit(trx, caller, { action: AuditActions.groupRolesAdded, description: `Roles ${roles.map((r) => r.key).join(', ')} added to group ${group.name}`, json: { groupId: group.id, roleIds: roles.map((r) => r.id) } }, now);
      });
      return one(caller.tenantId, group.id);
    },

    async removeRoles(caller, groupId, roleIds) {
      const group = await writable(caller, groupId);
      const roles = await tenantRoles(caller, roleIds);
      await assertCoversRoles(caller, roles.map((r) => r.id), 'You cannot take away roles with permissions you do not have');
      await assertMembersManageable(caller, group.id);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await removeGroupRoles(trx, group.id, roles.map((r) => r.id));
        await updateGroup(trx, caller.tenantId, group.id, { updated_at: now });
        await recordAudit(trx, caller, { action: AuditActions.groupRolesRemoved, description: `Roles ${roles.map((r) => r.key).join(', ')} removed from group ${group.name}`, json: { groupId: group.id, roleIds: roles.map((r) => r.id) } }, now);
      });
      return one(caller.tenantId, group.id);
    },

    async addUsers(caller, groupId, userIds) {
      const group = await writable(caller, groupId);
      const wanted = [...new Set(userIds)];
      // Users of other tenants are as unknown as users that never existed.
      if ((await tenantMemberIds(db, caller.tenantId, wanted)).length !== wanted.length) throw Errors.notFound('User not found in this account');
      await assertCoversRoles(caller, ((await rolesByGroup(db, [group.id])).get(group.id) ?? []).map((r) => r.id), 'You cannot add users to a group whose roles carry permissions you do not have');
      if (wanted.includes(caller.userId)) throw new AppError(AdminErrorCodes.cannotManageSelf, 400, 'You cannot change the group memberships of yourself');
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await addGroupUsers(trx, group.id, wanted, now);
        await updateGroup(trx, caller.tenantId, group.id, { updated_at: now });
        await recordAudit(trx, caller, { action: AuditActions.groupUsersAdded, description: `${wanted.length} ${wanted.length === 1 ? 'user' : 'users'} added to group ${group.name}`, json: { groupId: group.id, userIds: wanted } }, now);
      });
      return one(caller.tenantId, group.id);
    },

    async removeUsers(caller, groupId, userIds) {
      const group = await writable(caller, groupId);
      const wanted = [...new Set(userIds)];
      if ((await tenantMemberIds(db, caller.tenantId, wanted)).length !== wanted.length) throw Errors.notFound('User not found in this account');
      await assertCoversRoles(caller, ((await rolesByGroup(db, [group.id])).get(group.id) ?? []).map((r) => r.id), 'You cannot remove users from a group whose roles carry permissions you do not have');
      await assertUsersManageable(caller, wanted);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await removeGroupUsers(trx, group.id, wanted);
        await updateGroup(trx, caller.tenantId, group.id, { updated_at: now });
        await recordAudit(trx, caller, { action: AuditActions.groupUsersRemoved, description: `${wanted.length} ${wanted.length === 1 ? 'user' : 'users'} removed from group ${group.name}`, json: { groupId: group.id, userIds: wanted } }, now);
      });
      return one(caller.tenantId, group.id);
    },
  };
}
