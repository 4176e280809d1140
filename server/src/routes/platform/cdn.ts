import { readFile, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import type { Config } from '../../config';
import { Errors } from '../../errors';
import { negotiateEncoding } from '../../http/accept-encoding';
import type { AppEnv } from '../../http/env';
import type { CdnService } from '../../services/cdn';
import type { ServedManifest } from '../../services/cdn/manifest';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

const MANIFEST = 'cdn-manifest.json';
/** A path segment that is a version (e.g. 7.78.0) marks the file as immutable. */
const VERSION_SEGMENT = /^\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/;

/** Resolves a request path inside root, or null when it would leave it (traversal, odd bytes). */
export function resolveInside(root: string, requestPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter(Boolean);
  if (segments.length === 0 || segments.some((s) => s === '..' || s === '.' || s.startsWith('.'))) return null;
  const full = path.resolve(root, ...segments);
  return full.startsWith(root + path.sep) ? full : null;
}

/** The codings the build writes beside every CDN file (scripts/build-cdn.mjs), best first. */
export const CDN_ENCODINGS = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;
export type CdnCoding = (typeof CDN_ENCODINGS)[number]['coding'] | 'identity';

export { negotiateEncoding };

/** If-None-Match (RFC 9110 section 13.1.2): `*` or any listed tag, compared weakly. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

async function fileStat(file: string): Promise<Stats | null> {
  const info = await stat(file).catch(() => null);
  return info?.isFile() ? info : null;
}

/** Headers every CDN response carries. */
const COMMON_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  // Caches keep one copy per coding; every CDN file may have siblings.
  Vary: 'Accept-Encoding',
  // Nothing under /cdn may run as a document in the identity origin (it could call refresh).
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'X-Content-Type-Options': 'nosniff',
} as const;

/**
 * The live manifest (issue 18), rendered from the rollout and verified (services/cdn/manifest.ts),
 * in the best coding the browser accepts. Short-lived: a rollout change reaches new page loads
 * within max-age plus the server's refresh (GATEHOUSE_CDN_MANIFEST_MAX_AGE + CDN_ROLLOUT_REFRESH seconds).
 */
async function serveManifest(c: Context<AppEnv>, cdn: CdnService, maxAge: number): Promise<Response> {
  let served: ServedManifest;
  try {
    served = await cdn.live.current();
  } catch {
    // No build yet: nothing verified and no cdn-manifest.json on disk (the reason is in the server log).
    throw Errors.notFound();
  }
  const coding = negotiateEncoding(c.req.header('accept-encoding'))[0]!;
  const body = coding === 'br' ? served.br : coding === 'gzip' ? served.gzip : served.identity;
  const etag = `"${coding}-${served.tag}"`;
  const headers: Record<string, string> = {
    ...COMMON_HEADERS,
    'Content-Type': CONTENT_TYPES['.json']!,
    'Cache-Control': `public, max-age=${maxAge}`,
    'Content-Length': String(body.length),
    ETag: etag,
  };
  if (coding !== 'identity') headers['Content-Encoding'] = coding;
  if (matchesEtag(c.req.header('if-none-match'), etag)) {
    const { 'Content-Length': _length, 'Content-Type': _type, 'Content-Encoding': _coding, ...unchanged } = headers;
    return c.body(null, 304, unchanged);
  }
  if (c.req.method === 'HEAD') return c.body(null, 200, headers);
  return c.body(new Uint8Array(body), 200, headers);
}

/**
 * `/cdn/*`: bundles are public and loaded cross-origin with SRI, so ACAO is `*` here. Each file is
 * sent as the build's brotli or gzip sibling when the browser accepts it (SRI covers the decoded
 * bytes, so the manifest's hashes hold for every coding).
 */
export function cdnRoutes(config: Pick<Config, 'cdnDir' | 'cdnManifestMaxAge'>, cdn: CdnService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const root = path.resolve(config.cdnDir);
  app.on(['GET', 'HEAD'], '/cdn/*', async (c) => {
    const rel = c.req.path.slice('/cdn/'.length);
    if (rel === MANIFEST) return serveManifest(c, cdn, config.cdnManifestMaxAge);
    const file = resolveInside(root, rel);
    if (!file) throw Errors.notFound();
    const info = await fileStat(file);
    if (!info) throw Errors.notFound();
    const segments = rel.split('/');
    const immutable = segments.slice(0, -1).some((s) => VERSION_SEGMENT.test(s));
    const mutable = path.basename(file) === MANIFEST || !immutable;

    let body = file;
    let sent = info;
    let coding: CdnCoding = 'identity';
    for (const wanted of negotiateEncoding(c.req.header('accept-encoding'))) {
      if (wanted === 'identity') break;
      const sibling = file + CDN_ENCODINGS.find((e) => e.coding === wanted)!.suffix;
      const compressed = await fileStat(sibling);
      // A file that may change in place (the manifest) is sent compressed only while its sibling
      // is not older than it: an edit without a rebuild must never serve yesterday's bytes.
      if (!compressed || (mutable && compressed.mtimeMs < info.mtimeMs)) continue;
      body = sibling;
      sent = compressed;
      coding = wanted;
      break;
    }
    // A validator per coding, so the manifest (no-cache) is revalidated with a 304 and no body.
    const etag = `"${coding}-${sent.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`;

    const headers: Record<string, string> = {
      'Content-Type': CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      'Cache-Control': mutable ? 'no-cache' : 'public, max-age=31536000, immutable',
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'Content-Length': String(sent.size),
      ETag: etag,
      // Caches keep one copy per coding; every CDN file may have siblings.
      Vary: 'Accept-Encoding',
      // Nothing under /cdn may run as a document in the identity origin (it could call refresh).
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'X-Content-Type-Options': 'nosniff',
    };
    if (coding !== 'identity') headers['Content-Encoding'] = coding;
    if (matchesEtag(c.req.header('if-none-match'), etag)) {
      const { 'Content-Length': _length, 'Content-Type': _type, 'Content-Encoding': _coding, ...unchanged } = headers;
      return c.body(null, 304, unchanged);
    }
    if (c.req.method === 'HEAD') return c.body(null, 200, headers);
    return c.body(new Uint8Array(await readFile(body)), 200, headers);
  });
  return app;
}
