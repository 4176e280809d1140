import { createContext, useContext } from 'react';
import type { GatehouseClient } from './client.js';

export const GatehouseContext = createContext<GatehouseClient | null>(null);

/** The provider's client; a sentence naming the provider when there is none. */
export function useGatehouseClient(hook: string): GatehouseClient {
  const client = useContext(GatehouseContext);
  if (!client) throw new Error(`${hook}() must be used inside <GatehouseProvider>`);
  return client;
}
