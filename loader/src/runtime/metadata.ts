/**
 * The admin box metadata's extras (seed 000 sections 3, 5, 8): `metadataOverrides.url` is fetched
 * without credentials and merged over the metadata, and `integrations.gtm` entries that are enabled
 * and whose id matches GTM-[A-Z0-9]+ are injected as Google Tag Manager scripts (with the page's
 * CSP nonce). Part of the host-extras chunk: only metadata that has either (or separate tabs) loads it.
 */

/** Seed 000 section 5: only tag ids of this form are injected. */
export const GTM_ID = /^GTM-[A-Z0-9]+$/;
const GTM_SCRIPT = 'https://www.googletagmanager.com/gtm.js?id=';
/** Keys never merged: they would reach Object.prototype. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** `base` with `override` merged over it: nested objects merged, anything else replaced. Neither input is changed. */
export function mergeMetadata(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (UNSAFE_KEYS.has(key)) continue;
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? mergeMetadata(current, value) : value;
  }
  return merged;
}

/** The tag ids to inject: enabled entries with a well-formed id, each once. */
export function gtmIds(metadata: Record<string, unknown>): string[] {
  const entries = (metadata.integrations as { gtm?: unknown } | undefined)?.gtm;
  if (!Array.isArray(entries)) return [];
  const ids = entries
    .filter((e): e is { id: string; enabled?: unknown } => isPlainObject(e) && typeof e.id === 'string' && e.enabled !== false && GTM_ID.test(e.id))
    .map((e) => e.id);
  return [...new Set(ids)];
}

export interface MetadataExtrasOptions {
  nonce?: string;
  fetch?: typeof globalThis.fetch;
  document?: Document;
  /** Records a failed override load (seed 000 section 8: logged, and the app continues). */
  reportError(request: string, error: unknown): void;
}

/** Loads the override (if any), injects the tag scripts, and returns the metadata to use. */
export async function extendMetadata(metadata: Record<string, unknown>, options: MetadataExtrasOptions): Promise<Record<string, unknown>> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  let result = metadata;
  const url = (metadata.metadataOverrides as { url?: unknown } | undefined)?.url;
  if (typeof url === 'string' && /^https?:\/\//i.test(url)) {
    try {
      const response = await doFetch(url, { credentials: 'omit', headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`Error ${response.status} - ${response.statusText}`);
      const override: unknown = await response.json();
      if (!isPlainObject(override)) throw new Error('The metadata override is not a JSON object');
      result = mergeMetadata(metadata, override);
    } catch (error) {
      options.reportError('metadataOverrides', error);
    }
  }
  injectGtm(gtmIds(result), options.nonce, options.document ?? document);
  return result;
}

/** One script per id (never twice, even across apps), under the page's nonce. */
export function injectGtm(ids: string[], nonce: string | undefined, doc: Document): void {
  for (const id of ids) {
    if (doc.querySelector(`script[data-gatehouse-gtm="${id}"]`)) continue;
    const win = doc.defaultView as (Window & { dataLayer?: unknown[] }) | null;
    if (win) (win.dataLayer ??= []).push({ 'gtm.start': Date.now(), event: 'gtm.js' });
    const script = doc.createElement('script');
    script.async = true;
    script.src = GTM_SCRIPT + encodeURIComponent(id);
    script.dataset.gatehouseGtm = id;
    if (nonce) script.nonce = nonce;
    doc.head.appendChild(script);
  }
}
