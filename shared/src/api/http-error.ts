/** Turns a failed HTTP response into the seed's GatehouseError (seed 000 section 8). */
import type { GatehouseError } from '../core/types';
import { createGatehouseError, ErrorMessages, GENERIC_ERROR_CODE } from '../errors';
import { GENERIC_ERROR_MESSAGE, TRACE_ID_HEADER } from '../wire/error-codes';

const UNPARSEABLE = Symbol('unparseable');

function parseBody(data: unknown): unknown {
  if (data === undefined || data === null) return UNPARSEABLE;
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return UNPARSEABLE;
  }
}

/**
 * `data` is the response body as ky pre-read it (parsed JSON, text, or undefined).
 * 413 -> 'Error request is too large'; else errors joined with ', '; else 'Error {status} - {statusText}';
 * a body that cannot be parsed gives the generic message.
 */
export function errorFromResponse(response: Response, data: unknown): GatehouseError {
  const traceId = response.headers.get(TRACE_ID_HEADER) ?? undefined;
  const status = response.status;
  if (status === 413) return createGatehouseError(ErrorMessages.requestTooLarge, 413, { traceId });
  const body = parseBody(data);
  if (body === UNPARSEABLE) return createGatehouseError(GENERIC_ERROR_MESSAGE, status, { traceId, errorCode: GENERIC_ERROR_CODE });
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const errors = Array.isArray(record.errors) ? record.errors.filter((e): e is string => typeof e === 'string') : [];
  const message = errors.length > 0 ? errors.join(', ') : `Error ${status} - ${response.statusText}`;
  const errorCode = typeof record.errorCode === 'string' ? record.errorCode : undefined;
  const errorContext =
    typeof record.errorContext === 'object' && record.errorContext !== null && !Array.isArray(record.errorContext)
      ? (record.errorContext as Record<string, unknown>)
      : undefined;
  return createGatehouseError(message, status, { traceId, errorCode, errorContext });
}
