/** The auth snapshot, re-rendering on change. The store owns all logic; this only reads it. */
import { useSyncExternalStore } from 'react';
import type { AuthSnapshot, GatehouseStore } from '@gatehouse/shared';

export function useAuth(store: GatehouseStore): AuthSnapshot {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
