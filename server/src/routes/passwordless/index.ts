/** The passwordless area: magic links and email codes, SMS codes, and passkeys (sign-in and the user's devices). */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import type { MfaService } from '../../services/mfa/mfa';
import { createPasswordlessService, type PasswordlessService } from '../../services/passwordless/passwordless';
import { createSmsLoginService, type SmsLoginService } from '../../services/passwordless/sms-login';
import { createWebauthnService, type WebauthnService } from '../../services/passwordless/webauthn';
import type { RouteDeps } from '../deps';
import { passwordlessRoutes } from './passwordless';
import { webauthnLoginRoutes } from './webauthn';
import { webauthnDeviceRoutes } from './webauthn-devices';

export interface PasswordlessArea {
  passwordless: PasswordlessService;
  smsLogin: SmsLoginService;
  webauthn: WebauthnService;
}

/** Builds the passwordless services and registers their routes; email and SMS sign-ins ask `mfa` for the second step. */
export function passwordlessArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps, areas: { mfa: Pick<MfaService, 'gateLogin'> }): PasswordlessArea {
  const { db, mail, emails, sms, clock, auth, limiter, config } = deps;
  const { mfa } = areas;
  const passwordless = createPasswordlessService({ db, mail, emails, clock, auth, limiter, config, secondFactor: (user, client) => mfa.gateLogin(user, client) });
  const smsLogin = createSmsLoginService({ db, sms, clock, auth, limiter, config, secondFactor: (user, client) => mfa.gateLogin(user, client) });
  const webauthn = createWebauthnService({ db, clock, auth, limiter, config });
  app.route('/', webauthnLoginRoutes(deps, webauthn));
  app.route('/', passwordlessRoutes(deps, passwordless, smsLogin));
  app.route('/', webauthnDeviceRoutes(deps, webauthn));
  return { passwordless, smsLogin, webauthn };
}
