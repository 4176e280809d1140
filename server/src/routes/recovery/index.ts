/** The recovery area: password reset (email or SMS) and change, and the lost-phone reset and phone change. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import { createPhoneChangeService, type PhoneChangeService } from '../../services/recovery/phone-change';
import { createRecoveryService, type RecoveryService } from '../../services/recovery/recovery';
import type { RouteDeps } from '../deps';
import { passwordRoutes } from './passwords';
import { phoneRoutes } from './phone';

export interface RecoveryArea {
  recovery: RecoveryService;
  phoneChange: PhoneChangeService;
}

/** Builds the recovery services and registers their routes. */
export function recoveryArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps): RecoveryArea {
  const { db, mail, sms, clock, limiter, config } = deps;
  const recovery = createRecoveryService({ db, mail, sms, clock, limiter, config });
  const phoneChange = createPhoneChangeService({ db, clock, mail, sms, limiter });
  app.route('/', passwordRoutes(deps, recovery));
  app.route('/', phoneRoutes(deps, phoneChange));
  return { recovery, phoneChange };
}
