/**
 * A tenant's webhook endpoints (issue 16; seed 001 sections 3, 4, 5, 7, 9), behind
 * fe.connectivity.read/write.webhooks:
 *
 * - saving creates an endpoint (answering its `whsec_` secret this once) or, with `_id`, updates
 *   it (seed: "saving updates when an id exists, otherwise creates"); the URL must be https to a
 *   public address outside dev mode, the event keys the catalogue's;
 * - rotating answers a new secret once; the previous one keeps signing for 24 hours;
 * - deleting, or setting an endpoint inactive, cancels its pending deliveries; re-activating a
 *   disabled endpoint clears its failure state;
 * - the log pages the attempts (offset 0, limit 10 by default); a test sends a signed example of an
 *   event now (success on 200 or 201); a retry delivers an attempt's message again through the queue;
 *   both are rate limited per tenant (RATE_LIMIT_WEBHOOK_TESTS_PER_TENANT / _RETRIES_PER_TENANT), a
 *   test being an outbound request made at an admin's word.
 *
 * Every endpoint is looked up by id AND the caller's tenant; every change is audited (never a secret).
 */
import { EVENT_CATALOGUE, isEventKey, MAX_WEBHOOK_ENDPOINTS, WEBHOOK_PREVIOUS_SECRET_TTL_MS, type CreatedWebhook, type TestWebhookResult, type WebhookAttempt, type WebhookAttemptStatus, type WebhookEndpoint, type WebhookLogPage } from '@gatehouse/shared/wire';
import type { z } from 'zod';
import type { SaveWebhookRequest } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import {
  countWebhookEndpoints,
  deleteWebhookEndpoint,
  findTenantWebhookAttempt,
  findTenantWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookAttempts,
  listWebhookEndpoints,
  updateWebhookEndpoint,
  type WebhookAttemptRow,
  type WebhookEndpointRow,
} from '../../db/queries/webhooks';
import { Errors } from '../../errors';
import type { AdminCaller } from '../admin/access';
import { recordAudit } from '../admin/audit-log';
import type { RateLimiter } from '../platform/rate-limit';
import { cancelJobsForTarget, enqueueJob, retryJobNow } from './jobs';
import { checkOutboundTarget, isOutboundError } from './outbound';
import { newWebhookSecret } from './signing';
import { deliverWebhook, parseEventKeys, sealWebhookSecret, webhookBody, webhookPolicy, type WebhookDeliveryDeps, type WebhookJobPayload } from './webhook-delivery';

export const WebhookAuditActions = {
  created: 'Webhook created',
  updated: 'Webhook updated',
  deleted: 'Webhook deleted',
  secretRotated: 'Webhook secret rotated',
  testSent: 'Webhook test sent',
  retried: 'Webhook delivery retried',
} as const;

/** The save body after its defaults (description '', isActive true). */
export type SaveBody = z.output<typeof SaveWebhookRequest>;

export interface WebhookService {
  list(caller: AdminCaller): Promise<WebhookEndpoint[]>;
  /** Creates (`created`, with the secret) or, with `_id`, updates (`updated`). */
  save(caller: AdminCaller, body: SaveBody): Promise<{ created: CreatedWebhook } | { updated: WebhookEndpoint }>;
  remove(caller: AdminCaller, id: string): Promise<void>;
  rotateSecret(caller: AdminCaller, id: string): Promise<{ secret: string }>;
  test(caller: AdminCaller, id: string, eventKey: string): Promise<TestWebhookResult>;
  logs(caller: AdminCaller, id: string, offset: number, limit: number): Promise<WebhookLogPage>;
  retry(caller: AdminCaller, logId: string): Promise<void>;
}

const notFound = () => Errors.notFound('Webhook endpoint not found');

function toWire(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    _id: row.id,
    url: row.url,
    description: row.description,
    eventKeys: parseEventKeys(row.event_keys),
    isActive: Number(row.is_active) === 1,
    createdAt: Number(row.created_at),
    disabledAt: row.disabled_at === null ? null : Number(row.disabled_at),
    disabledReason: row.disabled_reason,
  };
}

const headersOf = (stored: string | null): Record<string, string> | null => (stored === null ? null : (JSON.parse(stored) as Record<string, string>));

