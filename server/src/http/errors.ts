import { z } from '@hono/zod-openapi';
import { ErrorCodes, GENERIC_ERROR_MESSAGE, type ErrorBody } from '@gatehouse/shared/wire';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { isUniqueViolation } from '../db/unique-violation';
import { isAppError } from '../errors';
import type { AppEnv } from './env';
import { log } from '../log';

/** The error body in the OpenAPI document (the plain type lives in the wire's error-codes.ts). */
export const ErrorBodySchema = z
  .object({ errors: z.array(z.string()), errorCode: z.string().optional(), errorContext: z.record(z.string(), z.unknown()).optional() })
  .openapi('ErrorBody');

export const errorResponses = {
  400: { description: 'Invalid request', content: { 'application/json': { schema: ErrorBodySchema } } },
} as const;

/** The 429 every rate-limited route documents; the answer carries a Retry-After header. */
export const rateLimitedResponse = {
  description: 'Too many attempts; Retry-After says how many seconds to wait',
  headers: { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } } },
  content: { 'application/json': { schema: ErrorBodySchema } },
} as const;

export function errorJson(c: Context, status: number, body: ErrorBody): Response {
  return c.json(body, status as ContentfulStatusCode);
}

/** Turns zod issues into sentences that name the field, e.g. "email: Invalid email address". */
export function zodMessages(error: ZodError): string[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join('.');
    const message = issue.code === 'invalid_type' && /received undefined/.test(issue.message) ? 'Required' : issue.message;
    return field ? `${field}: ${message}` : message;
  });
}

/** defaultHook for every OpenAPIHono: a failed validation becomes a 400 error body. */
export function validationHook(result: { success: boolean; error?: ZodError }, c: Context): Response | undefined {
  if (result.success || !result.error) return undefined;
  return errorJson(c, 400, { errors: zodMessages(result.error), errorCode: ErrorCodes.validation });
}

/** Maps every thrown error once; unknown errors are logged (by trace id) and never shown. */
export const onError: ErrorHandler<AppEnv> = (err, c) => {
  if (isAppError(err)) {
    const res = errorJson(c, err.status, { errors: [err.message], errorCode: err.code, ...(err.context ? { errorContext: err.context } : {}) });
    // RFC 9110: a 429 tells the client how long to wait, in seconds.
    const retryAfter = err.context?.retryAfterSeconds;
    if (err.status === 429 && typeof retryAfter === 'number') res.headers.set('Retry-After', String(Math.max(1, Math.ceil(retryAfter))));
    return res;
  }
  if (err instanceof HTTPException && err.status < 500) {
    const status = err.status;
    const message = status === 413 ? 'Error request is too large' : err.message || 'Bad request';
    return errorJson(c, status, { errors: [message], errorCode: status === 413 ? ErrorCodes.payloadTooLarge : ErrorCodes.validation });
  }
  if (isUniqueViolation(err)) {
    // A unique index refused a write that no service mapped to its own 409 (a race its check missed).
    return errorJson(c, 409, { errors: ['This already exists'], errorCode: ErrorCodes.alreadyExists });
  }
  if (clientClosed(err)) {
    // Not a server error: the client went away while its request was being read.
    log.info(`[${c.get('traceId') ?? '-'}] ${c.req.method} ${c.req.path}: the client closed the connection before its request was read`);
    return errorJson(c, 400, { errors: ['The request was aborted'], errorCode: ErrorCodes.validation });
  }
  // Only the stack and trace id: request bodies, cookies and headers may hold secrets.
  log.error(`[${c.get('traceId') ?? '-'}] ${c.req.method} ${c.req.path} failed:`, err);
  return errorJson(c, 500, { errors: [GENERIC_ERROR_MESSAGE], errorCode: ErrorCodes.generic });
};

/**
 * True for node's error of a request body whose client closed the connection mid-way. Only that
 * error: a real failure of a request whose client has left meanwhile is still logged as one.
 */
function clientClosed(err: unknown): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === 'ECONNRESET' && err.message === 'aborted';
}

export const notFound: NotFoundHandler<AppEnv> = (c) => errorJson(c, 404, { errors: ['Not found'], errorCode: ErrorCodes.notFound });
