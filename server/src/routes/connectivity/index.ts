/**
 * The connectivity area (issue 16): the event catalogue, webhooks, notification channels (email,
 * Slack, SMS), notifications and reports. It builds the process's worker, which dispatches raised
 * events to the parts' consumers and runs their delivery jobs; each part registers its routes,
 * handlers and consumers here with one line.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import type { SecurityCenterService } from '../../services/security/security-center';
import { createConnectivityWorker, type ConnectivityWorker } from '../../services/connectivity/worker';
import type { RouteDeps } from '../deps';
import { eventCatalogueRoutes } from './events';
import { webhooksPart } from './webhooks-part';
import { channelsPart } from './slack-part';
import { reportsPart } from './reports-part';
import { notificationConsumer } from '../../services/connectivity/notification-rules';
import { notificationRoutes } from './notifications';

export interface ConnectivityArea {
  /** The worker of this process: main.ts starts it, tests call `runDue()` with a moved clock. */
  worker: ConnectivityWorker;
}

/** What the connectivity area takes from earlier areas. */
export interface ConnectivityAreas {
  /** Reports' security posture template reads the security center. */
  securityCenter: Pick<SecurityCenterService, 'recommendations' | 'insights'>;
}

/** Builds the connectivity services and worker and registers their routes. */
export function connectivityArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps, areas: ConnectivityAreas): ConnectivityArea {
  const worker = createConnectivityWorker({ db: deps.db, clock: deps.clock, leaseMs: deps.config.connectivity.leaseMs });
  app.route('/', eventCatalogueRoutes(deps));
  webhooksPart(app, deps, worker);
  channelsPart(app, deps, worker);
  reportsPart(app, deps, worker, areas);
  worker.addConsumer(notificationConsumer());
  app.route('/', notificationRoutes(deps));
  return { worker };
}
