import { ErrorCodes, TRACE_ID_HEADER } from '@gatehouse/shared/wire';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Config } from '../config';
import { randomHex } from '../crypto';
import { AppError } from '../errors';
import { bodyVerdict, limitsItsOwnBody } from './body-limit';
import { compressAnswer } from './compression';
import { checkControlCharacters } from './control-characters';
import type { AppEnv } from './env';
import { onError } from './errors';
import { applyCors, applySecurityHeaders, corsPreflight, requestClientOf, setHeader } from './middleware';

/**
 * The middleware every route runs behind, as two layers where there were seven (issue 17: each
 * layer is an async call, a promise and a turn of the microtask queue per request, and the seven
 * cost a token grant about 5% of its main thread).
 *
 * answerEdge, outermost: what every answer gets, errors included (compose turns an error thrown
 * inside into onError's answer before it comes back here). In order:
 * - a random trace id, set before the route runs (server logs print it) and sent as `x-trace-id`;
 * - CORS for the configured origins, except on the paths that answer CORS themselves (`/cdn` and
 *   the OAuth endpoints any page may call): a preflight is answered here, before anything else runs;
 * - JSON compression (compression.ts), then the CORS headers, then the baseline security headers.
 */
export function answerEdge(config: Pick<Config, 'allowedOrigins' | 'publicOrigin'>, corsAnsweredByRoute: (path: string) => boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // From crypto.ts's buffer of random bytes: randomBytes made a call into OpenSSL per request (2% of a refresh).
    const id = randomHex(12);
    c.set('traceId', id);
    const cors = !corsAnsweredByRoute(c.req.path);
    const preflight = cors ? corsPreflight(c, config) : null;
    if (preflight) c.res = preflight;
    else {
      await next();
      try {
        const compressing = compressAnswer(c);
        if (compressing) await compressing;
      } catch (error) {
        // A body that could not be read: the error's answer, with the headers below like any other.
        c.res = undefined;
        c.res = await onError(error instanceof Error ? error : new Error(String(error)), c);
      }
      if (cors) applyCors(c, config);
    }
    applySecurityHeaders(c);
    setHeader(c, TRACE_ID_HEADER, id);
  };
}

/**
 * requestEdge, inside answerEdge: what every request must pass before its route. In order:
 * - its body within `maxBodyBytes` (413; a Content-Length is judged alone, a chunked body counted as
 *   it streams), except a route that limits its own body after its guard (body-limit.ts);
 * - no control character in its path, query or body (400; control-characters.ts);
 * - its `client` (IP, user agent, locale) set for the route.
 */
export function requestEdge(config: Pick<Config, 'maxBodyBytes' | 'trustProxy'>): MiddlewareHandler<AppEnv> {
  const tooLarge = (): never => {
    throw new AppError(ErrorCodes.payloadTooLarge, 413, 'Error request is too large');
  };
  const streamed = bodyLimit({ maxSize: config.maxBodyBytes, onError: tooLarge });
  const checked = async (c: Context<AppEnv>, next: Next): Promise<void> => {
    const checking = checkControlCharacters(c);
    if (checking) await checking;
    c.set('client', requestClientOf(c, config));
    await next();
  };
  return (c, next) => {
    const verdict = bodyVerdict(c, config.maxBodyBytes, limitsItsOwnBody);
    if (verdict === 'too large') tooLarge();
    return verdict === 'count as it streams' ? streamed(c, () => checked(c, next)) : checked(c, next);
  };
}
