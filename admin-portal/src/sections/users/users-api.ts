/** The users section's calls to the identity API (seed 001 section 7 "Team"), through the portal's API client. */
import { AdminPaths, TEAM_PAGE_SIZE, type UserFilterPreset } from '@gatehouse/shared/admin-paths';
import type { TeamRolesResponse, TenantUser, UsersPage } from '@gatehouse/shared/wire';
import { ApiPaths, type GatehouseApi } from '../../contract';

export type UserAction = 'disable' | 'enable' | 'lock' | 'unlock' | 'remove';

/** What the table asks for: the page, the search text, the name order and the filter preset. */
export interface UsersQuery {
  page: number;
  search: string;
  sortDirection: 'asc' | 'desc';
  preset: UserFilterPreset | '';
}

export interface InviteInput {
  email: string;
  name: string;
  phoneNumber?: string;
  roleIds: string[];
}

const STATE_PATHS: Record<Exclude<UserAction, 'remove'>, string> = {
  disable: AdminPaths.tenantUserDisable,
  enable: AdminPaths.tenantUserEnable,
  lock: AdminPaths.tenantUserLock,
  unlock: AdminPaths.tenantUserUnlock,
};

const withUser = (template: string, userId: string) => template.replace('{userId}', encodeURIComponent(userId));

/**
 * Seed 001 section 5: removing every role from a user sends a single empty role id, so the server
 * can tell "no roles" from a body that forgot the field.
 */
export function roleIdsForSave(roleIds: readonly string[]): string[] {
  return roleIds.length > 0 ? [...roleIds] : [''];
}

export function createUsersApi(api: GatehouseApi) {
  return {
    list: (q: UsersQuery) =>
      api.request<UsersPage>('GET', AdminPaths.teamMembers, {
        query: { pageOffset: q.page, pageSize: TEAM_PAGE_SIZE, filter: q.search.trim() || undefined, sortBy: 'name', sortDirection: q.sortDirection, preset: q.preset || undefined },
      }),
    roles: () => api.request<TeamRolesResponse>('GET', AdminPaths.teamRoles),
    // No role ticked: the server grants the tenant's default role.
    invite: ({ roleIds, ...input }: InviteInput) => api.request<{ id: string }>('POST', ApiPaths.inviteUser, { body: roleIds.length > 0 ? { ...input, roleIds } : input }),
    setRoles: (userId: string, roleIds: readonly string[]) => api.request<TenantUser>('PUT', AdminPaths.teamMembers, { body: { id: userId, roleIds: roleIdsForSave(roleIds) } }),
    act: (userId: string, action: UserAction) =>
      action === 'remove' ? api.request<void>('DELETE', withUser(AdminPaths.teamMember, userId)) : api.request<TenantUser>('POST', withUser(STATE_PATHS[action], userId)),
  };
}

export type UsersApi = ReturnType<typeof createUsersApi>;
