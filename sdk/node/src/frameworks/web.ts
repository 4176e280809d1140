/**
 * The refusal of a guard on web standards (Request → Response), for Next.js and Hono.
 */
import { errorBody, isGatehouseAuthError } from '../errors.js';

/** The refusal as a Response with the Gatehouse error body. */
export function refusalResponse(err: unknown): Response {
  if (!isGatehouseAuthError(err)) throw err;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (err.status === 401) headers['www-authenticate'] = 'Bearer';
  return new Response(JSON.stringify(errorBody(err)), { status: err.status, headers });
}
