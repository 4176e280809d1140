/** The social area: sign-in with Google, GitHub and other OAuth providers. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import type { MfaService } from '../../services/mfa/mfa';
import { createSocialLoginService, type SocialLoginService } from '../../services/social';
import type { RouteDeps } from '../deps';
import { socialLoginRoutes } from './login';

export interface SocialArea {
  socialLogin: SocialLoginService;
}

/** Builds social login and registers its routes; a social sign-in asks `mfa` for the second step. */
export function socialArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps, areas: { mfa: Pick<MfaService, 'gateLogin'> }): SocialArea {
  const { db, clock, auth, limiter, config } = deps;
  const { mfa } = areas;
  const socialLogin = createSocialLoginService({ db, clock, auth, limiter, config, secondFactor: (user, client) => mfa.gateLogin(user, client) });
  app.route('/', socialLoginRoutes(deps, socialLogin));
  return { socialLogin };
}
