/**
 * The HTTP shape of the SCIM service provider: its OpenAPI schemas, the `application/scim+json`
 * answers, and the mapping of every error to the SCIM error schema (RFC 7644 section 3.12), since
 * identity providers parse that and not Gatehouse's own error body.
 */
import { z } from '@hono/zod-openapi';
import { ErrorCodes } from '@gatehouse/shared/wire';
import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { isUniqueViolation } from '../../db/unique-violation';
import { isAppError } from '../../errors';
import { zodMessages } from '../../http/errors';
import { log } from '../../log';
import type { ScimCaller, ScimChange } from '../../services/scim/context';
import { isScimError, scimErrorBody, type ScimErrorBody, type ScimType } from '../../services/scim/errors';
import type { AppEnv } from '../../http/env';
import type { JsonObject } from '../../services/scim/filter-match';
import type { ListResponse } from '../../services/scim/list-response';

export const SCIM_CONTENT_TYPE = 'application/scim+json';

/** The request's SCIM state: the connection its token proved, and what a write changed (for the request log). */
export interface ScimEnv {
  Variables: AppEnv['Variables'] & { scim: ScimCaller; scimChange: ScimChange; scimError: string };
}

export const ScimErrorSchema = z
  .object({ schemas: z.array(z.string()), status: z.string(), scimType: z.string().optional(), detail: z.string().optional() })
  .openapi('ScimError');
/** A SCIM resource (User, Group, ServiceProviderConfig, ResourceType, Schema): schemas plus its attributes. */
export const ScimResourceSchema = z.object({ schemas: z.array(z.string()) }).passthrough().openapi('ScimResource');
export const ScimListResponseSchema = z
  .object({ schemas: z.array(z.string()), totalResults: z.number().int(), startIndex: z.number().int(), itemsPerPage: z.number().int(), Resources: z.array(ScimResourceSchema) })
  .openapi('ScimListResponse');
/** A request body: any JSON object; the service validates it against the resource's schema (invalidValue / invalidSyntax name the attribute). */
export const ScimBodySchema = z.record(z.string(), z.unknown()).openapi('ScimRequestBody');

export const scimJson = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { [SCIM_CONTENT_TYPE]: { schema } } });
export const scimErr = (description: string) => scimJson(ScimErrorSchema, description);
export const scimBody = () => ({ body: { required: true, content: { [SCIM_CONTENT_TYPE]: { schema: ScimBodySchema }, 'application/json': { schema: ScimBodySchema } } } });

export const scimCommonErrors = {
  400: scimErr('Invalid request (scimType and detail say what)'),
  401: scimErr('No valid provisioning connection token'),
  429: { ...scimErr('Too many requests on this connection, or with a wrong token from this client; Retry-After says how many seconds to wait'), headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' as const } } } },
};

/** The refusal of a body over the server's limit (the shared body limit, answered as a SCIM error). */
export const scimBodyErrors = { 413: scimErr('The request body is larger than the server takes') };

/** A SCIM answer: the body as `application/scim+json`, with its ETag and Location when given. */
export function scimAnswer(c: Context, status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return c.body(JSON.stringify(body), status as ContentfulStatusCode, { 'Content-Type': SCIM_CONTENT_TYPE, 'Cache-Control': 'no-store', ...headers });
}

type ScimResourceOut = z.infer<typeof ScimResourceSchema>;
type ScimListOut = z.infer<typeof ScimListResponseSchema>;
const scimHeaders = (headers: Record<string, string>) => ({ 'Content-Type': SCIM_CONTENT_TYPE, 'Cache-Control': 'no-store', ...headers });

/** A resource answered by a route handler (typed as the route declares it), as `application/scim+json`. */
export function scimResource<S extends 200 | 201>(c: Context, status: S, body: JsonObject, headers: Record<string, string> = {}) {
  return c.json(body as ScimResourceOut, status, scimHeaders(headers));
}

/** A ListResponse answered by a route handler, as `application/scim+json`. */
export function scimList(c: Context, body: ListResponse) {
  // Every resource carries `schemas` (toScimUser, toScimGroup and the discovery bodies set it).
  return c.json(body as unknown as ScimListOut, 200, scimHeaders({}));
}

function errorAnswer(c: Context<ScimEnv>, body: ScimErrorBody, extra: Record<string, string> = {}): Response {
  c.set('scimError', body.detail ?? body.status);
  return scimAnswer(c, Number(body.status), body, extra);
}

/** defaultHook of the SCIM routes: a request that fails its declared shape is a SCIM 400. */
export function scimValidationHook(result: { success: boolean; error?: ZodError; target?: string }, c: Context<ScimEnv>): Response | undefined {
  if (result.success || !result.error) return undefined;
  const scimType: ScimType = result.target === 'json' ? 'invalidSyntax' : 'invalidValue';
  return errorAnswer(c, scimErrorBody(400, zodMessages(result.error).join('; '), scimType));
}

/** onError of the SCIM routes: every failure in the SCIM error schema; unknown ones logged by trace id, never shown. */
export const scimOnError: ErrorHandler<ScimEnv> = (err, c) => {
  if (isScimError(err)) return errorAnswer(c, err.toBody());
  if (isAppError(err)) {
    const retry = err.context?.retryAfterSeconds;
    const headers: Record<string, string> = err.status === 429 && typeof retry === 'number' ? { 'Retry-After': String(Math.max(1, Math.ceil(retry))) } : {};
    const scimType: ScimType | undefined = err.code === ErrorCodes.validation ? 'invalidValue' : undefined;
    return errorAnswer(c, scimErrorBody(err.status, err.message, scimType), headers);
  }
  if (err instanceof HTTPException && err.status < 500) return errorAnswer(c, scimErrorBody(err.status, err.status === 413 ? 'Error request is too large' : 'The request body is not valid JSON', err.status === 413 ? undefined : 'invalidSyntax'));
  if (isUniqueViolation(err)) return errorAnswer(c, scimErrorBody(409, 'This already exists (a concurrent request made it)', 'uniqueness'));
  log.error(`[${c.get('traceId') ?? '-'}] SCIM ${c.req.method} ${c.req.path} failed:`, err);
  return errorAnswer(c, scimErrorBody(500, 'Internal error'));
};
