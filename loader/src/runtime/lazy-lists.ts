import { LAZY_IMPORT_GATE, addBundleLazyList } from '../assets';
import type { BootContext } from '../types';

type LazyListContext = Pick<BootContext, 'manifest' | 'cdnBase' | 'options'>;

const globals = globalThis as Record<symbol, unknown>;
/** The gate this runtime installed (a loader of 7.78.0 installs its own). */
let ownGate: unknown;

/**
 * The lazy-import gate (assets.ts) lives in the runtime: the loader only registers the eager hashes
 * and never imports a file lazily itself, so the gate's code stays out of the 3 KB loader. Installed
 * at boot with every bundle's list, before any import(). A loader of 7.78.0 installed a gate of its
 * own, with the list of every bundle it loads: that one is left alone.
 */
export function ensureLazyImportGate(ctx: LazyListContext): void {
  if (globals[LAZY_IMPORT_GATE] && globals[LAZY_IMPORT_GATE] !== ownGate) return;
  for (const entry of Object.values(ctx.manifest.bundles)) addBundleLazyList(ctx.cdnBase, entry, ctx.options.nonce);
  ownGate = globals[LAZY_IMPORT_GATE];
}

/**
 * After `bundle` loaded: registers the lazy list of the version that did load, which is the default
 * when a pinned or canary version failed (the loader then puts the default into the manifest).
 */
export function addLoadedBundleLazyList(ctx: LazyListContext, bundle: string): void {
  const entry = ctx.manifest.bundles[bundle];
  if (entry && ownGate && globals[LAZY_IMPORT_GATE] === ownGate) addBundleLazyList(ctx.cdnBase, entry, ctx.options.nonce);
}
