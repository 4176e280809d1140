/** Shorthands for the OpenAPI shape of route declarations, shared by every route file. */
import type { z } from '@hono/zod-openapi';
import { ErrorBodySchema } from '../http/errors';

/** A JSON response (or content) described by `schema`. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });
/** An error response: the seed's `{ errors, errorCode, errorContext }` body. */
export const err = (description: string) => json(ErrorBodySchema, description);
/** A required JSON request body. */
export const body = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { 'application/json': { schema } } } });
