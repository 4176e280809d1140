/** The SSO area: sign-in through a tenant's OIDC or SAML identity provider, and the tenant's SSO configurations. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import type { MfaService } from '../../services/mfa/mfa';
import { createSsoConfigurationService, type SsoConfigurationService } from '../../services/sso/configurations';
import { createSsoConnectionTestService } from '../../services/sso/connection-test';
import { createTxtResolver } from '../../services/sso/dns';
import { createSsoLoginService, type SsoLoginService } from '../../services/sso/login';
import { createSsoPublicConfigurationService } from '../../services/sso/public-configuration';
import type { RouteDeps } from '../deps';
import { ssoConfigurationRoutes } from './configurations';
import { ssoLoginRoutes } from './login';
import { ssoPublicConfigurationRoutes } from './public-configuration';

export interface SsoArea {
  ssoLogin: SsoLoginService;
  ssoConfigurations: SsoConfigurationService;
}

/** Builds the SSO services and registers their routes; an SSO sign-in asks `mfa` for the second step. */
export function ssoArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps, areas: { mfa: Pick<MfaService, 'gateLogin'> }): SsoArea {
  const { db, clock, auth, limiter, config } = deps;
  const { mfa } = areas;
  const ssoLogin = createSsoLoginService({ db, clock, auth, limiter, config, emailDomains: deps.security.emailDomains, seats: deps.entitlements, secondFactor: (user, client) => mfa.gateLogin(user, client) });
  const ssoConfigurations = createSsoConfigurationService({ db, clock, config, resolveTxt: createTxtResolver(config.sso.dnsServers) });
  const connectionTests = createSsoConnectionTestService({ db, clock, limiter, config });
  app.route('/', ssoLoginRoutes(deps, ssoLogin, connectionTests));
  app.route('/', ssoConfigurationRoutes(deps, ssoConfigurations, connectionTests));
  app.route('/', ssoPublicConfigurationRoutes(createSsoPublicConfigurationService({ db })));
  return { ssoLogin, ssoConfigurations };
}
