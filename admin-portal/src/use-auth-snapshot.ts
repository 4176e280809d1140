import { useCallback, useSyncExternalStore } from 'react';
import type { AuthSnapshot, GatehouseStore } from './contract';

/** Reads the shared store's snapshot; re-renders on every store change. */
export function useAuthSnapshot(store: GatehouseStore): AuthSnapshot {
  const subscribe = useCallback((listener: () => void) => store.subscribe(listener), [store]);
  const getSnapshot = useCallback(() => store.getSnapshot(), [store]);
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
