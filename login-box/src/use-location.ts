/** The page location (path + query), updated on popstate (the runtime's navigate fires it). */
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  return () => window.removeEventListener('popstate', onChange);
}

const read = (): string => `${window.location.pathname}${window.location.search}`;

export function useLocation(): { pathname: string; search: URLSearchParams } {
  const href = useSyncExternalStore(subscribe, read, read);
  const url = new URL(href, 'http://gatehouse.invalid');
  return { pathname: url.pathname, search: url.searchParams };
}
