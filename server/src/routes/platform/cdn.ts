import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Hono } from 'hono';
import type { Config } from '../../config';
import { Errors } from '../../errors';
import type { AppEnv } from '../../http/env';

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

/** `/cdn/*`: bundles are public and loaded cross-origin with SRI, so ACAO is `*` here. */
export function cdnRoutes(config: Pick<Config, 'cdnDir'>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const root = path.resolve(config.cdnDir);
  app.on(['GET', 'HEAD'], '/cdn/*', async (c) => {
    const rel = c.req.path.slice('/cdn/'.length);
    const file = resolveInside(root, rel);
    if (!file) throw Errors.notFound();
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) throw Errors.notFound();
    const segments = rel.split('/');
    const immutable = segments.slice(0, -1).some((s) => VERSION_SEGMENT.test(s));
    const headers: Record<string, string> = {
      'Content-Type': CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      'Cache-Control': path.basename(file) === MANIFEST || !immutable ? 'no-cache' : 'public, max-age=31536000, immutable',
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'Content-Length': String(info.size),
      // Nothing under /cdn may run as a document in the identity origin (it could call refresh).
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'X-Content-Type-Options': 'nosniff',
    };
    if (c.req.method === 'HEAD') return c.body(null, 200, headers);
    return c.body(new Uint8Array(await readFile(file)), 200, headers);
  });
  return app;
}
