/**
 * The security area (issue 12): per-tenant security policies, IP and email-domain restrictions, and
 * the security center. Its services are built before any area (services/security), since every
 * entry point enforces them; this registers the admin routes that read and change them.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import type { RecoveryService } from '../../services/recovery/recovery';
import { createSecurityCenterService, type SecurityCenterService } from '../../services/security/security-center';
import type { RouteDeps } from '../deps';
import { emailDomainRestrictionRoutes } from './email-domain-restrictions';
import { ipRestrictionRoutes } from './ip-restrictions';
import { securityPolicyRoutes } from './policies';
import { securityCenterRoutes } from './security-center';
import { sessionsPolicyRoutes } from './sessions-policy';

/** Registers the security routes; the security center's breached-password reset emails links through `recovery`. Answers the security center for later areas (reports). */
export function securityArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps, areas: { recovery: Pick<RecoveryService, 'emailResetLinkTo'> }): { securityCenter: SecurityCenterService } {
  app.route('/', securityPolicyRoutes(deps, deps.security.policies));
  app.route('/', ipRestrictionRoutes(deps, deps.security.ipRestrictions));
  app.route('/', emailDomainRestrictionRoutes(deps, deps.security.emailDomains));
  app.route('/', sessionsPolicyRoutes(deps, deps.security.sessions));
  const securityCenter = createSecurityCenterService({ db: deps.db, clock: deps.clock, policies: deps.security.policies, sessions: deps.security.sessions, recovery: areas.recovery });
  app.route('/', securityCenterRoutes(deps, securityCenter));
  return { securityCenter };
}
