/**
 * Wire schemas of webhooks (issue 16; seed 001 sections 3 "Connectivity: Webhook: _id; log query id,
 * offset (default 0), limit (default 10)", 4, 5 "Saving ... updates when an id exists, otherwise
 * creates", 7). The POST creates an endpoint and answers exactly `{ _id, url, eventKeys, isActive,
 * secret }`, the secret only this once (and at a rotation); lists and logs never carry a secret.
 */
import { z } from 'zod';
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_LOG_MAX_LIMIT, WebhookAttemptStatuses } from './webhook-paths';

export * from './webhook-paths';

/** A catalogue key in dot.case (`user.invited`); the service checks it is one of the catalogue's. */
const eventKey = z.string().trim().min(3).max(100).regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/, 'an event key in dot.case, e.g. user.invited');
const endpointId = z.string().trim().min(1).max(64);

/** Seed: "saving updates when an id exists, otherwise creates". */
export const SaveWebhookRequest = z
  .object({
    _id: endpointId.optional(),
    /** https outside dev mode; never a private, loopback or link-local host. */
    url: z.string().trim().min(1).max(2048),
    description: z.string().trim().max(500).default(''),
    eventKeys: z.array(eventKey).min(1).max(MAX_WEBHOOK_ENDPOINTS * 4),
    isActive: z.boolean().default(true),
  })
  .strict();
export type SaveWebhookRequest = z.input<typeof SaveWebhookRequest>;

/** An endpoint as lists show it: never its secret. Times are ms since the epoch. */
export const WebhookEndpoint = z.object({
  _id: z.string(),
  url: z.string(),
  description: z.string(),
  eventKeys: z.array(z.string()),
  isActive: z.boolean(),
  createdAt: z.number().int(),
  /** Set when the endpoint was disabled after failing for 5 days (null otherwise). */
  disabledAt: z.number().int().nullable(),
  disabledReason: z.string().nullable(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointList = z.array(WebhookEndpoint);
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>;

/** The create answer: exactly these fields, the secret shown this once. */
export const CreatedWebhook = z.object({ _id: z.string(), url: z.string(), eventKeys: z.array(z.string()), isActive: z.boolean(), secret: z.string() });
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

/** The rotate answer: the new secret, shown this once. */
export const RotatedWebhookSecret = z.object({ secret: z.string() });
export type RotatedWebhookSecret = z.infer<typeof RotatedWebhookSecret>;

export const TestWebhookRequest = z.object({ eventKey }).strict();
export type TestWebhookRequest = z.infer<typeof TestWebhookRequest>;

/** Seed 001 section 4: success only when the receiver answered 200 or 201; the attempt is in the log as `logId`. */
export const TestWebhookResult = z.object({
  status: z.enum(['success', 'failed']),
  statusCode: z.number().int().nullable(),
  message: z.string(),
  logId: z.string(),
});
export type TestWebhookResult = z.infer<typeof TestWebhookResult>;

export const WebhookLogQuery = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
  limit: z.coerce.number().int().min(1).max(WEBHOOK_LOG_MAX_LIMIT).optional(),
});

/** One delivery attempt: what was sent (heads and body) and what came back (capped at 64 KB). */
export const WebhookAttempt = z.object({
  id: z.string(),
  eventKey: z.string(),
  /** The message id (`webhook-id`), the same for every attempt of one event. */
  eventId: z.string(),
  status: z.enum(WebhookAttemptStatuses),
  attempt: z.number().int(),
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  error: z.string().nullable(),
  requestHeaders: z.record(z.string(), z.string()),
  requestBody: z.string(),
  responseHeaders: z.record(z.string(), z.string()).nullable(),
  responseBody: z.string().nullable(),
  createdAt: z.number().int(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookLogPage = z.object({ rows: z.array(WebhookAttempt), total: z.number().int() });
export type WebhookLogPage = z.infer<typeof WebhookLogPage>;

/** Seed 001 section 4: "retry success if 202". */
export const WebhookRetryResult = z.object({ status: z.literal('queued') });
export type WebhookRetryResult = z.infer<typeof WebhookRetryResult>;

/** The JSON body of every delivery (Standard Webhooks' recommended shape). */
export interface WebhookPayload {
  type: string;
  /** ISO 8601 time the event happened. */
  timestamp: string;
  data: Record<string, unknown> & { tenantId: string; actor: { userId: string | null; email: string | null } | null };
}
