import type { GatehouseStore } from '@gatehouse/shared';

/**
 * Calls `onSignedOut` (on the next task, after any navigation the store itself started) when the
 * user goes from signed in to signed out: a failed refresh, or a session revoked elsewhere.
 */
export function watchSignOut(store: Pick<GatehouseStore, 'subscribe' | 'getSnapshot'>, onSignedOut: () => void): () => void {
  let signedIn = store.getSnapshot().isAuthenticated;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = store.subscribe(() => {
    const now = store.getSnapshot().isAuthenticated;
    if (signedIn && !now) timer = setTimeout(onSignedOut, 0);
    signedIn = now;
  });
  return () => {
    stop();
    clearTimeout(timer);
  };
}
