/**
 * Same-page navigation shared by the runtime and the bundles: pushState plus a popstate event, so
 * the host's own router and the runtime both see route changes. Other origins get a full load.
 */
export function createHistory() {
  const navigate = (url: string, opts: { replace?: boolean } = {}) => {
    const target = new URL(url, window.location.href);
    // Callers pass validated targets; this is the last line against javascript: or data: URLs.
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`Refusing to navigate to a ${target.protocol} URL`);
    if (target.origin !== window.location.origin) {
      window.location.assign(target.href);
      return;
    }
    const path = target.pathname + target.search + target.hash;
    if (opts.replace) window.history.replaceState(null, '', path);
    else window.history.pushState(null, '', path);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  };
  const listen = (listener: () => void) => {
    window.addEventListener('popstate', listener);
    return () => window.removeEventListener('popstate', listener);
  };
  return { navigate, listen };
}
