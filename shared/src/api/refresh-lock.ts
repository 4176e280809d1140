/**
 * Serializes refresh-token calls across every tab of this origin. The server revokes a session
 * when a rotated refresh token is presented again, so two tabs refreshing at the same moment with
 * the same cookie would sign the user out; under a Web Lock the second tab waits and then sends
 * the already-rotated cookie (the cookie jar is shared). Without Web Locks, calls run as they come.
 */
export function withRefreshLock<T>(baseUrl: string, run: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks?.request) return run();
  return locks.request(`gatehouse-refresh:${baseUrl}`, run) as Promise<T>;
}
