/**
 * Roles of a tenant and the permission catalogue (seed 001 sections 3 "Role", "Permission", 6, 7
 * "Roles v1 and v2, permissions, categories CRUD").
 *
 * - Roles belong to one tenant; its admins (fe.secure.write.roles) create (v1, or v2 with permissions),
 *   update, delete them, set a role's permissions, add one permission to many roles, and choose the
 *   default role (granted by invitations that name none; one per tenant).
 * - No escalation: an admin only creates, changes or deletes roles whose permissions (before and
 *   after) they hold themselves, so nobody can mint a role above their own powers.
 * - The catalogue (permissions and categories) is shared by every tenant, so only super users (the
 *   vendor) change it; tenant admins read it. The built-in fe.* permissions cannot be deleted.
 */
import {
  AdminErrorCodes,
  ErrorCodes,
  Permissions,
  type CreateCategoryRequest,
  type CreatePermissionRequest,
  type CreateRoleV2Request,
  type Permission,
  type PermissionCategory,
  type Role,
  type TeamRolesResponse,
  type UpdateCategoryRequest,
  type UpdatePermissionRequest,
  type UpdateRoleRequest,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import {
  addRolePermission,
  clearDefaultRoles,
  countPermissionsInCategory,
  deleteCategory,
  deletePermission,
  deleteTenantRole,
  ensureCategories,
  findCategory,
  findPermission,
  findPermissionByKey,
  findPermissionsByIds,
  findTenantRole,
  findTenantRolesByIds,
  insertCategory,
  insertPermission,
  listCategories,
  listPermissions,
  listTenantRoles,
  permissionIdsByRole,
  replaceRolePermissions,
  updateCategory,
  updatePermission,
  updateTenantRole,
  userCountsByRole,
  type CategoryRow,
} from '../../db/queries/admin-roles';
import { findRoleByKey, insertRole, listRolePermissions, type PermissionRow, type RoleRow } from '../../db/queries/roles';
import { isUniqueViolation } from '../../db/unique-violation';
import { AppError, Errors } from '../../errors';
import { assertCovers, type AdminCaller } from './access';
import { AuditActions, recordAudit } from './audit-log';

export interface AdminRoleService {
  list(caller: AdminCaller): Promise<Role[]>;
  teamRoles(caller: AdminCaller): Promise<TeamRolesResponse>;
  create(caller: AdminCaller, body: CreateRoleV2Request): Promise<Role>;
  update(caller: AdminCaller, roleId: string, body: UpdateRoleRequest): Promise<Role>;
  remove(caller: AdminCaller, roleId: string): Promise<void>;
  setPermissions(caller: AdminCaller, roleId: string, permissionIds: string[]): Promise<Role>;
  attachPermission(caller: AdminCaller, permissionId: string, roleIds: string[]): Promise<Role[]>;
  permissions(caller: AdminCaller): Promise<Permission[]>;
  createPermission(caller: AdminCaller, body: CreatePermissionRequest): Promise<Permission>;
  updatePermission(caller: AdminCaller, permissionId: string, body: UpdatePermissionRequest): Promise<Permission>;
  deletePermission(caller: AdminCaller, permissionId: string): Promise<void>;
  categories(caller: AdminCaller): Promise<PermissionCategory[]>;
  createCategory(caller: AdminCaller, body: CreateCategoryRequest): Promise<PermissionCategory>;
  updateCategory(caller: AdminCaller, categoryId: string, body: UpdateCategoryRequest): Promise<PermissionCategory>;
  deleteCategory(caller: AdminCaller, categoryId: string): Promise<void>;
}

const roleNotFound = () => Errors.notFound('Role not found in this account');
const permissionNotFound = () => Errors.notFound('Permission not found');
const categoryNotFound = () => Errors.notFound('Permission category not found');
const BUILT_IN_KEYS: ReadonlySet<string> = new Set(Object.values(Permissions));

/** `account-hierarchy` -> `Account hierarchy`: the name of a category the catalogue names. */
function categoryName(id: string): string {
  const words = id.replace(/[-_.]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : id;
}

/** Gives every category id the permission catalogue uses a row; safe to run on every start. */
export async function ensurePermissionCategories(db: Db, now: number): Promise<void> {
  const ids = [...new Set((await listPermissions(db)).map((p) => p.category_id).filter((id): id is string => Boolean(id)))];
  await ensureCategories(db, ids.map((id) => ({ id, name: categoryName(id), description: null, created_at: now })));
}

function toPermission(p: PermissionRow): Permission {
  return { id: p.id, key: p.key, name: p.name, description: p.description, categoryId: p.category_id };
}

export function createAdminRoleService(deps: { db: Db; clock: Clock }): AdminRoleService {
  const { db, clock } = deps;

  async function present(tenantId: string, roles: RoleRow[]): Promise<Role[]> {
    const ids = roles.map((r) => r.id);
    const [perms, counts] = await Promise.all([permissionIdsByRole(db, ids), userCountsByRole(db, tenantId, ids)]);
    return roles.map((r) => ({
      id: r.id,
      key: r.key,
      name: r.name,
      description: r.description,
      isDefault: r.is_default === 1,
      permissions: perms.get(r.id) ?? [],
      tenantId: r.tenant_id,
      userCount: counts.get(r.id) ?? 0,
      createdAt: new Date(r.created_at).toISOString(),
    }));
  }

  async function oneRole(tenantId: string, roleId: string): Promise<Role> {
    const role = await findTenantRole(db, tenantId, roleId);
    if (!role) throw roleNotFound();
    return (await present(tenantId, [role]))[0]!;
  }

  /** The role of the caller's tenant, whose permissions the caller holds (so they may change it). */
  async function changeableRole(caller: AdminCaller, roleId: string): Promise<RoleRow> {
    const role = await findTenantRole(db, caller.tenantId, roleId);
    if (!role) throw roleNotFound();
    assertCovers(caller, (await listRolePermissions(db, [role.id])).map((p) => p.key), 'You cannot change a role with permissions you do not have');
    return role;
  }

  /** These permission ids, all of them existing, and held by the caller. */
  async function grantablePermissions(caller: AdminCaller, permissionIds: readonly string[]): Promise<PermissionRow[]> {
    const wanted = [...new Set(permissionIds)];
    const found = await findPermissionsByIds(db, wanted);
    const missing = wanted.filter((id) => !found.some((p) => p.id === id));
    if (missing.length > 0) throw Errors.validation(`permissionIds: ${missing.join(', ')} ${missing.length === 1 ? 'is not a permission' : 'are not permissions'}`, { permissionIds: missing });
    assertCovers(caller, found.map((p) => p.key), 'You cannot give a role permissions you do not have');
    return found;
  }

  const keyTaken = (key: string) => new AppError(AdminErrorCodes.roleKeyTaken, 409, `A role with the key ${key} already exists in this account`);

  async function assertKeyFree(tenantId: string, key: string, exceptId?: string): Promise<void> {
    const other = await findRoleByKey(db, tenantId, key);
    if (other && other.id !== exceptId) throw keyTaken(key);
  }

  function vendorOnly(caller: AdminCaller): void {
    if (!caller.superUser) throw new AppError(ErrorCodes.forbidden, 403, 'Only super users can change the permission catalogue, which every account shares');
  }

  async function presentCategories(rows: CategoryRow[]): Promise<PermissionCategory[]> {
    const perms = await listPermissions(db);
    return rows.map((c) => ({ id: c.id, name: c.name, description: c.description, permissionIds: perms.filter((p) => p.category_id === c.id).map((p) => p.id) }));
  }

  return {
    async list(caller) {
      return present(caller.tenantId, await listTenantRoles(db, caller.tenantId));
    },

    async teamRoles(caller) {
      return { roles: await present(caller.tenantId, await listTenantRoles(db, caller.tenantId)), permissions: (await listPermissions(db)).map(toPermission) };
    },

    async create(caller, body) {
      const perms = await grantablePermissions(caller, body.permissionIds ?? []);
      await assertKeyFree(caller.tenantId, body.key);
      const now = clock.now();
      const id = newId();
      try {
        await db.transaction().execute(async (trx) => {
          await insertRole(trx, { id, tenant_id: caller.tenantId, key: body.key, name: body.name, description: body.description ?? null, is_default: body.isDefault ? 1 : 0, created_at: now }, perms.map((p) => p.id));
          if (body.isDefault) await clearDefaultRoles(trx, caller.tenantId, id);
          await recordAudit(trx, caller, { action: AuditActions.roleCreated, description: `Role ${body.key} created`, json: { roleId: id, key: body.key, permissions: perms.map((p) => p.key), isDefault: Boolean(body.isDefault) } }, now);
        });
      } catch (err) {
        // Two creates of one key at once both pass the check: the (tenant_id, key) index decides.
        if (isUniqueViolation(err)) throw keyTaken(body.key);
        throw err;
      }
      return oneRole(caller.tenantId, id);
    },

    async update(caller, roleId, body) {
      const role = await changeableRole(caller, roleId);
      if (body.key !== undefined) await assertKeyFree(caller.tenantId, body.key, role.id);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await updateTenantRole(trx, caller.tenantId, role.id, {
          ...(body.key !== undefined ? { key: body.key } : {}),
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description || null } : {}),
          ...(body.isDefault !== undefined ? { is_default: body.isDefault ? 1 : 0 } : {}),
        });
        if (body.isDefault) await clearDefaultRoles(trx, caller.tenantId, role.id);
        await recordAudit(trx, caller, { action: AuditActions.roleUpdated, description: `Role ${body.key ?? role.key} updated`, json: { roleId: role.id, ...body } }, now);
      });
      return oneRole(caller.tenantId, role.id);
    },

    async remove(caller, roleId) {
      const role = await changeableRole(caller, roleId);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        // Users and groups holding it lose it with the row (foreign keys cascade).
        await deleteTenantRole(trx, caller.tenantId, role.id);
        await recordAudit(trx, caller, { action: AuditActions.roleDeleted, description: `Role ${role.key} deleted`, severity: 'High', json: { roleId: role.id, key: role.key, name: role.name } }, now);
      });
    },

    async setPermissions(caller, roleId, permissionIds) {
      const role = await changeableRole(caller, roleId);
      const perms = await grantablePermissions(caller, permissionIds);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await replaceRolePermissions(trx, role.id, perms.map((p) => p.id));
        await recordAudit(trx, caller, { action: AuditActions.rolePermissionsSet, description: `Permissions of role ${role.key} set`, json: { roleId: role.id, permissions: perms.map((p) => p.key) } }, now);
      });
      return oneRole(caller.tenantId, role.id);
    },

    async attachPermission(caller, permissionId, roleIds) {
      const permission = await findPermission(db, permissionId);
      if (!permission) throw permissionNotFound();
      assertCovers(caller, [permission.key], 'You cannot give a role permissions you do not have');
      const wanted = [...new Set(roleIds)];
      const roles = await findTenantRolesByIds(db, caller.tenantId, wanted);
      // A role of another tenant is as unknown as one that never existed.
      if (roles.length !== wanted.length) throw roleNotFound();
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        for (const role of roles) await addRolePermission(trx, role.id, permission.id);
        await recordAudit(trx, caller, { action: AuditActions.permissionAttachedToRoles, description: `Permission ${permission.key} added to ${roles.map((r) => r.key).join(', ')}`, json: { permissionId, roleIds: wanted } }, now);
      });
      return present(caller.tenantId, await findTenantRolesByIds(db, caller.tenantId, wanted));
    },

    async permissions() {
      return (await listPermissions(db)).map(toPermission);
    },

    async createPermission(caller, body) {
      vendorOnly(caller);
      if (await findPermissionByKey(db, body.key)) throw new AppError(AdminErrorCodes.permissionNotChangeable, 409, `A permission with the key ${body.key} already exists`);
      if (body.categoryId && !(await findCategory(db, body.categoryId))) throw Errors.validation('categoryId: no such permission category');
      const row = { id: newId(), key: body.key, name: body.name, description: body.description ?? null, category_id: body.categoryId ?? null };
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await insertPermission(trx, row);
        await recordAudit(trx, caller, { action: AuditActions.permissionCreated, description: `Permission ${body.key} created`, json: { permissionId: row.id, key: body.key } }, now);
      });
      return toPermission(row);
    },

    async updatePermission(caller, permissionId, body) {
      vendorOnly(caller);
      const permission = await findPermission(db, permissionId);
      if (!permission) throw permissionNotFound();
      if (body.categoryId && !(await findCategory(db, body.categoryId))) throw Errors.validation('categoryId: no such permission category');
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await updatePermission(trx, permission.id, {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description || null } : {}),
          ...(body.categoryId !== undefined ? { category_id: body.categoryId } : {}),
        });
        await recordAudit(trx, caller, { action: AuditActions.permissionUpdated, description: `Permission ${permission.key} updated`, json: { permissionId, ...body } }, now);
      });
      return toPermission((await findPermission(db, permission.id))!);
    },

    async deletePermission(caller, permissionId) {
      vendorOnly(caller);
      const permission = await findPermission(db, permissionId);
      if (!permission) throw permissionNotFound();
      if (BUILT_IN_KEYS.has(permission.key)) throw new AppError(AdminErrorCodes.permissionNotChangeable, 400, `${permission.key} is a built-in permission and cannot be deleted`);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await deletePermission(trx, permission.id);
        await recordAudit(trx, caller, { action: AuditActions.permissionDeleted, description: `Permission ${permission.key} deleted`, severity: 'High', json: { permissionId, key: permission.key } }, now);
      });
    },

    async categories() {
      return presentCategories(await listCategories(db));
    },

    async createCategory(caller, body) {
      vendorOnly(caller);
      const now = clock.now();
      const row = { id: newId(), name: body.name, description: body.description ?? null, created_at: now };
      await db.transaction().execute(async (trx) => {
        await insertCategory(trx, row);
        await recordAudit(trx, caller, { action: AuditActions.categoryCreated, description: `Permission category ${body.name} created`, json: { categoryId: row.id } }, now);
      });
      return (await presentCategories([row]))[0]!;
    },

    async updateCategory(caller, categoryId, body) {
      vendorOnly(caller);
      const category = await findCategory(db, categoryId);
      if (!category) throw categoryNotFound();
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await updateCategory(trx, category.id, { ...(body.name !== undefined ? { name: body.name } : {}), ...(body.description !== undefined ? { description: body.description || null } : {}) });
        await recordAudit(trx, caller, { action: AuditActions.categoryUpdated, description: `Permission category ${body.name ?? category.name} updated`, json: { categoryId, ...body } }, now);
      });
      return (await presentCategories([(await findCategory(db, category.id))!]))[0]!;
    },

    async deleteCategory(caller, categoryId) {
      vendorOnly(caller);
      const category = await findCategory(db, categoryId);
      if (!category) throw categoryNotFound();
      if ((await countPermissionsInCategory(db, category.id)) > 0) throw new AppError(AdminErrorCodes.categoryInUse, 409, 'This category still has permissions; move or delete them first');
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await deleteCategory(trx, category.id);
        await recordAudit(trx, caller, { action: AuditActions.categoryDeleted, description: `Permission category ${category.name} deleted`, severity: 'High', json: { categoryId } }, now);
      });
    },
  };
}
