/** The roles section's calls to the identity API (seed 001 section 7 "Roles v1 and v2, permissions, categories"). */
import { AdminPaths } from '@gatehouse/shared/admin-paths';
import type { Permission, PermissionCategory, Role } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';

export interface RoleInput {
  key: string;
  name: string;
  description: string;
  isDefault: boolean;
  permissionIds: string[];
}

const withId = (template: string, name: string, value: string) => template.replace(`{${name}}`, encodeURIComponent(value));

export function createRolesApi(api: GatehouseApi) {
  return {
    list: () => api.request<Role[]>('GET', AdminPaths.rolesV1),
    permissions: () => api.request<Permission[]>('GET', AdminPaths.permissions),
    categories: () => api.request<PermissionCategory[]>('GET', AdminPaths.permissionCategories),
    /** Roles v2: the role and its permissions in one call. */
    create: ({ description, ...input }: RoleInput) =>
      api.request<Role>('POST', AdminPaths.rolesV2, { body: { ...input, ...(description.trim() ? { description: description.trim() } : {}) } }),
    /** Key, name, description and default flag, then the permissions when they changed. */
    update: async (role: Role, { permissionIds, description, ...input }: RoleInput) => {
      let saved = await api.request<Role>('PATCH', withId(AdminPaths.role, 'roleId', role.id), { body: { ...input, description: description.trim() || null } });
      const same = permissionIds.length === role.permissions.length && permissionIds.every((id) => role.permissions.includes(id));
      if (!same) saved = await api.request<Role>('PUT', withId(AdminPaths.rolePermissions, 'roleId', role.id), { body: { permissionIds } });
      return saved;
    },
    remove: (roleId: string) => api.request<void>('DELETE', withId(AdminPaths.role, 'roleId', roleId)),
    /** One permission added to many roles at once. */
    attachPermission: (permissionId: string, roleIds: string[]) =>
      api.request<Role[]>('PUT', withId(AdminPaths.permissionRoles, 'permissionId', permissionId), { body: { roleIds } }),
  };
}

export type RolesApi = ReturnType<typeof createRolesApi>;
