import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { OperatorPaths } from '@gatehouse/shared/wire';
import type { AppEnv } from './env';

/**
 * Requests whose route limits its body itself, after its guard has authenticated the caller
 * (a larger limit than the server's): POST of a CDN version (routes/operator/cdn.ts). Nothing
 * before the route reads their body, so an unauthenticated caller gets its 401 unread.
 */
export function limitsItsOwnBody(method: string, path: string): boolean {
  return method === 'POST' && path === OperatorPaths.cdnPublish;
}

/**
 * Refuses request bodies over `maxSize` bytes through `onError`. A body with a Content-Length (and
 * no Transfer-Encoding) is judged by that header alone, which node's parser holds the body to, as
 * hono's bodyLimit() does; unlike it, without touching `c.req.raw.body`: on @hono/node-server that
 * turns the request into a web Request with a web stream over the socket (about 10% of a token
 * grant), and the route's own read can then no longer take the body straight from node. A chunked
 * body is counted as it streams, by hono's bodyLimit().
 */
export function limitBody(options: { maxSize: number; onError: (c: Context<AppEnv>) => Response | Promise<Response>; skip?: (method: string, path: string) => boolean }): MiddlewareHandler<AppEnv> {
  const streamed = bodyLimit(options);
  return async (c, next) => {
    const verdict = bodyVerdict(c, options.maxSize, options.skip);
    if (verdict === 'too large') return options.onError(c);
    return verdict === 'count as it streams' ? streamed(c, next) : next();
  };
}

/**
 * How a request's body meets `maxSize` (limitBody's rule): no body to judge (GET, HEAD, or a request
 * `skip` names), a Content-Length within it or over it, or a chunked body to count as it streams.
 */
export function bodyVerdict(c: Context, maxSize: number, skip?: (method: string, path: string) => boolean): 'fits' | 'too large' | 'count as it streams' {
  const method = c.req.method;
  if (method === 'GET' || method === 'HEAD' || skip?.(method, c.req.path)) return 'fits';
  const length = c.req.header('content-length');
  if (length === undefined || c.req.header('transfer-encoding') !== undefined) return 'count as it streams';
  return Number.parseInt(length || '0', 10) > maxSize ? 'too large' : 'fits';
}
