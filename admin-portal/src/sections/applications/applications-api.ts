/** The Applications view's calls (seed 001 section 7 "Applications"), through the portal's API client. */
import { ApplicationPaths } from '@gatehouse/shared/admin-paths';
import type { ApplicationData, ApplicationUsers, UserApplicationIds } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';
import { createUsersApi } from '../users/users-api';

export function createApplicationsApi(api: GatehouseApi) {
  const users = createUsersApi(api);
  return {
    /** "app data": every application of the vendor (name, URL, logo, access type). */
    applications: users.applications,
    /** "users of apps": the account's users assigned to each application. */
    applicationsUsers: () => api.request<ApplicationUsers[]>('GET', ApplicationPaths.appsUsers),
    /** The account's users, a page at a time, searched by name or email. */
    users: (page: number, search: string) => users.list({ page, search, sortDirection: 'asc', preset: '' }),
    /** Seed 001 section 7 "assign or unassign (userId, appIds, tenantId)", one application at a time here. */
    assign: (userId: string, appId: string, tenantId: string): Promise<UserApplicationIds> => users.assignApplications(userId, [appId], tenantId),
    unassign: (userId: string, appId: string, tenantId: string): Promise<UserApplicationIds> => users.unassignApplications(userId, [appId], tenantId),
  };
}

export type ApplicationsApi = ReturnType<typeof createApplicationsApi>;
