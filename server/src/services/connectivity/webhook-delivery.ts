/**
 * Webhook delivery (issue 16): the consumer that turns an event into one `webhook` job per active
 * endpoint of the tenant subscribed to its key, and the job handler that signs and sends it.
 *
 * - The message body is fixed when the event is dispatched (`{ type, timestamp, data: { ...data,
 *   tenantId, actor } }`) and stored in the job, so every retry sends the same bytes under the same
 *   `webhook-id` (the event id); `webhook-timestamp` is the attempt's own time.
 * - Success is a 2xx within 15 s (guardedFetch's deadline). Anything else is retried on Svix's
 *   schedule (0 s, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), unless the receiver answered
 *   `webhook-delivery: abort-message`, which stops the message's retries.
 * - Every attempt is a `webhook_attempts` row: outcome, duration, request and answer heads and bodies
 *   (the answer's body read up to 64 KB, its first 4 KB kept); an endpoint's log keeps its newest 1,000.
 * - A delivery that reached no receiver, or that the SSRF guard refused, is logged with one generic
 *   message whatever the cause (WEBHOOK_UNREACHABLE_MESSAGE), a timeout with its own; the cause goes to
 *   the server's log only, so the log and the test route are no probe of internal names or ports.
 * - An endpoint's first failure starts `failing_since`; a success clears it. A failure 5 days or
 *   more after `failing_since` disables the endpoint, notifies the tenant's admins and raises
 *   `webhook.endpoint_disabled`, in one transaction.
 */
import {
  WEBHOOK_ABORT_HEADER,
  WEBHOOK_ABORT_VALUE,
  WEBHOOK_DISABLE_AFTER_MS,
  WEBHOOK_LOG_SIZE,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_STORED_RESPONSE_BODY_LIMIT,
  WEBHOOK_TIMEOUT_MESSAGE,
  WEBHOOK_TRUNCATED_MARK,
  WEBHOOK_UNREACHABLE_MESSAGE,
  type WebhookPayload,
} from '@gatehouse/shared/wire';
import type { Config } from '../../config';
import { decrypt, encrypt, newId } from '../../crypto';
import type { Db } from '../../db';
import {
  clearWebhookFailing,
  disableWebhookEndpoint,
  findWebhookEndpoint,
  insertWebhookAttempt,
  listActiveWebhookEndpoints,
  markWebhookFailing,
  type WebhookEndpointRow,
} from '../../db/queries/webhooks';
import { log, reasonOf } from '../../log';
import { raiseEvent, type EventActor, type RaisedEvent } from './events';
import { cancelJobsForTarget, enqueueJob, type JobHandler } from './jobs';
import { notifyTenantAdmins } from './notifications';
import { guardedFetch, isOutboundError, type OutboundPolicy, type Resolver } from './outbound';
import { webhookHeaders } from './signing';
import type { EventConsumer } from './worker';

export interface WebhookDeliveryDeps {
  db: Db;
  config: Pick<Config, 'dev' | 'keyEncryptionKey'>;
  /** The resolver of outbound calls (the system's by default; tests inject one). */
  resolve?: Resolver;
}

/** What a `webhook` job carries: the message, fixed at dispatch. */
export interface WebhookJobPayload {
  eventKey: string;
  body: string;
}

/** The outcome of one attempt, as the log and the test route show it. */
export interface WebhookAttemptOutcome {
  attemptId: string;
  /** 2xx (the test route narrows this to 200 or 201). */
  ok: boolean;
  statusCode: number | null;
  message: string;
  /** The receiver asked to stop retrying this message. */
  abort: boolean;
}

const USER_AGENT = 'Gatehouse-Webhooks/1.0';

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, never cutting a character in two. */
export function utf8Prefix(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // back to the first byte of the character cut
  return bytes.subarray(0, end).toString('utf8');
}

/** A receiver's answer body as the log keeps it: NULs replaced (a PostgreSQL text column refuses them), at most 4 KB, marked when cut. */
export function storedResponseBody(body: string, readTruncated: boolean): string {
  const clean = body.replace(/\u0000/g, '\uFFFD');
  const kept = utf8Prefix(clean, WEBHOOK_STORED_RESPONSE_BODY_LIMIT);
  return kept.length < clean.length || readTruncated ? `${kept}${WEBHOOK_TRUNCATED_MARK}` : kept;
}

