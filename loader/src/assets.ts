/**
 * Asset loading for the loader: every load has a timeout, and every module is checked against the
 * manifest's integrity hash. ES modules get SRI through an import map's `integrity` section, which
 * covers the entry and every chunk it imports (Chromium 127+ enforces it; maps merge since 133).
 */
import type { ManifestEntry } from './types';

/** Rejects with `message` if `promise` does not settle within `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message}: timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * URLs already in an import map, shared by the loader and the runtime (two separately built
 * copies of this file): the runtime's lazy-import gate skips what the loader mapped.
 */
const mapped: Set<string> = ((globalThis as Record<symbol, unknown>)[Symbol.for('gatehouse.mapped')] ??= new Set()) as Set<string>;

/** Adds an import map with integrity entries for `files` (paths relative to `base`). */
export function addIntegrityMap(base: string, files: Record<string, string>, nonce?: string): void {
  const integrity: Record<string, string> = {};
  for (const [path, hash] of Object.entries(files)) {
    const url = new URL(path, base).href;
    if (!mapped.has(url)) {
      mapped.add(url);
      integrity[url] = hash;
    }
  }
  if (!Object.keys(integrity).length) return;
  const script = document.createElement('script');
  script.type = 'importmap';
  if (nonce) script.nonce = nonce;
  script.textContent = JSON.stringify({ integrity });
  document.head.appendChild(script);
}

/**
 * Files a bundle imports only later (lazy screens and flows) keep their hashes in a list of their
 * own, so the manifest every page fetches stays small. Every `import()` of a bundle goes through
 * this gate (vite.config.ts replaces Vite's preload helper with a call to it): a file whose hash is
 * not registered yet waits until its bundle's list was fetched (checked against the manifest's
 * hash) and added to the import map. No list can be skipped: when the target cannot be read from
 * the import, the list is loaded anyway; a list that fails its check fails the import.
 */
export const LAZY_IMPORT_GATE = Symbol.for('gatehouse.lazy-import');

interface LazyList { cdnBase: string; base: string; url: string; integrity: string; nonce?: string; ready?: Promise<void> }
const lazyLists: LazyList[] = [];

/** The dynamic imports' targets, read from the import function's own text (`() => import("./x.js")`). */
const IMPORT_TARGETS = /\bimport\(\s*["'`]([^"'`]+)["'`]/g;

function lazyImportGate(load: () => unknown, importer: string): Promise<void> {
  const targets = [...String(load).matchAll(IMPORT_TARGETS)].map(([, specifier]) => {
    try {
      return new URL(specifier!, importer).href;
    } catch {
      return null;
    }
  });
  // Skipped only when every file the function may import is registered already.
  const unregistered = targets.find((target) => !target || !mapped.has(target));
  if (targets.length && unregistered === undefined) return Promise.resolve();
  const list = lazyLists.find((l) => (unregistered ?? importer).startsWith(l.base));
  if (!list) return Promise.resolve();
  list.ready ??= fetch(list.url, { credentials: 'omit', integrity: list.integrity })
    .then(async (res) => {
      if (!res.ok) throw new Error(`status ${res.status}`);
      addIntegrityMap(list.cdnBase, (await res.json()) as Record<string, string>, list.nonce);
    })
    .catch((error: unknown) => {
      list.ready = undefined; // a later import tries again
      throw new Error(`Failed to load ${list.url} (integrity check or network error): ${(error as Error)?.message ?? error}`);
    });
  return list.ready;
}

/**
 * Registers the lazy file list of the bundle in folder `base` (an absolute URL ending in `/`);
 * `list` and the paths it holds are relative to `cdnBase`. Nothing is fetched until a file of the
 * bundle needs it.
 */
export function addLazyFileList(cdnBase: string, base: string, list: string, integrity: string, nonce?: string): void {
  if (!lazyLists.some((l) => l.base === base)) lazyLists.push({ cdnBase, base, url: new URL(list, cdnBase).href, integrity, nonce });
  (globalThis as Record<symbol, unknown>)[LAZY_IMPORT_GATE] = lazyImportGate;
}

/** Registers the lazy file list of a manifest entry, if it has one (its files sit beside its entry). */
export function addBundleLazyList(cdnBase: string, entry: ManifestEntry, nonce?: string): void {
  if (entry.lazyFileList) addLazyFileList(cdnBase, new URL('./', new URL(entry.entry, cdnBase)).href, entry.lazyFileList, entry.lazyFileListIntegrity ?? '', nonce);
}

/** Imports `entry` after registering the integrity of its files; a mismatch rejects the import. */
export async function importWithIntegrity<T>(base: string, entry: string, files: Record<string, string>, nonce?: string): Promise<T> {
  addIntegrityMap(base, files, nonce);
  const url = new URL(entry, base).href;
  try {
    return (await import(/* @vite-ignore */ url)) as T;
  } catch (error) {
    throw new Error(`Failed to load ${url}: ${(error as Error)?.message ?? error} (integrity check or network error)`);
  }
}
