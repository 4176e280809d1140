/** Wires an API client and an auth store together: the client reads the store's access token. */
import type { AuthRoutes, GatehouseApi, GatehouseStore } from '../core/types';
import { createApiClient, type ApiClientOptions } from '../api/client';
import { mergeRoutes } from '../routes';
import { createGatehouseStore, type GatehouseStoreOptions } from './store';

export interface CreateGatehouseOptions extends Omit<ApiClientOptions, 'getAccessToken' | 'navigate'>, Omit<GatehouseStoreOptions, 'api' | 'routes'> {
  routes?: Partial<AuthRoutes>;
}

/** One API client plus one store, as the runtime creates them for every bundle. */
export function createGatehouse(options: CreateGatehouseOptions): { api: GatehouseApi; store: GatehouseStore; routes: AuthRoutes } {
  const routes = mergeRoutes(options.routes);
  let store: GatehouseStore | null = null;
  const api = createApiClient({ ...options, getAccessToken: () => store?.getAccessToken() ?? null, navigate: (url) => options.navigate(url) });
  store = createGatehouseStore({ ...options, api, routes });
  return { api, store, routes };
}