/** A secret as stored: sealed when a key encryption key is configured. */
export function sealWebhookSecret(secret: string, config: Pick<Config, 'keyEncryptionKey'>): string {
  return config.keyEncryptionKey ? encrypt(secret, config.keyEncryptionKey) : secret;
}

/** The secrets that sign now: the current one, and the previous one during the 24 hours after a rotation. */
export function signingSecrets(endpoint: WebhookEndpointRow, config: Pick<Config, 'keyEncryptionKey'>, now: number): string[] {
  const secrets = [decrypt(endpoint.secret, config.keyEncryptionKey)];
  if (endpoint.previous_secret && endpoint.previous_secret_expires_at !== null && Number(endpoint.previous_secret_expires_at) > now) {
    secrets.push(decrypt(endpoint.previous_secret, config.keyEncryptionKey));
  }
  return secrets;
}

/** The message of an event (Standard Webhooks' recommended `{ type, timestamp, data }`). */
export function webhookBody(key: string, occurredAt: number, tenantId: string, data: Record<string, unknown>, actor: EventActor | null): string {
  const payload: WebhookPayload = { type: key, timestamp: new Date(occurredAt).toISOString(), data: { ...data, tenantId, actor: actor ? { userId: actor.userId, email: actor.email } : null } };
  return JSON.stringify(payload);
}

export const webhookPolicy = (deps: WebhookDeliveryDeps): OutboundPolicy => ({ allowPrivate: deps.config.dev, resolve: deps.resolve });

export const parseEventKeys = (stored: string): string[] => {
  const keys = JSON.parse(stored) as unknown;
  return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
};

/**
 * Sends one signed message to an endpoint now and records the attempt. Never throws for the
 * receiver's sake: a refusal, timeout or broken connection is a failed outcome.
 */
export async function deliverWebhook(
  deps: WebhookDeliveryDeps,
  endpoint: WebhookEndpointRow,
  message: { eventId: string; eventKey: string; body: string },
  meta: { jobId: string | null; attempt: number },
  now: number,
): Promise<WebhookAttemptOutcome> {
  const headers = { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...webhookHeaders(signingSecrets(endpoint, deps.config, now), message.eventId, Math.floor(now / 1000), message.body) };
  const started = performance.now();
  let outcome: Omit<WebhookAttemptOutcome, 'attemptId'>;
  let response: { headers: Record<string, string>; body: string } | null = null;
  let durationMs: number;
  try {
    const res = await guardedFetch(endpoint.url, { method: 'POST', headers, body: message.body }, webhookPolicy(deps));
    durationMs = res.durationMs;
    response = { headers: res.headers, body: storedResponseBody(res.body, res.truncated) };
    const ok = res.status >= 200 && res.status < 300;
    const abort = (res.headers[WEBHOOK_ABORT_HEADER] ?? '').trim().toLowerCase() === WEBHOOK_ABORT_VALUE;
    outcome = {
      ok,
      statusCode: res.status,
      abort: !ok && abort,
      message: ok ? `Receiver answered ${res.status}` : res.status >= 300 && res.status < 400 ? `Receiver answered ${res.status} (redirects are not followed)` : `Receiver answered ${res.status}${abort ? ' with webhook-delivery: abort-message (no more retries)' : ''}`,
    };
  } catch (err) {
    durationMs = Math.round(performance.now() - started);
    const timedOut = isOutboundError(err) && err.reason === 'timeout';
    // The cause (refused address, unresolved name, socket code) is for the operator only: never the URL, which may carry a receiver's token.
    if (!timedOut) log.warn(`webhook delivery to endpoint ${endpoint.id} (tenant ${endpoint.tenant_id}) not made:`, isOutboundError(err) ? `${err.reason}: ${err.message}` : reasonOf(err));
    outcome = { ok: false, statusCode: null, abort: false, message: timedOut ? WEBHOOK_TIMEOUT_MESSAGE : WEBHOOK_UNREACHABLE_MESSAGE };
  }
  const attemptId = newId();
  await insertWebhookAttempt(deps.db, {
    id: attemptId,
    endpoint_id: endpoint.id,
    tenant_id: endpoint.tenant_id,
    job_id: meta.jobId,
    event_id: message.eventId,
    event_key: message.eventKey,
    attempt: meta.attempt,
    status: outcome.ok ? 'success' : 'failed',
    status_code: outcome.statusCode,
    duration_ms: durationMs,
    error: outcome.ok ? null : outcome.message,
    request_headers: JSON.stringify(headers),
    request_body: message.body,
    response_headers: response ? JSON.stringify(response.headers) : null,
    response_body: response ? response.body : null,
    created_at: now,
  }, WEBHOOK_LOG_SIZE);
  return { attemptId, ...outcome };
}

