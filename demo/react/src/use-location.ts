import { useSyncExternalStore } from 'react';

/** The page path; the loader navigates with pushState + popstate, and so does the demo. */
export function usePathname(): string {
  return useSyncExternalStore(
    (listener) => {
      window.addEventListener('popstate', listener);
      return () => window.removeEventListener('popstate', listener);
    },
    () => window.location.pathname,
  );
}

export function go(url: string): void {
  window.history.pushState(null, '', url);
  window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
}
