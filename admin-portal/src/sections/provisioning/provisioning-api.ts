/**
 * The Provisioning section's calls (seed 001 section 7 "Directory: SCIM configuration CRUD with
 * deleteAll"; issue 15): the tenant's SCIM connections, a new connection's token (answered once),
 * rotating it, deleting a connection (and, when asked, the users it made), and its request log.
 */
import { ProvisioningPaths, SCIM_REQUEST_LOG_DEFAULT_LIMIT, type ScimSource } from '@gatehouse/shared/admin-paths';
import type { CreatedScimConnection, RotatedScimToken, ScimConnection, ScimConnectionList, ScimRequestLogPage } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';

/** Rows of the request log per page. */
export const REQUEST_LOG_PAGE_SIZE = SCIM_REQUEST_LOG_DEFAULT_LIMIT;

const withId = (template: string, id: string) => template.replace('{id}', encodeURIComponent(id));

/** Oldest first: the first connection made is the first row, and a new one joins at the end. */
const oldestFirst = (a: ScimConnection, b: ScimConnection) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0);

export function createProvisioningApi(api: GatehouseApi) {
  return {
    list: async (): Promise<ScimConnection[]> => (await api.request<ScimConnectionList>('GET', ProvisioningPaths.scim2Configurations)).items.slice().sort(oldestFirst),
    /** Exactly `{ source }` (issue 15); the answer carries the token, this once. */
    create: (source: ScimSource) => api.request<CreatedScimConnection>('POST', ProvisioningPaths.scim2Configurations, { body: { source } }),
    /** A new token; the old one stops working at once. */
    rotate: (id: string) => api.request<RotatedScimToken>('POST', withId(ProvisioningPaths.scim2ConfigurationToken, id)),
    /** `deleteAll`: the users and groups the connection made leave the tenant too. */
    remove: (id: string, deleteAll: boolean) => api.request<void>('DELETE', withId(ProvisioningPaths.scim2Configuration, id), { query: { deleteAll: String(deleteAll) } }),
    /** One page (0-based) of the connection's request log, newest first. */
    requests: (id: string, page: number) =>
      api.request<ScimRequestLogPage>('GET', withId(ProvisioningPaths.scim2ConfigurationRequests, id), { query: { offset: page * REQUEST_LOG_PAGE_SIZE, limit: REQUEST_LOG_PAGE_SIZE } }),
  };
}

export type ProvisioningApi = ReturnType<typeof createProvisioningApi>;
