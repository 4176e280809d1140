/**
 * The live CDN manifest (issue 18), `GET /cdn/cdn-manifest.json`: per bundle, the default version's
 * descriptor plus the rollout (previous default, canary, tenant pins) and the descriptors of the
 * versions the rollout names. Types and constants only: the loader reads it without zod.
 */

/** The bundles the build publishes; nothing else may be published or rolled out. */
export const CDN_BUNDLES = ['loader', 'runtime', 'login-box', 'admin-portal', 'checkout'] as const;
export type CdnBundle = (typeof CDN_BUNDLES)[number];

/** A published version: semver with an optional pre-release, at most 64 characters. */
export const CDN_VERSION_PATTERN = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;
export const CDN_VERSION_MAX_LENGTH = 64;

/** What the loader needs to load one version of a bundle (paths relative to the CDN base). */
export interface CdnVersionDescriptor {
  version: string;
  entry: string;
  integrity: string;
  /** Integrity of every other file the bundle loads at once, inline ... */
  files?: Record<string, string>;
  /** ... or in a separate JSON file (bundles not needed before sign-in), itself checked by SRI. */
  fileList?: string;
  fileListIntegrity?: string;
  /** Hashes of the files the bundle imports only later, fetched with SRI on the first such import. */
  lazyFileList?: string;
  lazyFileListIntegrity?: string;
}

/** One bundle in the live manifest: its default version's descriptor and the rollout around it. */
export interface CdnManifestBundle extends CdnVersionDescriptor {
  /** The default before the last promotion: what `rollback` restores. */
  previous?: string;
  /** Users whose bucket (0–99) is below `percent` (1–100) load `version`. */
  canary?: { version: string; percent: number };
  /**
   * Tenants pinned to a version, keyed by base64url (no padding) of SHA-256 of the UTF-8 tenant id:
   * tenant ids are not published in clear.
   */
  pins?: Record<string, string>;
  /** The descriptor of every version `canary` or `pins` names. */
  versions?: Record<string, CdnVersionDescriptor>;
}

/** `cdn-manifest.json`. Served with `Cache-Control: public, max-age=30`. */
export interface CdnManifest {
  version: string;
  bundles: Record<string, CdnManifestBundle>;
}

/** How long browsers and CDNs may keep the manifest, and how often the server re-reads the rollout (seconds). */
export const CDN_MANIFEST_MAX_AGE = 30;
export const CDN_ROLLOUT_REFRESH = 15;
