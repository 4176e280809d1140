/**
 * Asset loading for the loader: every load has a timeout, and every module is checked against the
 * manifest's integrity hash. ES modules get SRI through an import map's `integrity` section, which
 * covers the entry and every chunk it imports (Chromium 127+ enforces it; maps merge since 133).
 */

/** Rejects with `message` if `promise` does not settle within `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message}: timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const mapped = new Set<string>();

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
