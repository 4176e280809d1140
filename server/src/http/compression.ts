import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import type { Context } from 'hono';
import { negotiateEncoding, type ContentCoding } from './accept-encoding';

/** Below this a JSON answer goes as it is: compressing it saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\b/i;
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Compresses a body with the coding given. `fast` is for answers made per request (brotli quality
 * 4, gzip level 5: most of the size gain for a small part of the CPU); otherwise the best ratio,
 * off the main thread, for a body compressed once and kept.
 */
export function compressBody(body: Buffer, coding: Exclude<ContentCoding, 'identity'>, fast: true): Buffer;
export function compressBody(body: Buffer, coding: Exclude<ContentCoding, 'identity'>, fast: false): Promise<Buffer>;
export function compressBody(body: Buffer, coding: Exclude<ContentCoding, 'identity'>, fast: boolean): Buffer | Promise<Buffer> {
  if (coding === 'br') {
    const params = { [zlib.BROTLI_PARAM_QUALITY]: fast ? 4 : 11, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length };
    return fast ? brotliCompressSync(body, { params }) : brotliAsync(body, { params });
  }
  return fast ? gzipSync(body, { level: 5 }) : gzipAsync(body, { level: 9 });
}

/** True when a JSON answer may be compressed: BREACH needs a secret the browser attaches on its own. */
function mayCompress(c: Context): boolean {
  // An answer to a request that carried cookies, or one that sets them, may hold a secret an attacker's
  // page could make the browser fetch with attacker-chosen input beside it, and measure the compressed
  // length of. Bearer-authenticated calls are not exposed: another site's page cannot attach the token.
  return c.req.header('cookie') === undefined && !c.res.headers.has('set-cookie');
}

/**
 * JSON answers of at least COMPRESS_MIN_BYTES go br or gzip when the client's Accept-Encoding allows
 * (`q=0` refuses a coding; no header means identity), with `Vary: Accept-Encoding` and the encoded
 * length. Never for a HEAD, a 204 or 304, an answer already encoded, or anything but JSON (event
 * streams, CSV exports and pages go as the route made them). Called on every answer (http/edge.ts):
 * a promise only when there is a body to read and compress.
 */
export function compressAnswer(c: Context): Promise<void> | undefined {
  const res = c.res;
  // `res.body` is read last: on @hono/node-server, touching it turns the light answer (a string
  // written as it is) into a web stream, which cost about a tenth of a token grant's CPU.
  if (c.req.method === 'HEAD' || res.status === 204 || res.status === 304) return undefined;
  if (!JSON_TYPE.test(res.headers.get('content-type') ?? '') || res.headers.has('content-encoding') || !mayCompress(c)) return undefined;
  if (!/accept-encoding/i.test(res.headers.get('vary') ?? '')) res.headers.append('Vary', 'Accept-Encoding');
  const [coding = 'identity'] = negotiateEncoding(c.req.header('accept-encoding'));
  if (coding === 'identity' || !res.body) return undefined;
  return res.arrayBuffer().then((read) => {
    const body = Buffer.from(read);
    // The old answer's body is read: hand over a new answer, and clear the old first so Hono does
    // not copy its headers (a stale Content-Length) onto the new one.
    const headers = new Headers(res.headers);
    let sent: Buffer = body;
    if (body.length >= COMPRESS_MIN_BYTES) {
      sent = compressBody(body, coding, true);
      headers.set('Content-Encoding', coding);
    }
    headers.set('Content-Length', String(sent.length));
    c.res = undefined;
    c.res = new Response(new Uint8Array(sent), { status: res.status, statusText: res.statusText, headers });
  });
}
