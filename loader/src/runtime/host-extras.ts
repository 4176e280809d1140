/**
 * One lazily loaded chunk for the host integrations a page may use: external authentication
 * (app.setAuthentication), separate tabs per tenant, metadata overrides and Tag Manager. One chunk,
 * so the runtime (on the login form's path) carries a single import for all of them.
 */
import type { ApiClientOptions, GatehouseApi, GatehouseStore } from '@gatehouse/shared';
import { separateTabsEnabled } from '../../../shared/src/auth/separate-tabs-keys';
import type { BootContext } from '../types';
import { createExternalAuth, type ExternalAuth } from './external-auth';
import { extendMetadata } from './metadata';
import { keepTabTenant } from './separate-tabs';

export interface HostExtras {
  ctx: BootContext;
  store: GatehouseStore;
  api: GatehouseApi;
  /** The runtime's API client options, for the client external authentication builds around its token. */
  client: Omit<ApiClientOptions, 'getAccessToken'>;
  external?: ExternalAuth;
}

/** app.setAuthentication(token | null), seed 000 section 4.10. */
export function setAuthentication(x: HostExtras, token: string | null): Promise<void> {
  x.external ??= createExternalAuth({ ...x.client, store: x.store });
  return x.external.setAuthentication(token);
}

/** At boot: the metadata's extras, then separate tabs when on. Returns what stops the latter. */
export async function startHostExtras(x: HostExtras): Promise<(() => void) | undefined> {
  x.ctx.metadata = await extendMetadata(x.ctx.metadata, { nonce: x.ctx.options.nonce, reportError: x.ctx.reportError });
  if (!separateTabsEnabled(globalThis.localStorage)) return undefined;
  return keepTabTenant({ api: x.api, store: x.store, tab: globalThis.sessionStorage, adopt: (token) => setAuthentication(x, token) });
}
