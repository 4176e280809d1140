/**
 * Adds the loader's script tag (the same contract as the plain-HTML demo: `src`, `integrity`,
 * `crossorigin="anonymous"`, the CSP nonce) once per page and resolves to the global it defines.
 * Browser only: the provider calls it from an effect, never while rendering on the server.
 */
import type { LoaderGlobal } from './types.js';

/** Where the loader script is and its SRI hash (from the CDN manifest's `loader` entry). */
export interface LoaderScript {
  src: string;
  integrity: string;
  nonce?: string;
}

/** How long the script may take to load before the provider gives up (same as the loader's own asset timeout). */
export const LOADER_SCRIPT_TIMEOUT_MS = 10_000;

/** An error the SDK raises; compare `kind` (not instanceof: separate bundles have separate classes). */
export interface GatehouseSdkError extends Error {
  kind: 'GatehouseSdkError';
  code: 'loader_missing_integrity' | 'loader_failed' | 'loader_timeout';
}

export function sdkError(code: GatehouseSdkError['code'], message: string): GatehouseSdkError {
  return Object.assign(new Error(message), { kind: 'GatehouseSdkError' as const, code });
}

const pending = new Map<string, Promise<LoaderGlobal>>();

function loaderGlobal(): LoaderGlobal | undefined {
  return (globalThis as { Gatehouse?: LoaderGlobal }).Gatehouse;
}

/** Loads the loader script (or reuses the one already on the page) and resolves to `window.Gatehouse`. */
export function loadLoaderScript(script: LoaderScript, timeoutMs = LOADER_SCRIPT_TIMEOUT_MS): Promise<LoaderGlobal> {
  const existing = loaderGlobal();
  if (existing) return Promise.resolve(existing);
  if (!script.integrity) return Promise.reject(sdkError('loader_missing_integrity', `GatehouseProvider: loaderScript.integrity is required (SRI) for ${script.src}`));
  let promise = pending.get(script.src);
  if (promise) return promise;
  promise = new Promise<LoaderGlobal>((resolve, reject) => {
    const tag = document.createElement('script');
    tag.src = script.src;
    tag.integrity = script.integrity;
    tag.crossOrigin = 'anonymous';
    if (script.nonce) tag.nonce = script.nonce;
    const timer = setTimeout(() => fail(sdkError('loader_timeout', `Gatehouse loader did not load from ${script.src} within ${timeoutMs} ms`)), timeoutMs);
    const fail = (error: GatehouseSdkError) => {
      clearTimeout(timer);
      pending.delete(script.src);
      tag.remove();
      reject(error);
    };
    tag.addEventListener('load', () => {
      clearTimeout(timer);
      const global = loaderGlobal();
      if (global) resolve(global);
      else fail(sdkError('loader_failed', `${script.src} loaded but defined no Gatehouse global`));
    });
    // A failed integrity check is reported as an error event too.
    tag.addEventListener('error', () => fail(sdkError('loader_failed', `Failed to load the Gatehouse loader from ${script.src} (network or integrity check)`)));
    document.head.appendChild(tag);
  });
  pending.set(script.src, promise);
  return promise;
}
