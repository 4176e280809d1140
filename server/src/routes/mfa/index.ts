/** The MFA area: second factors (authenticator app, email code, SMS, WebAuthn, recovery codes) and step-up. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import { createMfaService, type MfaService } from '../../services/mfa/mfa';
import { createMfaSmsService } from '../../services/mfa/sms';
import { createMfaWebauthnService } from '../../services/mfa/webauthn';
import type { RouteDeps } from '../deps';
import { mfaFactorAuthRoutes } from './factors-login';
import { mfaFactorUserRoutes } from './factors-user';
import { mfaAuthRoutes } from './login';
import { mfaUserRoutes } from './user';

export interface MfaArea {
  /** `gateLogin` is the second step every sign-in method asks after its first factor. */
  mfa: MfaService;
}

/** Builds MFA and registers its sign-in and self-service routes. */
export function mfaArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps): MfaArea {
  const { db, clock, auth, mail, emails, sms, limiter, config } = deps;
  const mfa = createMfaService({ db, clock, auth, mail, emails, limiter, config, security: deps.security.policies });
  const mfaSms = createMfaSmsService({ db, clock, sms, limiter, core: mfa.core });
  const mfaWebauthn = createMfaWebauthnService({ db, clock, limiter, core: mfa.core, config });
  app.route('/', mfaAuthRoutes(deps, mfa));
  app.route('/', mfaUserRoutes(deps, mfa));
  app.route('/', mfaFactorAuthRoutes(deps, mfaSms, mfaWebauthn));
  app.route('/', mfaFactorUserRoutes(deps, mfaSms, mfaWebauthn, mfa.core.active));
  return { mfa };
}
