/** Wire schemas of groups (seed 001 sections 3 "Group", 6, 7): name, description, color, roles and users. */
import { z } from 'zod';
import { RoleSummary } from '../users/users';

const id = z.string().trim().min(1).max(64);
const color = z.string().trim().regex(/^#[0-9a-fA-F]{6}$/, 'color must be a hex color such as #3366ff');

export const GroupMember = z.object({ id: z.string(), name: z.string(), email: z.string().nullable() });
export type GroupMember = z.infer<typeof GroupMember>;

/** A group of the tenant. `managedBy` is set when an identity provider owns it (read-only here). */
export const Group = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  color: z.string().nullable(),
  metadata: z.string().nullable(),
  managedBy: z.string().nullable(),
  roles: z.array(RoleSummary),
  users: z.array(GroupMember),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Group = z.infer<typeof Group>;
export const GroupsResponse = z.object({ groups: z.array(Group) });
export type GroupsResponse = z.infer<typeof GroupsResponse>;

/** GET groups: which relations to fill (`roles`, `users`, or both); without it both lists are empty. */
export const GroupsQuery = z.object({ _groupsRelations: z.enum(['roles', 'users', 'rolesAndUsers']).optional(), tenantId: z.string().max(64).optional() });

export const CreateGroupRequest = z
  .object({
    name: z.string().trim().min(1).max(100),
    description: z.string().trim().max(500).optional(),
    color: color.optional(),
    metadata: z.string().max(8192).optional(),
    roleIds: z.array(id).max(100).optional(),
  })
  .strict();
export type CreateGroupRequest = z.infer<typeof CreateGroupRequest>;
export const UpdateGroupRequest = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    description: z.string().trim().max(500).nullable().optional(),
    color: color.nullable().optional(),
    metadata: z.string().max(8192).nullable().optional(),
  })
  .strict();
export type UpdateGroupRequest = z.infer<typeof UpdateGroupRequest>;
export const GroupRolesRequest = z.object({ roleIds: z.array(id).min(1).max(100) }).strict();
export type GroupRolesRequest = z.infer<typeof GroupRolesRequest>;
export const GroupUsersRequest = z.object({ userIds: z.array(id).min(1).max(500) }).strict();
export type GroupUsersRequest = z.infer<typeof GroupUsersRequest>;
export const GroupsBulkGetRequest = z.object({ groupsIds: z.array(id).min(1).max(100) }).strict();
export type GroupsBulkGetRequest = z.infer<typeof GroupsBulkGetRequest>;
export const GroupIdParam = z.object({ groupId: id });
