/**
 * Separate tabs per tenant (seed 000 section 9, storage key FRONTEGG_SEPARATE_TABS_BY_TENANT).
 * All tabs share one refresh cookie, and the server moves that session to whatever tenant a
 * refresh names; so every refresh of this tab names the tenant this tab shows (kept in the tab's
 * sessionStorage), and a reloaded tab whose session came back in another tab's tenant is moved
 * back to its own. Part of the host-extras chunk: loaded only when the host turned the key on.
 */
import type { GatehouseApi, GatehouseStore, KeyValueStorage } from '@gatehouse/shared';

/** sessionStorage key (one per tab) holding the tenant this tab shows while separate tabs are on. */
export const TAB_TENANT_KEY = 'GATEHOUSE_TAB_TENANT_ID';

export interface SeparateTabsOptions {
  api: Pick<GatehouseApi, 'refresh'>;
  store: Pick<GatehouseStore, 'subscribe' | 'getSnapshot'>;
  /** This tab's storage (sessionStorage). */
  tab: KeyValueStorage;
  /** Signs this tab in with a token of its own tenant (the external-authentication path: profile loaded with that token). */
  adopt(accessToken: string): Promise<void>;
}

/** Pins this tab to its tenant; returns the unsubscribe. Resolves once a reloaded tab is back in its own tenant. */
export async function keepTabTenant(options: SeparateTabsOptions): Promise<() => void> {
  const { api, store, tab } = options;
  const read = () => {
    try {
      return tab.getItem(TAB_TENANT_KEY) || undefined;
    } catch {
      return undefined;
    }
  };
  const saved = read();
  const refresh = api.refresh.bind(api);
  // A refresh that names no tenant (the store's timed one) names this tab's.
  api.refresh = (tenantId?: string) => refresh(tenantId ?? read());
  const user = store.getSnapshot().user;
  if (user && saved && user.tenantId !== saved) {
    try {
      await options.adopt((await refresh(saved)).accessToken);
    } catch {
      // This tab's tenant is gone (membership ended): stay in the one the session has.
    }
  }
  const remember = () => {
    const tenantId = store.getSnapshot().user?.tenantId;
    try {
      if (tenantId) tab.setItem(TAB_TENANT_KEY, tenantId);
    } catch {
      // Storage refused: the tab follows the session's tenant, as without the mode.
    }
  };
  remember();
  return store.subscribe(remember);
}
