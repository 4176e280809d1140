/** The recovery area: password reset (email or SMS) and change, and the lost-phone reset and phone change. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import { createPhoneChangeService, type PhoneChangeService } from '../../services/recovery/phone-change';
import { createRecoveryService, type RecoveryService } from '../../services/recovery/recovery';
import type { MfaService } from '../../services/mfa/mfa';
import type { RouteDeps } from '../deps';
import { passwordRoutes } from './passwords';
import { phoneRoutes } from './phone';

export interface RecoveryArea {
  recovery: RecoveryService;
  phoneChange: PhoneChangeService;
}

/** Builds the recovery services and registers their routes. */
export function recoveryArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps, areas: { mfa: Pick<MfaService, 'gateLogin'> }): RecoveryArea {
  const { db, mail, emails, sms, clock, limiter, config, auth } = deps;
  // After a reset the user is signed in, behind the same MFA gate as any sign-in (no password proven: no primary method).
  const recovery = createRecoveryService({ db, mail, emails, sms, clock, limiter, config, auth, security: deps.security.policies, secondFactor: (user, client) => areas.mfa.gateLogin(user, client) });
  const phoneChange = createPhoneChangeService({ db, clock, mail, emails, sms, limiter });
  app.route('/', passwordRoutes(deps, recovery));
  app.route('/', phoneRoutes(deps, phoneChange));
  return { recovery, phoneChange };
}