function attemptToWire(row: WebhookAttemptRow): WebhookAttempt {
  return {
    id: row.id,
    eventKey: row.event_key,
    eventId: row.event_id,
    status: row.status as WebhookAttemptStatus,
    attempt: Number(row.attempt),
    statusCode: row.status_code === null ? null : Number(row.status_code),
    durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    error: row.error,
    requestHeaders: headersOf(row.request_headers) ?? {},
    requestBody: row.request_body,
    responseHeaders: headersOf(row.response_headers),
    responseBody: row.response_body,
    createdAt: Number(row.created_at),
  };
}

/** What audits show of an endpoint: everything but its secrets. */
const audited = (e: Pick<WebhookEndpoint, 'url' | 'description' | 'eventKeys' | 'isActive'>) => ({ url: e.url, description: e.description, eventKeys: e.eventKeys, isActive: e.isActive });

export function createWebhookService(deps: WebhookDeliveryDeps & { clock: Clock; limiter: RateLimiter }): WebhookService {
  const { db, clock, config, limiter } = deps;

  async function own(caller: AdminCaller, id: string): Promise<WebhookEndpointRow> {
    const row = await findTenantWebhookEndpoint(db, caller.tenantId, id);
    if (!row) throw notFound();
    return row;
  }

  async function checkBody(body: SaveBody): Promise<{ url: string; eventKeys: string[] }> {
    const unknown = body.eventKeys.filter((k) => !isEventKey(k));
    if (unknown.length > 0) throw Errors.validation(`eventKeys: ${unknown.slice(0, 5).join(', ')} ${unknown.length === 1 ? 'is not an event' : 'are not events'} of the catalogue`, { field: 'eventKeys' });
    try {
      const url = await checkOutboundTarget(body.url, webhookPolicy(deps));
      return { url: url.href, eventKeys: [...new Set(body.eventKeys)] };
    } catch (err) {
      if (isOutboundError(err)) throw Errors.validation(`url: ${err.message}`, { field: 'url' });
      throw err;
    }
  }

  return {
    async list(caller) {
      return (await listWebhookEndpoints(db, caller.tenantId)).map(toWire);
    },

    async save(caller, body) {
      const { url, eventKeys } = await checkBody(body);
      const now = clock.now();
      if (body._id !== undefined) {
        const before = await own(caller, body._id);
        const wasActive = Number(before.is_active) === 1;
        const reactivated = body.isActive && !wasActive;
        await db.transaction().execute(async (trx) => {
          await updateWebhookEndpoint(trx, before.id, {
            url,
            description: body.description,
            event_keys: JSON.stringify(eventKeys),
            is_active: body.isActive ? 1 : 0,
            updated_at: now,
            // Enabling again starts afresh: the failure run and the disabled mark end.
            ...(reactivated ? { failing_since: null, disabled_at: null, disabled_reason: null } : {}),
          });
          if (!body.isActive && wasActive) await cancelJobsForTarget(trx, 'webhook', before.id, now);
          const beforeWire = toWire(before);
          await recordAudit(
            trx,
            caller,
            { action: WebhookAuditActions.updated, description: `Webhook endpoint ${url} updated`, json: { endpointId: before.id, before: audited(beforeWire), after: audited({ url, description: body.description, eventKeys, isActive: body.isActive }) } },
            now,
          );
        });
        return { updated: toWire((await findTenantWebhookEndpoint(db, caller.tenantId, before.id))!) };
      }
      if ((await countWebhookEndpoints(db, caller.tenantId)) >= MAX_WEBHOOK_ENDPOINTS) {
        throw Errors.validation(`A tenant can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints: delete one first`, { field: 'url' });
      }
      const id = newId();
      const secret = newWebhookSecret();
      await db.transaction().execute(async (trx) => {
        await insertWebhookEndpoint(trx, {
          id,
          tenant_id: caller.tenantId,
          url,
          description: body.description,
          event_keys: JSON.stringify(eventKeys),
          is_active: body.isActive ? 1 : 0,
          secret: sealWebhookSecret(secret, config),
          previous_secret: null,
          previous_secret_expires_at: null,
          failing_since: null,
          disabled_at: null,
          disabled_reason: null,
          created_by: caller.userId,
          created_at: now,
          updated_at: now,
        });
        await recordAudit(trx, caller, { action: WebhookAuditActions.created, description: `Webhook endpoint ${url} created`, json: { endpointId: id, after: audited({ url, description: body.description, eventKeys, isActive: body.isActive }) } }, now);
      });
      return { created: { _id: id, url, eventKeys, isActive: body.isActive, secret } };
    },

    async remove(caller, id) {
      const row = await own(caller, id);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await cancelJobsForTarget(trx, 'webhook', row.id, now);
        await deleteWebhookEndpoint(trx, row.id);
        await recordAudit(trx, caller, { action: WebhookAuditActions.deleted, description: `Webhook endpoint ${row.url} deleted`, json: { endpointId: row.id, before: audited(toWire(row)) } }, now);
      });
    },

    async rotateSecret(caller, id) {
      const row = await own(caller, id);
      const now = clock.now();
      const secret = newWebhookSecret();
      await db.transaction().execute(async (trx) => {
        await updateWebhookEndpoint(trx, row.id, { secret: sealWebhookSecret(secret, config), previous_secret: row.secret, previous_secret_expires_at: now + WEBHOOK_PREVIOUS_SECRET_TTL_MS, updated_at: now });
        await recordAudit(
          trx,
          caller,
          { action: WebhookAuditActions.secretRotated, description: `Signing secret of the webhook endpoint ${row.url} rotated; the previous one signs too until ${new Date(now + WEBHOOK_PREVIOUS_SECRET_TTL_MS).toISOString()}`, severity: 'High', json: { endpointId: row.id, previousSecretExpiresAt: now + WEBHOOK_PREVIOUS_SECRET_TTL_MS } },
          now,
        );
      });
      return { secret };
    },

    async test(caller, id, eventKey) {
      const row = await own(caller, id);
      if (!isEventKey(eventKey)) throw Errors.validation(`eventKey: ${eventKey} is not an event of the catalogue`, { field: 'eventKey' });
      const example = EVENT_CATALOGUE.find((e) => e.key === eventKey)!.example;
      await limiter.consume('webhookTestsPerTenant', caller.tenantId);
      const now = clock.now();
      const body = webhookBody(eventKey, now, caller.tenantId, example, { userId: caller.userId, email: caller.email });
      const outcome = await deliverWebhook(deps, row, { eventId: newId(), eventKey, body }, { jobId: null, attempt: 1 }, now);
      // Seed 001 section 4: a test succeeds only on 200 or 201.
      const success = outcome.statusCode === 200 || outcome.statusCode === 201;
      await recordAudit(db, caller, { action: WebhookAuditActions.testSent, description: `Test of ${eventKey} sent to the webhook endpoint ${row.url}: ${success ? 'success' : 'failed'}`, json: { endpointId: row.id, eventKey, logId: outcome.attemptId, status: success ? 'success' : 'failed', statusCode: outcome.statusCode } }, now);
      return {
        status: success ? 'success' : 'failed',
        statusCode: outcome.statusCode,
        message: success || !outcome.ok ? outcome.message : `Receiver answered ${outcome.statusCode}; a test succeeds only on 200 or 201`,
        logId: outcome.attemptId,
      };
    },

    async logs(caller, id, offset, limit) {
      const row = await own(caller, id);
      const page = await listWebhookAttempts(db, row.id, offset, limit);
      return { rows: page.rows.map(attemptToWire), total: page.total };
    },

    async retry(caller, logId) {
      const attempt = await findTenantWebhookAttempt(db, caller.tenantId, logId);
      if (!attempt) throw Errors.notFound('Webhook log entry not found');
      const endpoint = await own(caller, attempt.endpoint_id);
      if (Number(endpoint.is_active) !== 1) throw Errors.validation('The webhook endpoint is inactive: activate it before retrying', { field: 'logId' });
      await limiter.consume('webhookRetriesPerTenant', caller.tenantId);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        // The delivery's own job when it is finished; otherwise (a test, or a job still on its schedule) a new delivery of the same message.
        const requeued = attempt.job_id !== null && (await retryJobNow(trx, attempt.job_id, now));
        if (!requeued) await enqueueJob(trx, { kind: 'webhook', tenantId: caller.tenantId, targetId: endpoint.id, eventId: attempt.event_id, payload: { eventKey: attempt.event_key, body: attempt.request_body } satisfies WebhookJobPayload, dueAt: now });
        await recordAudit(trx, caller, { action: WebhookAuditActions.retried, description: `Delivery of ${attempt.event_key} to the webhook endpoint ${endpoint.url} retried`, json: { endpointId: endpoint.id, logId: attempt.id, eventId: attempt.event_id } }, now);
      });
    },
  };
}
