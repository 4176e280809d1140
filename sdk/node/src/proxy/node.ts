/**
 * node:http and Express adapters of the proxy: they turn an IncomingMessage into a Web Request
 * (the client IP from the socket) and write the Response back, streaming both bodies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { createGatehouseProxy, type GatehouseProxy, type ProxyOptions } from './proxy.js';

type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => Promise<void>;

function toRequest(req: IncomingMessage, controller: AbortController): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    // Node refuses nothing here; invalid values are dropped by the proxy's allowlist checks.
    try {
      headers.set(name, Array.isArray(value) ? value.join(name === 'cookie' ? '; ' : ', ') : value);
    } catch {
      /* a value Headers refuses is an invalid header value: dropped */
    }
  }
  const method = req.method ?? 'GET';
  // A body only when the request announces one, so a bodyless DELETE is not sent as an empty chunked stream.
  const announced = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  const hasBody = method !== 'GET' && method !== 'HEAD' && announced;
  return new Request(new URL(req.url ?? '/', 'http://host.invalid'), {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
    signal: controller.signal,
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  if (cookies.length) res.setHeader('set-cookie', cookies);
  res.statusCode = response.status;
  if (!response.body) return void res.end();
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  await new Promise<void>((resolve, reject) => {
    body.on('error', reject);
    res.on('close', resolve);
    body.pipe(res);
  });
}

/** Runs a proxy for a node:http request (the client IP is the socket's remote address). */
export function nodeHandler(proxy: GatehouseProxy): NodeHandler {
  return async (req, res, next) => {
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    try {
      // Express strips its mount path from req.url and keeps it in req.baseUrl.
      const baseUrl = (req as IncomingMessage & { baseUrl?: unknown }).baseUrl;
      const strippedPrefix = typeof baseUrl === 'string' && baseUrl.startsWith('/') ? baseUrl : undefined;
      const response = await proxy(toRequest(req, controller), { clientIp: req.socket.remoteAddress ?? null, strippedPrefix });
      await writeResponse(res, response);
    } catch (err) {
      if (next) return next(err);
      if (res.headersSent) return void res.destroy();
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: ['Gatehouse could not be reached'], errorCode: 'ER-PROXY-UNREACHABLE' }));
    }
  };
}

/** A node:http request handler proxying to Gatehouse: `http.createServer(createNodeProxy({ baseUrl, mountPath: '/api/gatehouse' }))`. */
export function createNodeProxy(options: ProxyOptions): NodeHandler {
  return nodeHandler(createGatehouseProxy({ framework: 'node', ...options }));
}

/**
 * Express middleware proxying to Gatehouse: `app.use('/api/gatehouse', createExpressProxy({ baseUrl }))`,
 * before any body parser (the body is streamed as the browser sent it). Express strips the mount
 * path from `req.url`, so no mountPath is needed.
 */
export function createExpressProxy(options: ProxyOptions): NodeHandler {
  return nodeHandler(createGatehouseProxy({ framework: 'express', ...options }));
}
