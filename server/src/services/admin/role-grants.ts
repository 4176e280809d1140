/**
 * What a role grants (its summary and its permissions), read for every access token and every
 * authenticated read. Roles change rarely and are shared by a tenant's users, so each server keeps
 * them in a table cache (services/platform/table-cache.ts, issue 17): a change to roles, their
 * permissions or the permission catalogue made through this process shows at once, one made through
 * another process within 1,000 ms. Which roles a user holds is always read fresh.
 */
import type { PermissionSummary, RoleSummary } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { listRoleGrantRows, type RoleGrantRow } from '../../db/queries/roles';
import { createTableCache, type TableCache } from '../platform/table-cache';

/** A role and the permissions it grants, by permission key. */
export interface RoleGrant {
  role: RoleSummary;
  permissions: PermissionSummary[];
}

/** How many roles one process keeps (each tenant has its own copies of the built-in roles). */
const ROLES_KEPT = 20_000;

const caches = new WeakMap<Db, TableCache<string, RoleGrant | null>>();

/** Keeps `db`'s role grants in a cache for the server's life (app.ts, once per server). */
export function cacheRoleGrants(db: Db, clock: Clock): void {
  caches.set(db, createTableCache({ db, clock, max: ROLES_KEPT, tables: ['roles', 'role_permissions', 'permissions'] }));
}

/** Groups rows (ordered by permission key) by role, keeping that order. */
function grantsOf(rows: readonly RoleGrantRow[]): Map<string, RoleGrant> {
  const grants = new Map<string, RoleGrant>();
  for (const row of rows) {
    let grant = grants.get(row.role_id);
    if (!grant) {
      grant = { role: { id: row.role_id, key: row.role_key, name: row.role_name, ...(row.role_description ? { description: row.role_description } : {}) }, permissions: [] };
      grants.set(row.role_id, grant);
    }
    if (row.permission_id !== null) {
      grant.permissions.push({ id: row.permission_id, key: row.permission_key!, name: row.permission_name!, ...(row.permission_category_id ? { categoryId: row.permission_category_id } : {}) });
    }
  }
  return grants;
}

/** A cached grant is shared by every caller: nothing in it may change. */
function frozen(grant: RoleGrant | undefined): RoleGrant | null {
  if (!grant) return null;
  for (const p of grant.permissions) Object.freeze(p);
  Object.freeze(grant.permissions);
  Object.freeze(grant.role);
  return grant;
}

/**
 * The grants of `roleIds` (a role that no longer exists is left out): from `db`'s cache when it has
 * one, else read in one statement (e.g. inside a transaction).
 */
export async function roleGrants(db: Db, roleIds: readonly string[]): Promise<RoleGrant[]> {
  const cache = caches.get(db);
  if (!cache) {
    const grants = grantsOf(await listRoleGrantRows(db, roleIds));
    return roleIds.flatMap((id) => grants.get(id) ?? []);
  }
  const found = await Promise.all(roleIds.map((id) => cache.get(id, async () => frozen(grantsOf(await listRoleGrantRows(db, [id])).get(id)))));
  return found.filter((g): g is RoleGrant => g !== null);
}
