/** The users section's calls to the identity API (seed 001 section 7 "Team"), through the portal's API client. */
import { AdminPaths, ApplicationPaths, TEAM_PAGE_SIZE, type UserFilterPreset } from '@gatehouse/shared/admin-paths';
import type { ApplicationData, BulkInviteResponse, ImpersonationResponse, InviteLink, TeamRolesResponse, TenantUser, UserApplicationIds, UsersPage } from '@gatehouse/shared/wire';
import { ApiPaths, type GatehouseApi } from '../../contract';

export type UserAction = 'disable' | 'enable' | 'lock' | 'unlock' | 'remove';

/** What the table asks for: the page, the search text, the name order and the filter preset. */
export interface UsersQuery {
  /** Zero-based: the page shown, and the offset asked for when there is no cursor. */
  page: number;
  /**
   * The nextCursor or prevCursor of the page shown before, when Next or Previous leads here: the
   * server then reads the page by keyset from that row, as fast on page 2,500 as on page one, where
   * an offset walks every row before it (issue 17). None for page one, or after a search, a preset
   * or an order was chosen.
   */
  cursor?: string;
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
        query: {
          ...(q.cursor ? { cursor: q.cursor } : { pageOffset: q.page }),
          pageSize: TEAM_PAGE_SIZE,
          filter: q.search.trim() || undefined,
          sortBy: 'name',
          sortDirection: q.sortDirection,
          preset: q.preset || undefined,
        },
      }),
    roles: () => api.request<TeamRolesResponse>('GET', AdminPaths.teamRoles),
    // No role ticked: the server grants the tenant's default role.
    invite: ({ roleIds, ...input }: InviteInput) => api.request<{ id: string }>('POST', ApiPaths.inviteUser, { body: roleIds.length > 0 ? { ...input, roleIds } : input }),
    setRoles: (userId: string, roleIds: readonly string[]) => api.request<TenantUser>('PUT', AdminPaths.teamMembers, { body: { id: userId, roleIds: roleIdsForSave(roleIds) } }),
    act: (userId: string, action: UserAction) =>
      action === 'remove' ? api.request<void>('DELETE', withUser(AdminPaths.teamMember, userId)) : api.request<TenantUser>('POST', withUser(STATE_PATHS[action], userId)),
    /** The tenant's invite link, or null when it has none (the server answers 404). */
    inviteLink: async (): Promise<InviteLink | null> => {
      try {
        return await api.request<InviteLink>('GET', AdminPaths.inviteLink);
      } catch (thrown) {
        if (thrown && typeof thrown === 'object' && 'statusCode' in thrown && thrown.statusCode === 404) return null;
        throw thrown;
      }
    },
    createInviteLink: (expiresInMinutes: number) => api.request<InviteLink>('POST', AdminPaths.inviteLink, { body: { expiresInMinutes } }),
    updateInviteLink: (expiresInMinutes: number) => api.request<InviteLink>('PATCH', AdminPaths.inviteLink, { body: { expiresInMinutes } }),
    deleteInviteLink: () => api.request<void>('DELETE', AdminPaths.inviteLink),
    bulkInvite: (emails: readonly string[], roleIds: readonly string[]) =>
      api.request<BulkInviteResponse>('POST', AdminPaths.bulkInvite, { body: roleIds.length > 0 ? { emails: [...emails], roleIds: [...roleIds] } : { emails: [...emails] } }),
    resendActivation: (userId: string) => api.request<void>('POST', withUser(AdminPaths.teamResendActivation, userId)),
    /** Seconds from now, or null: permanent again. */
    setTemporary: (userId: string, expirationInSeconds: number | null) =>
      expirationInSeconds === null
        ? api.request<TenantUser>('DELETE', withUser(AdminPaths.temporaryUser, userId))
        : api.request<TenantUser>('PUT', withUser(AdminPaths.temporaryUser, userId), { body: { expirationInSeconds } }),
    /** A single-use token for the login box's impersonation route; `url` carries it. */
    impersonate: (userId: string) => api.request<ImpersonationResponse>('POST', ApiPaths.impersonation, { body: { userId } }),
    /** The vendor's applications ("app data"); none when the vendor has none. */
    applications: () => api.request<ApplicationData[]>('GET', ApplicationPaths.apps),
    /** The applications of these users in the account (the users table's column). */
    usersApplications: (userIds: readonly string[]) => api.request<UserApplicationIds[]>('GET', ApplicationPaths.usersApps, { query: { ids: userIds.join(',') } }),
    /** Seed 001 section 7 "assign or unassign (userId, appIds, tenantId)". */
    assignApplications: (userId: string, appIds: readonly string[], tenantId: string) => api.request<UserApplicationIds>('POST', ApplicationPaths.assign, { body: { userId, appIds: [...appIds], tenantId } }),
    unassignApplications: (userId: string, appIds: readonly string[], tenantId: string) => api.request<UserApplicationIds>('POST', ApplicationPaths.unassign, { body: { userId, appIds: [...appIds], tenantId } }),
  };
}

/** The bulk-add textarea: addresses split on commas, semicolons, spaces and new lines, trimmed, duplicates dropped. */
export function parseEmailList(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((e) => e.trim()).filter(Boolean))];
}

export type UsersApi = ReturnType<typeof createUsersApi>;
