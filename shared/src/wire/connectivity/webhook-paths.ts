/**
 * Paths and constants of webhooks (issue 16; seed 001 sections 3 "Connectivity", 4 "Webhook test:
 * success if status 200 or 201; retry success if 202", 7 "webhook delete, test, retry, log (id,
 * offset, limit)", 9 "Webhook log limit 10, offset 0"): plain data, no zod, so the admin portal can
 * import them without the schemas (webhooks.ts re-exports them for the server).
 */
const id = '{id}';
const logId = '{logId}';
export const WebhookPaths = {
  /** GET: the tenant's endpoints (never a secret). POST { _id?, url, description, eventKeys, isActive }: creates (201, with the secret once) or, with _id, updates (200). */
  webhooks: '/connectivity/resources/webhooks/v1',
  /** DELETE: removes the endpoint (204); its pending deliveries are cancelled. */
  webhook: `/connectivity/resources/webhooks/v1/${id}`,
  /** POST: a new secret, answered once; the previous one keeps signing for 24 hours. */
  webhookRotateSecret: `/connectivity/resources/webhooks/v1/${id}/rotate-secret`,
  /** POST { eventKey }: a signed delivery of the event's example, made now; success on 200 or 201. */
  webhookTest: `/connectivity/resources/webhooks/v1/${id}/test`,
  /** GET ?offset=0&limit=10: the endpoint's delivery attempts, newest first. */
  webhookLogs: `/connectivity/resources/webhooks/v1/${id}/logs`,
  /** POST: delivers the attempt's message again now (202 { status: 'queued' }). */
  webhookLogRetry: `/connectivity/resources/webhooks/v1/logs/${logId}/retry`,
} as const;

/** Seed 001 section 9: the log's default page. */
export const WEBHOOK_LOG_DEFAULT_OFFSET = 0;
export const WEBHOOK_LOG_DEFAULT_LIMIT = 10;
export const WEBHOOK_LOG_MAX_LIMIT = 100;
/** The log keeps this many attempts per endpoint; older ones are dropped. */
export const WEBHOOK_LOG_SIZE = 1000;

/** Standard Webhooks 1.0: secrets are `whsec_` + base64 of random bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** After a rotation the previous secret keeps signing this long (both signatures are sent). */
export const WEBHOOK_PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;
/** Svix's schedule: the delays after each failed attempt (attempts at 0 s, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h). */
export const WEBHOOK_RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000] as const;
/** An endpoint whose deliveries keep failing this long is disabled (Svix: 5 days). */
export const WEBHOOK_DISABLE_AFTER_MS = 5 * 24 * 3_600_000;
/** A delivery succeeds on a 2xx answered within this time. */
export const WEBHOOK_TIMEOUT_MS = 15_000;
/** The most of a receiver's answer body read. */
export const WEBHOOK_RESPONSE_BODY_LIMIT = 64 * 1024;
/** The most of a receiver's answer body kept in the log; a longer one is cut there and marked with WEBHOOK_TRUNCATED_MARK. */
export const WEBHOOK_STORED_RESPONSE_BODY_LIMIT = 4 * 1024;
/** Appended to a logged answer body that was cut. */
export const WEBHOOK_TRUNCATED_MARK = '\n[truncated: only the first 4 KB of the answer are kept]';
/**
 * The one failure message of a delivery refused by the SSRF guard or that reached no receiver (name
 * not resolved, private address, connection refused or reset...): the log and the test route never
 * tell these apart, or they would let an admin probe internal names and scan ports. The detail is in
 * the server's log only.
 */
export const WEBHOOK_UNREACHABLE_MESSAGE = 'Not delivered: the target could not be reached or is not allowed';
/** The failure message of a delivery that got no answer within WEBHOOK_TIMEOUT_MS. */
export const WEBHOOK_TIMEOUT_MESSAGE = 'Not delivered: no answer within 15 s';
/** A receiver answering with this header and value stops the message's retries. */
export const WEBHOOK_ABORT_HEADER = 'webhook-delivery';
export const WEBHOOK_ABORT_VALUE = 'abort-message';
/** Most endpoints a tenant may have. */
export const MAX_WEBHOOK_ENDPOINTS = 50;

export const WebhookAttemptStatuses = ['pending', 'success', 'failed'] as const;
export type WebhookAttemptStatus = (typeof WebhookAttemptStatuses)[number];
