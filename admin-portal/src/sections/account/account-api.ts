/** The account section's calls (seed 001 section 7 "Tenants: account settings GET, PUT"). */
import { AccountPaths, type AccountSettingsView } from '@gatehouse/shared/admin-paths';
import type { GatehouseApi } from '../../contract';

export type AccountSettingsUpdate = Partial<Record<string, string | boolean | null>>;

export function createAccountApi(api: GatehouseApi) {
  return {
    get: () => api.request<AccountSettingsView>('GET', AccountPaths.accountSettings),
    save: (body: AccountSettingsUpdate) => api.request<AccountSettingsView>('PUT', AccountPaths.accountSettings, { body }),
  };
}

export type AccountApi = ReturnType<typeof createAccountApi>;