/** Disables an endpoint that kept failing: notification, event and cancelled deliveries commit together. */
async function disableFailingEndpoint(db: Db, endpoint: WebhookEndpointRow, now: number): Promise<void> {
  const since = new Date(Number(endpoint.failing_since)).toISOString();
  const reason = `Deliveries failing since ${since}`;
  await db.transaction().execute(async (trx) => {
    if (!(await disableWebhookEndpoint(trx, endpoint.id, reason, now))) return;
    await cancelJobsForTarget(trx, 'webhook', endpoint.id, now);
    await notifyTenantAdmins(
      trx,
      {
        tenantId: endpoint.tenant_id,
        category: 'webhooks',
        severity: 'critical',
        title: 'Webhook endpoint disabled',
        body: `The webhook endpoint ${endpoint.url} failed every delivery for 5 days (since ${since}) and was disabled. Fix the receiver, then enable the endpoint again.`,
        link: null,
      },
      now,
    );
    await raiseEvent(trx, { tenantId: endpoint.tenant_id, key: 'webhook.endpoint_disabled', data: { endpointId: endpoint.id, url: endpoint.url, reason }, actor: null }, now);
  });
}

/** The `webhook` job handler: one signed attempt per run, on Svix's schedule. */
export function createWebhookJobHandler(deps: WebhookDeliveryDeps): JobHandler {
  const { db } = deps;
  return {
    kind: 'webhook',
    retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS,
    async run(job, now) {
      const endpoint = await findWebhookEndpoint(db, job.targetId);
      if (!endpoint || endpoint.tenant_id !== job.tenantId) return { ok: false, error: 'The endpoint was deleted', retry: false };
      if (Number(endpoint.is_active) !== 1) return { ok: false, error: 'The endpoint is inactive', retry: false };
      const payload = job.payload as WebhookJobPayload;
      const outcome = await deliverWebhook(deps, endpoint, { eventId: job.eventId ?? job.id, eventKey: payload.eventKey, body: payload.body }, { jobId: job.id, attempt: job.attempt }, now);
      if (outcome.ok) {
        if (endpoint.failing_since !== null) await clearWebhookFailing(db, endpoint.id);
        return { ok: true };
      }
      if (endpoint.failing_since === null) {
        await markWebhookFailing(db, endpoint.id, now);
      } else if (now - Number(endpoint.failing_since) >= WEBHOOK_DISABLE_AFTER_MS) {
        await disableFailingEndpoint(db, endpoint, now);
        return { ok: false, error: `${outcome.message}; the endpoint was disabled after failing for 5 days`, retry: false };
      }
      return { ok: false, error: outcome.message, retry: !outcome.abort };
    },
  };
}

/** The consumer: one `webhook` job per active endpoint of the event's tenant subscribed to its key (and existing when it happened), due now. */
export function createWebhookConsumer(): EventConsumer {
  return {
    name: 'webhooks',
    async fanOut(trx, event: RaisedEvent, now) {
      // Endpoints get the events that happen once they exist (not a backlog raised before them).
      const endpoints = (await listActiveWebhookEndpoints(trx, event.tenantId)).filter((e) => Number(e.created_at) <= event.occurredAt && parseEventKeys(e.event_keys).includes(event.key));
      if (endpoints.length === 0) return;
      const body = webhookBody(event.key, event.occurredAt, event.tenantId, event.data, event.actor);
      for (const endpoint of endpoints) {
        await enqueueJob(trx, { kind: 'webhook', tenantId: event.tenantId, targetId: endpoint.id, eventId: event.id, payload: { eventKey: event.key, body } satisfies WebhookJobPayload, dueAt: now });
      }
    },
  };
}
