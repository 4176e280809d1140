/**
 * Wire schemas of the CDN rollouts (issue 18): the published versions of each bundle and their
 * rollout (default, previous, canary, tenant pins), managed by super users (OperatorPaths.cdn*).
 */
import { z } from 'zod';
import { CDN_BUNDLES, CDN_VERSION_MAX_LENGTH, CDN_VERSION_PATTERN } from '../platform/cdn-manifest';
import { base64Bytes, CDN_PUBLISH_MAX_BYTES, CDN_PUBLISH_MAX_FILES, CDN_PUBLISH_MAX_PATH, CDN_PUBLISH_PATH, isBase64 } from './cdn-publish';

export * from './cdn-publish';

export const CdnBundleName = z.enum(CDN_BUNDLES);
export const CdnVersion = z.string().min(5).max(CDN_VERSION_MAX_LENGTH).regex(CDN_VERSION_PATTERN, 'a version is semver: 1.2.3 or 1.2.3-beta.1');
export const CdnTenantId = z.string().min(1).max(128).regex(/^[A-Za-z0-9_-]+$/, 'a tenant id is letters, digits, _ and -');

export const CdnVersionStates = ['default', 'canary', 'pinned', 'previous', 'unused'] as const;
export type CdnVersionState = (typeof CdnVersionStates)[number];

export const CdnPublishedVersion = z.object({
  version: z.string(),
  /** Empty only when no rollout names the version: then `['unused']`. */
  state: z.array(z.enum(CdnVersionStates)),
  /** Bytes over the wire: the sum of the brotli copies (`.br`), else of the raw files. */
  wireBytes: z.number().int().min(0),
  /** When the folder was published (epoch ms, its modification time). */
  publishedAt: z.number().int(),
});
export type CdnPublishedVersion = z.infer<typeof CdnPublishedVersion>;

export const CdnCanary = z.object({ version: z.string(), percent: z.number().int().min(1).max(100) });
export const CdnPin = z.object({ tenantId: z.string(), version: z.string() });

export const CdnBundleRollout = z.object({
  bundle: CdnBundleName,
  default: z.string(),
  previous: z.string().nullable(),
  canary: CdnCanary.nullable(),
  pins: z.array(CdnPin),
  /** Newest first (semver order). */
  versions: z.array(CdnPublishedVersion),
});
export type CdnBundleRollout = z.infer<typeof CdnBundleRollout>;

export const CdnVersionsResponse = z.object({ bundles: z.array(CdnBundleRollout) });
export type CdnVersionsResponse = z.infer<typeof CdnVersionsResponse>;

/**
 * Promote: no `percent` and no `tenants` makes `version` the default (the old default becomes
 * `previous`); `percent` makes it the canary; `tenants` pins those tenants to it. Not both.
 */
export const CdnPromoteBody = z
  .object({
    version: CdnVersion,
    percent: z.number().int().min(1).max(100).optional(),
    tenants: z.array(CdnTenantId).min(1).max(100).optional(),
  })
  .strict()
  .refine((b) => b.percent === undefined || b.tenants === undefined, { message: 'give percent or tenants, not both', path: ['tenants'] });
export type CdnPromoteBody = z.infer<typeof CdnPromoteBody>;

export const CdnPruneBody = z.object({ keep: z.number().int().min(1).max(1000) }).strict();
export type CdnPruneBody = z.infer<typeof CdnPruneBody>;
export const CdnPruneResponse = z.object({ removed: z.array(z.object({ bundle: CdnBundleName, version: z.string() })) });
export type CdnPruneResponse = z.infer<typeof CdnPruneResponse>;

export const CdnBundleParam = z.object({ bundle: CdnBundleName });
export const CdnPinParam = z.object({ bundle: CdnBundleName, tenantId: CdnTenantId });

/**
 * Publish a version: the version folder's files exactly as the build leaves them in
 * `dist/cdn/<bundle>/<version>/` (files.json, each file and its .br/.gz), keyed by their path inside
 * that folder, each in base64. The server checks them as `cdn publish <dir>` does.
 */
export const CdnPublishBody = z
  .object({
    bundle: CdnBundleName,
    version: CdnVersion,
    files: z.record(
      z.string().max(CDN_PUBLISH_MAX_PATH).regex(CDN_PUBLISH_PATH, 'a path inside the version folder: segments of letters, digits, ".", "_" and "-", none starting with "." or empty, "/" between them'),
      z.string().max(Math.ceil(CDN_PUBLISH_MAX_BYTES / 3) * 4).refine(isBase64, 'the file in base64'),
    ),
  })
  .strict()
  .superRefine((b, ctx) => {
    const paths = Object.keys(b.files);
    if (paths.length === 0) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['files'], message: 'at least files.json and the entry' });
    if (paths.length > CDN_PUBLISH_MAX_FILES) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['files'], message: `at most ${CDN_PUBLISH_MAX_FILES} files` });
    let total = 0;
    for (const value of Object.values(b.files)) total += base64Bytes(value);
    if (total > CDN_PUBLISH_MAX_BYTES) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['files'], message: `at most ${CDN_PUBLISH_MAX_BYTES / 1024 / 1024} MB decoded, all files together` });
    // Names that one file system would take for the same file (case-insensitive ones), or a file that is also a folder.
    const seen = new Set<string>();
    const folders = new Set<string>();
    for (const p of paths) {
      const key = p.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['files', p], message: 'named twice (names differ only in case)' });
      seen.add(key);
      const segments = key.split('/');
      for (let i = 1; i < segments.length; i++) folders.add(segments.slice(0, i).join('/'));
    }
    for (const p of paths) if (folders.has(p.toLowerCase())) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['files', p], message: 'is both a file and a folder' });
  });
export type CdnPublishBody = z.infer<typeof CdnPublishBody>;

export const CdnPublishResponse = z.object({
  outcome: z.enum(['published', 'unchanged']),
  bundle: CdnBundleName,
  version: z.string(),
  /** Files listed in files.json. */
  files: z.number().int().min(0),
  wireBytes: z.number().int().min(0),
});
export type CdnPublishResponse = z.infer<typeof CdnPublishResponse>;
