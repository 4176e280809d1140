import type { OpenAPIHono } from '@hono/zod-openapi';
import { negotiateEncoding, type ContentCoding } from './accept-encoding';
import { compressBody } from './compression';
import type { AppEnv } from './env';

type Document = ReturnType<OpenAPIHono<AppEnv>['getOpenAPIDocument']>;
type Operation = { parameters?: unknown[]; requestBody?: unknown; security?: unknown[]; responses?: Record<string, unknown> };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const errorBody = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } });

/**
 * Answers that come from the server's shared layers rather than from a route, added to every
 * operation they apply to unless the route describes its own: a route file cannot forget them,
 * and the document says what a client really receives.
 * - 400: the validation hook (any parameter or body), and the refusal of control characters, which
 *   applies to the path and query of every operation;
 * - 413: the body limit, for operations with a body;
 * - 431: node's limit on the request line and headers, before any route runs;
 * - 401, 403 and 404 for bearer operations: no valid token; the tenant's IP restrictions keep the
 *   caller's network out (ER-IP-RESTRICTED, checked wherever a token is verified); or a tenant (the
 *   token's, or `?tenantId=`) that is not one of the caller's;
 * - 403 for operations whose answer carries an `accessToken` (a sign-in, refresh or other start of a
 *   session): every session start checks the tenant's IP restrictions (ER-IP-RESTRICTED).
 */
export function withSharedResponses(document: Document): Document {
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      const responses = (operation.responses ??= {});
      const add = (status: string, response: unknown) => void (responses[status] ??= response);
      add('400', errorBody('Invalid request: a parameter or the body fails validation, or holds control characters'));
      if (operation.requestBody) add('413', errorBody('Error request is too large'));
      add('431', { description: 'The request line or headers are over the server limit (no body)' });
      if (operation.security?.length) {
        add('401', errorBody('Missing, invalid or expired bearer token, or a session that ended'));
        add('403', errorBody("ER-IP-RESTRICTED: access from the caller's network is not allowed by the account's administrator"));
        add('404', errorBody('Tenant not found: the tenant asked for is not one of the caller’s'));
      }
      const success = JSON.stringify([responses['200'], responses['201']]);
      if (success.includes('"accessToken"')) add('403', errorBody("ER-IP-RESTRICTED: access from the caller's network is not allowed by the account's administrator"));
    }
  }
  return document;
}

/**
 * Serves the OpenAPI document at `path`, built once on first request from the registered routes. It
 * never changes within a process, so each coding a client asks for (br, gzip) is compressed once,
 * at the best ratio, and kept: the document is over 300 KB as JSON.
 */
export function serveOpenApiDocument(app: OpenAPIHono<AppEnv>, path: string, config: Parameters<OpenAPIHono<AppEnv>['getOpenAPIDocument']>[0]): void {
  let text: string | undefined;
  const encoded = new Map<ContentCoding, Promise<Buffer>>();
  app.get(path, async (c) => {
    text ??= JSON.stringify(withSharedResponses(app.getOpenAPIDocument(config)));
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Vary: 'Accept-Encoding' };
    const [coding = 'identity'] = negotiateEncoding(c.req.header('accept-encoding'));
    if (coding === 'identity') return c.body(text, 200, headers);
    let body = encoded.get(coding);
    if (!body) encoded.set(coding, (body = compressBody(Buffer.from(text), coding, false)));
    const bytes = await body;
    return c.body(new Uint8Array(bytes), 200, { ...headers, 'Content-Encoding': coding, 'Content-Length': String(bytes.length) });
  });
}
