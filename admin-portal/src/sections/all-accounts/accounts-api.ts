/** The All accounts section's calls (seed 001 section 7 "Tenants: Hierarchy, Sub-tenants"), through the portal's API client. */
import { ACCOUNT_USERS_LIMIT, ACCOUNTS_PAGE_LIMIT, SubAccountPaths, TEAM_PAGE_SIZE, AdminPaths, type SubAccountAccessType } from '@gatehouse/shared/admin-paths';
import type { Account, AccountNode, AccountRolesResponse, AccountsSearchResponse, AccountUsersResponse, SelectedAccount, UsersPage } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';

const at = (template: string, subTenantId: string, userId?: string) =>
  template.replace('{subTenantId}', encodeURIComponent(subTenantId)).replace('{userId}', encodeURIComponent(userId ?? ''));

/** A `loadMoreLink` (path and query) split into what the API client takes. */
export function splitLink(link: string): { path: string; query: Record<string, string> } {
  const [path, search = ''] = link.split('?');
  return { path: path!, query: Object.fromEntries(new URLSearchParams(search)) };
}

/**
 * Seed 001 section 4: sub-account actions report false to their callback on failure (true on
 * success); the error itself still reaches the caller's own handling through the returned promise.
 */
export async function reportTo<T>(callback: ((ok: boolean) => void) | undefined, action: Promise<T>): Promise<T> {
  try {
    const result = await action;
    callback?.(true);
    return result;
  } catch (error) {
    callback?.(false);
    throw error;
  }
}

export interface AccountInput {
  name: string;
  /** Create only: the tenant id to use; '' lets the server choose. */
  tenantId: string;
}

export function createAccountsApi(api: GatehouseApi) {
  return {
    /** One account (default: the caller's) and the first page of its children. */
    tree: (parentTenantId?: string) => api.request<AccountNode>('GET', SubAccountPaths.tree, { query: { _limit: ACCOUNTS_PAGE_LIMIT, ...(parentTenantId ? { parentTenantId } : {}) } }),
    more: (link: string) => {
      const { path, query } = splitLink(link);
      return api.request<AccountNode>('GET', path, { query });
    },
    search: (filter: string) => api.request<AccountsSearchResponse>('GET', SubAccountPaths.search, { query: { _filter: filter, _limit: ACCOUNTS_PAGE_LIMIT } }),
    get: (tenantId: string) => api.request<SelectedAccount>('GET', at(SubAccountPaths.subTenant, tenantId)),
    users: (tenantId: string, offset: number) => api.request<AccountUsersResponse>('GET', at(SubAccountPaths.users, tenantId), { query: { _offset: offset, _limit: ACCOUNT_USERS_LIMIT } }),
    roles: (tenantId: string) => api.request<AccountRolesResponse>('GET', at(SubAccountPaths.roles, tenantId)),
    /** Users of the caller's own account matching a search, for the add-users dialog. */
    searchOwnUsers: (filter: string) =>
      api.request<UsersPage>('GET', AdminPaths.teamMembers, { query: { pageOffset: 0, pageSize: TEAM_PAGE_SIZE, filter: filter.trim() || undefined, sortBy: 'name', sortDirection: 'asc' } }),
    create: (parentTenantId: string, { name, tenantId }: AccountInput) =>
      api.request<Account>('POST', SubAccountPaths.subTenants, { body: { name: name.trim(), parentTenantId, ...(tenantId.trim() ? { tenantId: tenantId.trim() } : {}) } }),
    rename: (tenantId: string, name: string) => api.request<Account>('PATCH', at(SubAccountPaths.subTenant, tenantId), { body: { name: name.trim() } }),
    remove: (tenantId: string) => api.request<void>('DELETE', at(SubAccountPaths.subTenant, tenantId)),
    setManagement: (tenantId: string, isReseller: boolean) => api.request<Account>('PUT', at(SubAccountPaths.management, tenantId), { body: { isReseller } }),
    /** Seed 001 section 5: proceeds only if an access type is given (otherwise nothing is sent). */
    setHierarchySettings: async (tenantId: string, subAccountAccessType: SubAccountAccessType | '') => {
      if (!subAccountAccessType) throw new Error('Choose how users reach sub-accounts');
      return api.request<Account>('PUT', at(SubAccountPaths.hierarchySettings, tenantId), { body: { subAccountAccessType } });
    },
    addUsers: (tenantId: string, userIds: string[], roleIds: string[]) => api.request<AccountUsersResponse>('POST', at(SubAccountPaths.users, tenantId), { body: { userIds, roleIds } }),
    removeUser: (tenantId: string, userId: string) => api.request<void>('DELETE', at(SubAccountPaths.user, tenantId, userId)),
    setUserRoles: (tenantId: string, userId: string, roleIds: string[]) => api.request<void>('PUT', at(SubAccountPaths.userRoles, tenantId, userId), { body: { roleIds } }),
    setUserAccess: (tenantId: string, userId: string, allowAccess: boolean) => api.request<void>('PUT', at(SubAccountPaths.userAccess, tenantId, userId), { body: { allowAccess } }),
  };
}

export type AccountsApi = ReturnType<typeof createAccountsApi>;
