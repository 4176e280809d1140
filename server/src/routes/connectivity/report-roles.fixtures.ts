/** Custom roles for the reports tests: a role holding exactly some permission keys. */
import { randomBytes } from 'node:crypto';
import type { GatehouseServer } from '../../app';
import { insertRole, listPermissionsByKeys } from '../../db/queries/roles';
import type { TenantAdmin } from '../../test/admin-helpers';

/** A custom role of the admin's tenant holding exactly `keys`; its id. */
export async function customRole(server: GatehouseServer, admin: Pick<TenantAdmin, 'tenantId'>, keys: readonly string[]): Promise<string> {
  const perms = await listPermissionsByKeys(server.db, keys);
  if (perms.length !== keys.length) throw new Error(`customRole: not every key is in the catalogue (${keys.join(', ')})`);
  const id = `role-${randomBytes(6).toString('hex')}`;
  await insertRole(server.db, { id, tenant_id: admin.tenantId, key: id, name: `Custom ${id}`, description: null, is_default: 0, created_at: Date.now() }, perms.map((p) => p.id));
  return id;
}

/** Takes `key` away from the role (as an admin editing the role would). */
export async function revokeFromRole(server: GatehouseServer, roleId: string, key: string): Promise<void> {
  const [perm] = await listPermissionsByKeys(server.db, [key]);
  await server.db.deleteFrom('role_permissions').where('role_id', '=', roleId).where('permission_id', '=', perm!.id).execute();
}
