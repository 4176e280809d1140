/**
 * Separate tabs per tenant (seed 000 section 9). Not re-exported by the shared index (whose exports
 * the runtime ships whole to the bundles): import this file where needed.
 */
/** localStorage key, verbatim from the seed: the host sets it to 'true' and each tab keeps its own tenant. */
export const SEPARATE_TABS_BY_TENANT_KEY = 'FRONTEGG_SEPARATE_TABS_BY_TENANT';

/** Is the mode on? Only the string 'true' turns it on; unusable storage means off. */
export function separateTabsEnabled(local: { getItem(key: string): string | null } | null | undefined): boolean {
  try {
    return local?.getItem(SEPARATE_TABS_BY_TENANT_KEY) === 'true';
  } catch {
    return false;
  }
}
