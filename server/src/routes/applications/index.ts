/**
 * The Applications area (issue 15): the vendor's applications (operators), their assignment to a
 * tenant's users (tenant admins), and the access rule hosted login asks (services/applications/access.ts).
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import { createApplicationAccess, type ApplicationAccess } from '../../services/applications/access';
import { createApplicationService } from '../../services/applications/applications';
import { createAssignmentService } from '../../services/applications/assignments';
import { createClientRegistry } from '../../services/oauth/clients';
import type { RouteDeps } from '../deps';
import { assignmentRoutes } from './assignments';
import { vendorApplicationRoutes } from './vendor';

export interface ApplicationsArea {
  /** Asked by hosted login before it issues a code or tokens. */
  access: ApplicationAccess;
}

/** Builds the applications services and registers their routes. */
export function applicationsArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps): ApplicationsArea {
  const { db, clock, config } = deps;
  const applications = createApplicationService({ db, clock, config, clients: createClientRegistry({ db, clock, config }) });
  app.route('/', vendorApplicationRoutes(deps, applications));
  app.route('/', assignmentRoutes(deps, clock, createAssignmentService({ db, clock, applications })));
  return { access: createApplicationAccess({ db }) };
}
