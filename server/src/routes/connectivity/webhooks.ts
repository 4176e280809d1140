import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  CreatedWebhook,
  Permissions,
  RotatedWebhookSecret,
  SaveWebhookRequest,
  TestWebhookRequest,
  TestWebhookResult,
  WEBHOOK_LOG_DEFAULT_LIMIT,
  WEBHOOK_LOG_DEFAULT_OFFSET,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookLogPage,
  WebhookLogQuery,
  WebhookPaths,
  WebhookRetryResult,
} from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import type { WebhookService } from '../../services/connectivity/webhooks';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

const tags = ['admin: connectivity'];
const IdParam = z.object({ id: z.string().min(1).max(64) });
const LogIdParam = z.object({ logId: z.string().min(1).max(64) });

/**
 * The tenant's webhook endpoints (issue 16; seed 001 sections 3, 4, 7, 9), behind
 * fe.connectivity.read/write.webhooks. The create answers the signing secret once, and so does a
 * rotation; nothing else ever carries a secret.
 */
export function webhookRoutes(deps: RouteDeps, webhooks: WebhookService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, deps.clock);
  const read = guard(Permissions.webhooksRead, 'read');
  const write = guard(Permissions.webhooksWrite, 'write');

  app.openapi(
    createRoute({
      method: 'get',
      path: WebhookPaths.webhooks,
      tags,
      summary: "Lists the tenant's webhook endpoints (never a secret), oldest first",
      ...read,
      request: { query: TenantQuery },
      responses: { 200: json(WebhookEndpointList, 'The endpoints'), ...adminErrors },
    }),
    async (c) => c.json(await webhooks.list(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: WebhookPaths.webhooks,
      tags,
      summary: 'Saves a webhook endpoint: without _id creates it and answers { _id, url, eventKeys, isActive, secret } (201, the secret shown this once); with _id updates that endpoint (200, no secret)',
      ...write,
      request: { query: TenantQuery, ...body(SaveWebhookRequest) },
      responses: {
        200: json(WebhookEndpoint, 'Updated'),
        201: json(CreatedWebhook, 'Created, with its signing secret'),
        400: err('Invalid body (the field is named): a URL that is not https on port 443 or 8443 to a public address outside dev mode, an event key not in the catalogue, or too many endpoints (at most 50 per tenant)'),
        ...adminErrors,
      },
    }),
    async (c) => {
      const result = await webhooks.save(c.get('admin'), c.req.valid('json'));
      return 'created' in result ? c.json(result.created, 201) : c.json(result.updated, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: WebhookPaths.webhook,
      tags,
      summary: 'Deletes the endpoint, its log and its pending deliveries',
      ...write,
      request: { params: IdParam, query: TenantQuery },
      responses: { 204: { description: 'Deleted' }, ...adminErrors },
    }),
    async (c) => {
      await webhooks.remove(c.get('admin'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: WebhookPaths.webhookRotateSecret,
      tags,
      summary: "Rotates the endpoint's signing secret: the answer carries the new one, shown this once; the previous one keeps signing (a second signature) for 24 hours",
      ...write,
      request: { params: IdParam, query: TenantQuery },
      responses: { 200: json(RotatedWebhookSecret, 'The new secret'), ...adminErrors },
    }),
    async (c) => c.json(await webhooks.rotateSecret(c.get('admin'), c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: WebhookPaths.webhookTest,
      tags,
      summary: "Sends a signed example of the event to the endpoint now; status success only when the receiver answered 200 or 201, otherwise failed with a message (one generic message for a target that could not be reached or is not allowed); the attempt is in the endpoint's log (logId). Rate limited per tenant (429)",
      ...write,
      request: { params: IdParam, query: TenantQuery, ...body(TestWebhookRequest) },
      responses: { 200: json(TestWebhookResult, 'The outcome of the test delivery'), 400: err('Invalid body: eventKey is not an event of the catalogue'), ...adminErrors, 429: rateLimitedResponse },
    }),
    async (c) => c.json(await webhooks.test(c.get('admin'), c.req.valid('param').id, c.req.valid('json').eventKey), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: WebhookPaths.webhookLogs,
      tags,
      summary: "The endpoint's delivery attempts, newest first (status, attempt, status code, duration, request and answer heads and bodies), paged by offset (default 0) and limit (default 10)",
      ...read,
      request: { params: IdParam, query: TenantQuery.merge(WebhookLogQuery) },
      responses: { 200: json(WebhookLogPage, 'A page of attempts and their total'), 400: err('Invalid offset or limit'), ...adminErrors },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await webhooks.logs(c.get('admin'), c.req.valid('param').id, q.offset ?? WEBHOOK_LOG_DEFAULT_OFFSET, q.limit ?? WEBHOOK_LOG_DEFAULT_LIMIT), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: WebhookPaths.webhookLogRetry,
      tags,
      summary: "Delivers the logged attempt's message again (same webhook-id and body) through the delivery queue, now: 202 queued. Rate limited per tenant (429)",
      ...write,
      request: { params: LogIdParam, query: TenantQuery },
      responses: { 202: json(WebhookRetryResult, 'Queued'), 400: err('The endpoint is inactive'), ...adminErrors, 429: rateLimitedResponse },
    }),
    async (c) => {
      await webhooks.retry(c.get('admin'), c.req.valid('param').logId);
      return c.json({ status: 'queued' as const }, 202);
    },
  );
  return app;
}
