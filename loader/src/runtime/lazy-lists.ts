import { LAZY_IMPORT_GATE, addBundleLazyList } from '../assets';
import type { BootContext } from '../types';

/**
 * A loader built before lazy hash lists (a host page pinned to it, with newer bundles from the
 * live manifest) registers only the manifest's eager hashes, so the bundles' lazy files would load
 * unchecked. Then the runtime installs the lazy-import gate itself, with every bundle's list; with
 * a current loader the gate is there already and nothing changes.
 */
export function ensureLazyImportGate(ctx: Pick<BootContext, 'manifest' | 'cdnBase' | 'options'>): void {
  if ((globalThis as Record<symbol, unknown>)[LAZY_IMPORT_GATE]) return;
  for (const entry of Object.values(ctx.manifest.bundles)) addBundleLazyList(ctx.cdnBase, entry, ctx.options.nonce);
}
