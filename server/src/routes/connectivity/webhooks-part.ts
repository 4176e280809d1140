/** Webhooks' part of the connectivity area: the endpoint service, the delivery consumer and job handler, and the routes. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import { createWebhookConsumer, createWebhookJobHandler } from '../../services/connectivity/webhook-delivery';
import { createWebhookService, type WebhookService } from '../../services/connectivity/webhooks';
import type { ConnectivityWorker } from '../../services/connectivity/worker';
import type { RouteDeps } from '../deps';
import { webhookRoutes } from './webhooks';

export function webhooksPart(app: OpenAPIHono<AppEnv>, deps: RouteDeps, worker: ConnectivityWorker): WebhookService {
  const delivery = { db: deps.db, config: deps.config };
  const webhooks = createWebhookService({ ...delivery, clock: deps.clock, limiter: deps.limiter });
  worker.addConsumer(createWebhookConsumer());
  worker.addHandler(createWebhookJobHandler(delivery));
  app.route('/', webhookRoutes(deps, webhooks));
  return webhooks;
}
