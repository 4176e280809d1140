import { BuiltInRoles, Permissions, type PermissionSummary, type RoleSummary, type TenantSummary } from '@gatehouse/shared/wire';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { ensurePermissions, insertRole, listHeldRoleIds, listPermissionsByKeys } from '../../db/queries/roles';
import { roleGrants } from './role-grants';
import { insertTenant, type TenantRow } from '../../db/queries/tenants';

/** Turns `fe.secure.read.users` into `Read users` for the catalogue's display name. */
function permissionName(key: string): string {
  const parts = key.split('.');
  const verb = parts.find((p) => p === 'read' || p === 'write') ?? '';
  const noun = parts[parts.length - 1] === '*' || parts[parts.length - 1] === verb ? parts[1] ?? key : parts[parts.length - 1] ?? key;
  const words = noun.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/-/g, ' ').toLowerCase();
  return verb ? `${verb[0]!.toUpperCase()}${verb.slice(1)} ${words}` : words;
}

/** Seeds the permission catalogue from the shared keys; safe to run on every start. */
export async function ensurePermissionCatalogue(db: Db): Promise<void> {
  await ensurePermissions(
    db,
    Object.values(Permissions).map((key) => ({ id: newId(), key, name: permissionName(key), description: null, category_id: key.split('.')[1] ?? null })),
  );
}

/**
 * Creates a tenant with the built-in roles; returns the tenant id and role ids by key. `opts` places a
 * sub-account (migration 021): its chosen id, parent, metadata and type.
 */
export async function createTenantWithRoles(
  db: Db,
  name: string,
  now: number,
  opts: { id?: string; parentTenantId?: string; metadata?: string | null; tenantType?: string } = {},
): Promise<{ tenantId: string; roleIds: Record<string, string> }> {
  const tenantId = opts.id ?? newId();
  await insertTenant(db, {
    id: tenantId,
    name,
    is_reseller: 0,
    application_url: null,
    metadata: opts.metadata ?? null,
    created_at: now,
    ...(opts.parentTenantId ? { parent_tenant_id: opts.parentTenantId } : {}),
    ...(opts.tenantType ? { tenant_type: opts.tenantType } : {}),
  });
  const roleIds: Record<string, string> = {};
  for (const role of Object.values(BuiltInRoles)) {
    const perms = await listPermissionsByKeys(db, role.permissions);
    const id = newId();
    roleIds[role.key] = id;
    await insertRole(
      db,
      { id, tenant_id: tenantId, key: role.key, name: role.name, description: role.description, is_default: role.key === 'ReadOnly' ? 1 : 0, created_at: now },
      perms.map((p) => p.id),
    );
  }
  return { tenantId, roleIds };
}

export interface Authorization {
  roles: RoleSummary[];
  permissions: PermissionSummary[];
}

/**
 * A user's roles (their own and their groups', migration 016) and the permissions they grant, in one
 * tenant: roles by key, permissions by key, each once. `heldRoleIds`: the role ids when the caller
 * has just read them (listHeldRoleIds' answer), so they are not read again.
 */
export async function loadAuthorization(db: Db, userId: string, tenantId: string, heldRoleIds?: readonly string[]): Promise<Authorization> {
  const grants = await roleGrants(db, heldRoleIds ?? (await listHeldRoleIds(db, userId, tenantId)));
  const permissions = new Map<string, PermissionSummary>();
  for (const grant of grants) for (const p of grant.permissions) if (!permissions.has(p.id)) permissions.set(p.id, p);
  const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  return { roles: grants.map((g) => g.role).sort(byKey), permissions: [...permissions.values()].sort(byKey) };
}

export function toTenantSummary(t: TenantRow): TenantSummary {
  return { id: t.id, tenantId: t.id, name: t.name, createdAt: new Date(t.created_at).toISOString(), isReseller: t.is_reseller === 1 };
}
