/** Reports' part of the connectivity area: the service, the `report` job handler and the routes. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import { createReportService } from '../../services/connectivity/reports/reports';
import { createReportJobHandler } from '../../services/connectivity/reports/trigger-job';
import type { ConnectivityWorker } from '../../services/connectivity/worker';
import type { SecurityCenterService } from '../../services/security/security-center';
import type { RouteDeps } from '../deps';
import { reportRoutes } from './reports';

export function reportsPart(app: OpenAPIHono<AppEnv>, deps: RouteDeps, worker: ConnectivityWorker, areas: { securityCenter: Pick<SecurityCenterService, 'recommendations' | 'insights'> }): void {
  const reports = createReportService({ db: deps.db, clock: deps.clock, sources: { db: deps.db, posture: areas.securityCenter } });
  worker.addHandler(createReportJobHandler({ db: deps.db, mail: deps.mail, reports }));
  app.route('/', reportRoutes(deps, reports));
}
