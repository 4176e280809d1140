/** Wire schemas of roles, permissions and permission categories (seed 001 sections 3, 6, 7). */
import { z } from 'zod';

const id = z.string().trim().min(1).max(64);
const name = z.string().trim().min(1).max(200);
const description = z.string().trim().max(500);
const roleKey = z.string().trim().min(1).max(100).regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, 'key may hold letters, digits and . _ : - (starting with a letter or digit)');
const permissionKey = z.string().trim().min(1).max(200).regex(/^[A-Za-z0-9][A-Za-z0-9._*-]*$/, 'key may hold letters, digits and . _ - * (starting with a letter or digit)');

/** A role of the tenant; `permissions` are permission ids. */
export const Role = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  isDefault: z.boolean(),
  permissions: z.array(z.string()),
  tenantId: z.string(),
  /** Users holding the role directly. */
  userCount: z.number().int(),
  createdAt: z.string(),
});
export type Role = z.infer<typeof Role>;

export const Permission = z.object({ id: z.string(), key: z.string(), name: z.string(), description: z.string().nullable(), categoryId: z.string().nullable() });
export type Permission = z.infer<typeof Permission>;

export const PermissionCategory = z.object({ id: z.string(), name: z.string(), description: z.string().nullable(), permissionIds: z.array(z.string()) });
export type PermissionCategory = z.infer<typeof PermissionCategory>;

/** POST roles v1. A default role is what invitations grant when they name none; making one default unsets the others. */
export const CreateRoleRequest = z.object({ key: roleKey, name, description: description.optional(), isDefault: z.boolean().optional() }).strict();
export type CreateRoleRequest = z.infer<typeof CreateRoleRequest>;
/** POST roles v2: v1 plus the role's permissions. */
export const CreateRoleV2Request = CreateRoleRequest.extend({ permissionIds: z.array(id).max(200).default([]) }).strict();
export type CreateRoleV2Request = z.input<typeof CreateRoleV2Request>;
export const UpdateRoleRequest = z
  .object({ key: roleKey.optional(), name: name.optional(), description: description.nullable().optional(), isDefault: z.boolean().optional() })
  .strict();
export type UpdateRoleRequest = z.infer<typeof UpdateRoleRequest>;
/** PUT role permissions: the role's permissions become exactly these. */
export const SetRolePermissionsRequest = z.object({ permissionIds: z.array(id).max(200) }).strict();
export type SetRolePermissionsRequest = z.infer<typeof SetRolePermissionsRequest>;
/** PUT permission roles: adds one permission to each of these roles of the tenant. */
export const AttachPermissionToRolesRequest = z.object({ roleIds: z.array(id).min(1).max(100) }).strict();
export type AttachPermissionToRolesRequest = z.infer<typeof AttachPermissionToRolesRequest>;

export const CreatePermissionRequest = z.object({ key: permissionKey, name, description: description.optional(), categoryId: id.optional() }).strict();
export type CreatePermissionRequest = z.infer<typeof CreatePermissionRequest>;
export const UpdatePermissionRequest = z.object({ name: name.optional(), description: description.nullable().optional(), categoryId: id.nullable().optional() }).strict();
export type UpdatePermissionRequest = z.infer<typeof UpdatePermissionRequest>;
export const CreateCategoryRequest = z.object({ name, description: description.optional() }).strict();
export type CreateCategoryRequest = z.infer<typeof CreateCategoryRequest>;
export const UpdateCategoryRequest = z.object({ name: name.optional(), description: description.nullable().optional() }).strict();
export type UpdateCategoryRequest = z.infer<typeof UpdateCategoryRequest>;

/** GET /team/resources/roles/v1: what the team's role dialogs offer. */
export const TeamRolesResponse = z.object({ roles: z.array(Role), permissions: z.array(Permission) });
export type TeamRolesResponse = z.infer<typeof TeamRolesResponse>;

export const RoleIdParam = z.object({ roleId: id });
export const PermissionIdParam = z.object({ permissionId: id });
export const CategoryIdParam = z.object({ categoryId: id });
