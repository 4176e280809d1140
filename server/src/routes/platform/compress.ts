import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../http/env';
import { negotiateEncoding } from '../../http/accept-encoding';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this a compressed body saves less than the header it costs. */
export const MIN_COMPRESSED_BYTES = 256;

/**
 * Compresses the JSON answers of the loader's public boot calls (metadata, vendor config) by
 * Accept-Encoding, as the CDN does its files: they are fetched before the login form on every
 * page. Only for answers that are the same for every caller and hold no secret, so nothing an
 * attacker sends can be measured against a secret through the compressed length (BREACH).
 */
export function compressPublicJson(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (c.req.method !== 'GET' || res.status !== 200 || res.headers.has('Content-Encoding')) return;
    if (!/^application\/json\b/i.test(res.headers.get('Content-Type') ?? '')) return;
    // Every answer of such a route may come compressed: caches keep one copy per coding.
    res.headers.append('Vary', 'Accept-Encoding');
    const [coding = 'identity'] = negotiateEncoding(c.req.header('accept-encoding'));
    if (coding === 'identity') return;
    const body = Buffer.from(await res.clone().arrayBuffer());
    if (body.length < MIN_COMPRESSED_BYTES) return;
    const encoded =
      coding === 'br'
        ? await brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })
        : await gzipAsync(body, { level: 9 });
    c.res = new Response(new Uint8Array(encoded), res);
    c.res.headers.set('Content-Encoding', coding);
    c.res.headers.set('Content-Length', String(encoded.length));
  };
}
