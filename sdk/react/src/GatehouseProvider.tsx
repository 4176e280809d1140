import { useEffect, useState, type ReactNode } from 'react';
import { createGatehouseClient, GatehouseAppNameMismatchError, type GatehouseClient } from './client.js';
import { GatehouseContext } from './context.js';
import { loadLoaderScript, type LoaderScript } from './load-loader.js';
import type { GatehouseLoaderOptions } from './types.js';

export interface GatehouseProviderProps {
  /** The loader's options, as given to `Gatehouse.initialize(options, name)`. */
  options: GatehouseLoaderOptions;
  /** The loader script and its SRI hash (the CDN manifest's `loader` entry). */
  loaderScript: LoaderScript;
  /** The app name (default: the loader's default app). */
  name?: string;
  /** For tests and hosts that build the client themselves (e.g. a loader already on the page); with `name`, it must be that app's client. */
  client?: GatehouseClient;
  children?: ReactNode;
}

/**
 * Loads the Gatehouse loader once (script tag with SRI) and gives its state to the hooks and
 * gates below. During server rendering it renders `children` signed out and touches no `window`;
 * the loader starts in an effect, so StrictMode's second mount reuses the same app.
 */
export function GatehouseProvider({ options, loaderScript, name, client: given, children }: GatehouseProviderProps) {
  // One client per provider instance; the loader keeps one app per name, so a remount reuses it.
  const [client] = useState(
    () => given ?? createGatehouseClient({ name, connect: async () => (await loadLoaderScript(loaderScript)).initialize(options, name) }),
  );
  // A client of another app would show that app's user under this name (seed 000 section 5).
  if (name !== undefined && client.name !== name) throw new GatehouseAppNameMismatchError(name, client.name);
  useEffect(() => client.start(), [client]);
  return <GatehouseContext.Provider value={client}>{children}</GatehouseContext.Provider>;
}
