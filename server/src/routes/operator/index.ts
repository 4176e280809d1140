/**
 * The Operator area (issue 13): what the vendor's super users manage through the API (and the
 * admin portal's Operator area): plans, features, feature flags, direct entitlement grants and
 * OAuth applications. Every call needs a super user (operatorGuard) and every change writes an
 * audit row in the operator's tenant. (The billing configuration's routes are the billing area's.)
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import { createClientRegistry } from '../../services/oauth/clients';
import { createApplicationService } from '../../services/operator/applications';
import { createFeatureFlagService } from '../../services/operator/feature-flags';
import { createFeatureService } from '../../services/operator/features';
import { createGrantService } from '../../services/operator/grants';
import { createPlanService } from '../../services/operator/plans';
import type { RouteDeps } from '../deps';
import { applicationRoutes } from './applications';
import { cdnRolloutRoutes } from './cdn';
import { featureFlagRoutes } from './feature-flags';
import { featureRoutes } from './features';
import { grantRoutes } from './grants';
import { planRoutes } from './plans';

/** Builds the Operator services and registers their routes. */
export function operatorArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps): void {
  const { db, clock, config } = deps;
  app.route('/', planRoutes(deps, createPlanService({ db, clock })));
  app.route('/', featureRoutes(deps, createFeatureService({ db, clock })));
  app.route('/', featureFlagRoutes(deps, createFeatureFlagService({ db, clock })));
  app.route('/', grantRoutes(deps, createGrantService({ db, clock })));
  const registry = createClientRegistry({ db, clock, config });
  app.route('/', applicationRoutes(deps, createApplicationService({ db, clock, registry, config })));
  app.route('/', cdnRolloutRoutes(deps, deps.cdn));
}
