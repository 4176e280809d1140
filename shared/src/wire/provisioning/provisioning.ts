/**
 * Wire schemas of SCIM provisioning connections (seed 001 sections 3, 7; issue 15): a tenant admin
 * creates a connection with `{ source }` and gets `{ id, source, token, createdAt }`, the token only
 * this once; lists carry the count of users the connection made, never a token.
 */
import { z } from 'zod';
import { ScimSources } from './paths';

export * from './paths';

export const CreateScimConnectionRequest = z.object({ source: z.enum(ScimSources) }).strict();
export type CreateScimConnectionRequest = z.infer<typeof CreateScimConnectionRequest>;

/** A connection as lists show it. */
export const ScimConnection = z.object({
  id: z.string(),
  source: z.enum(ScimSources),
  createdAt: z.string(),
  /** When the token was last rotated (null: never). */
  rotatedAt: z.string().nullable(),
  /** Users of the tenant this connection provisioned (seed: "count of users"). */
  usersCount: z.number().int(),
  groupsCount: z.number().int(),
  /** The SCIM base URL to give the identity provider. */
  baseUrl: z.string(),
});
export type ScimConnection = z.infer<typeof ScimConnection>;

export const ScimConnectionList = z.object({ items: z.array(ScimConnection) });
export type ScimConnectionList = z.infer<typeof ScimConnectionList>;

/** The POST answer (seed 001: `{ id, source, token, createdAt }`): the bearer token, shown this once. */
export const CreatedScimConnection = z.object({ id: z.string(), source: z.enum(ScimSources), token: z.string(), createdAt: z.string(), baseUrl: z.string() });
export type CreatedScimConnection = z.infer<typeof CreatedScimConnection>;

/** The rotate answer: the new token, shown this once. */
export const RotatedScimToken = z.object({ id: z.string(), token: z.string(), rotatedAt: z.string() });
export type RotatedScimToken = z.infer<typeof RotatedScimToken>;

export const DeleteScimConnectionQuery = z.object({
  /** true: the users (and groups) the connection made are removed from the tenant too. */
  deleteAll: z.enum(['true', 'false']).optional(),
});

/** One SCIM request of a connection (never its token, never a secret). */
export const ScimRequestLogEntry = z.object({
  id: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  createdAt: z.string(),
  durationMs: z.number().int(),
  /** The SCIM resource the request touched, when any. */
  resourceType: z.enum(['User', 'Group']).nullable(),
  resourceId: z.string().nullable(),
  /** What changed: attribute -> [before, after]; null when nothing changed. */
  diff: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])).nullable(),
  /** The SCIM error detail when the request failed. */
  error: z.string().nullable(),
});
export type ScimRequestLogEntry = z.infer<typeof ScimRequestLogEntry>;

export const ScimRequestLogQuery = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

export const ScimRequestLogPage = z.object({ items: z.array(ScimRequestLogEntry), total: z.number().int() });
export type ScimRequestLogPage = z.infer<typeof ScimRequestLogPage>;
