/**
 * Which version of each bundle this page loads (docs/cdn.md, "Rollouts"): a version pinned for the
 * signed-in user's tenant, else the canary when this person's bucket is below its percentage, else
 * the default. The bucket hashes the user id, or before sign-in a random browser id kept in
 * localStorage, so a person does not flip between versions from one page load to the next.
 */
import type { CdnManifest, ManifestEntry } from './types';

/** The localStorage key of the browser id (128 random bits, base64url). */
export const BROWSER_ID_KEY = 'gatehouse:bid';

const base64url = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const sha256 = (text: string) => crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));

/** The manifest's key for a tenant's pin: base64url (no padding) of SHA-256 of the tenant id. */
export const pinKey = async (tenantId: string) => base64url(await sha256(tenantId));

/** 0–99: the first 4 bytes of SHA-256(`<bundle>:<id>`) as a big-endian uint32, mod 100. */
export const bucket = async (bundle: string, id: string) => new DataView(await sha256(bundle + ':' + id)).getUint32(0) % 100;

let pageId: string | undefined;
/** This browser's id, created once; without localStorage, one for this page. */
export function browserId(): string {
  const fresh = () => base64url(crypto.getRandomValues(new Uint8Array(16)));
  try {
    let id = localStorage.getItem(BROWSER_ID_KEY);
    if (!id) localStorage.setItem(BROWSER_ID_KEY, (id = fresh()));
    return id;
  } catch {
    return (pageId ??= fresh());
  }
}

/**
 * The manifest with each bundle's descriptor replaced by the version this page loads. `user` is the
 * session's user (null before sign-in). A rollout that cannot be evaluated (no Web Crypto outside a
 * secure context) leaves the defaults.
 */
export async function chooseVersions(manifest: CdnManifest, user?: { id: string; tenantId: string } | null): Promise<CdnManifest> {
  const bundles: CdnManifest['bundles'] = {};
  for (const [name, entry] of Object.entries(manifest.bundles)) {
    let chosen: ManifestEntry | undefined;
    try {
      const { versions = {}, canary, pins } = entry;
      if (user && pins) chosen = versions[pins[await pinKey(user.tenantId)]!];
      if (!chosen && canary && (await bucket(name, user?.id ?? browserId())) < canary.percent) chosen = versions[canary.version];
    } catch {
      // the default, below
    }
    bundles[name] = chosen?.entry ? chosen : entry;
  }
  return { ...manifest, bundles };
}
