/** The OAuth area: hosted login as an OAuth 2.0 / OIDC authorization server, and its client registry. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import type { ApiTokenService } from '../../services/admin/api-tokens';
import type { ApplicationAccess } from '../../services/applications/access';
import { createClientRegistry } from '../../services/oauth/clients';
import { createOAuthService, type OAuthService } from '../../services/oauth/provider';
import type { RouteDeps } from '../deps';
import { oauthRoutes } from './provider';

export { isOAuthCorsPath } from './provider';

export interface OAuthArea {
  oauth: OAuthService;
}

/** Builds the authorization server and registers its routes; `apiTokens` serves the client_credentials grant; `applicationAccess` keeps MANAGED_ACCESS applications to their assigned users. */
export function oauthArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps, areas: { apiTokens: ApiTokenService; applicationAccess: ApplicationAccess }): OAuthArea {
  const { db, clock, keys, auth, limiter, config } = deps;
  const oauth = createOAuthService({ db, clock, keys, auth, limiter, config, clients: createClientRegistry({ db, clock, config }), apiTokens: areas.apiTokens, policies: deps.security.policies, sessionPolicy: deps.security.sessions, ipRestrictions: deps.security.ipRestrictions, applicationAccess: areas.applicationAccess });
  app.route('/', oauthRoutes(deps, oauth));
  return { oauth };
}
