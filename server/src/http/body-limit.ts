import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { CDN_PUBLISH_MAX_BODY_BYTES, OperatorPaths } from '@gatehouse/shared/wire';
import type { AppEnv } from './env';

/** The routes that take a larger body than the server's limit, each with its own (exact path). */
const LARGER_BODIES: Record<string, number> = { [OperatorPaths.cdnPublish]: CDN_PUBLISH_MAX_BODY_BYTES };

/**
 * Refuses request bodies over `maxSize` bytes through `onError`. A body with a Content-Length (and
 * no Transfer-Encoding) is judged by that header alone, which node's parser holds the body to, as
 * hono's bodyLimit() does; unlike it, without touching `c.req.raw.body`: on @hono/node-server that
 * turns the request into a web Request with a web stream over the socket (about 10% of a token
 * grant), and the route's own read can then no longer take the body straight from node. A chunked
 * body is counted as it streams, by hono's bodyLimit().
 */
export function limitBody(options: { maxSize: number; onError: (c: Context<AppEnv>) => Response | Promise<Response> }): MiddlewareHandler<AppEnv> {
  const streamed = bodyLimit(options);
  const larger = new Map(Object.entries(LARGER_BODIES).map(([p, maxSize]) => [p, { maxSize, streamed: bodyLimit({ ...options, maxSize }) }]));
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const route = larger.get(c.req.path);
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number.parseInt(length || '0', 10) > (route?.maxSize ?? options.maxSize) ? options.onError(c) : next();
    }
    return (route?.streamed ?? streamed)(c, next);
  };
}
