/** The Security section's policy calls (seed 001 section 7 "Security policies GET/POST/PATCH", "session configurations"). */
import type { PolicyDryRun } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';

export type StoredPolicy = Record<string, unknown> & { id?: string };

export function createPolicyApi(api: GatehouseApi, path: string) {
  return {
    /** The effective policy (the vendor's tightened by the tenant's own), with `id` when the tenant has its own. */
    get: () => api.request<StoredPolicy>('GET', path),
    /** What saving `body` would do, counted from the tenant's real data; nothing is saved. */
    dryRun: (method: 'POST' | 'PATCH', body: Record<string, unknown>) => api.request<PolicyDryRun>(method, path, { body, query: { dryRun: 'true' } }),
    save: (method: 'POST' | 'PATCH', body: Record<string, unknown>) => api.request<StoredPolicy | undefined>(method, path, { body }),
  };
}

export type PolicyApi = ReturnType<typeof createPolicyApi>;
