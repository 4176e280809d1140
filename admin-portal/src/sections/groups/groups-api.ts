/** The groups section's calls to the identity API (seed 001 section 7 "groups CRUD plus roles and users"). */
import { AdminPaths } from '@gatehouse/shared/admin-paths';
import type { Group, GroupsResponse, Role, UsersPage } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';

export interface GroupInput {
  name: string;
  description: string;
  /** '#rrggbb', or '' for none. */
  color: string;
  roleIds: string[];
}

const withGroup = (template: string, groupId: string) => template.replace('{groupId}', encodeURIComponent(groupId));

/** Ids in `next` but not in `current`, and the other way round. */
export function difference(current: readonly string[], next: readonly string[]): { added: string[]; removed: string[] } {
  return { added: next.filter((id) => !current.includes(id)), removed: current.filter((id) => !next.includes(id)) };
}

export function createGroupsApi(api: GatehouseApi) {
  async function setRelation(path: string, field: 'roleIds' | 'userIds', current: readonly string[], next: readonly string[]) {
    const { added, removed } = difference(current, next);
    if (added.length > 0) await api.request<Group>('POST', path, { body: { [field]: added } });
    if (removed.length > 0) await api.request<Group>('DELETE', path, { body: { [field]: removed } });
  }
  return {
    list: () => api.request<GroupsResponse>('GET', AdminPaths.groups, { query: { _groupsRelations: 'rolesAndUsers' } }),
    roles: () => api.request<Role[]>('GET', AdminPaths.rolesV1),
    /** Users of the account matching a search (first page), for the members dialog. */
    searchUsers: (filter: string) =>
      api.request<UsersPage>('GET', AdminPaths.teamMembers, { query: { pageOffset: 0, pageSize: 20, filter: filter.trim() || undefined, sortBy: 'name', sortDirection: 'asc' } }),
    create: ({ description, color, roleIds, name }: GroupInput) =>
      api.request<Group>('POST', AdminPaths.groups, {
        body: { name, ...(description.trim() ? { description: description.trim() } : {}), ...(color ? { color } : {}), ...(roleIds.length > 0 ? { roleIds } : {}) },
      }),
    /** Name, description and color, then the roles that were added or removed. */
    update: async (group: Group, { name, description, color, roleIds }: GroupInput) => {
      await api.request<Group>('PATCH', withGroup(AdminPaths.group, group.id), { body: { name, description: description.trim() || null, color: color || null } });
      await setRelation(withGroup(AdminPaths.groupRoles, group.id), 'roleIds', group.roles.map((r) => r.id), roleIds);
    },
    setUsers: (group: Group, userIds: readonly string[]) => setRelation(withGroup(AdminPaths.groupUsers, group.id), 'userIds', group.users.map((u) => u.id), userIds),
    remove: (groupId: string) => api.request<void>('DELETE', withGroup(AdminPaths.group, groupId)),
  };
}

export type GroupsApi = ReturnType<typeof createGroupsApi>;
