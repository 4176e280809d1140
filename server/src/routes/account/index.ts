/** The account area: the settings of the tenant the caller acts in (and their public part for the login box). */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import { createAccountSettingsService, type AccountSettingsService } from '../../services/account/settings';
import type { RouteDeps } from '../deps';
import { accountSettingsRoutes } from './settings';

export interface AccountArea {
  accountSettings: AccountSettingsService;
}

/** Builds the account settings service and registers its routes. */
export function accountArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps): AccountArea {
  const { db, clock, config } = deps;
  const accountSettings = createAccountSettingsService({ db, clock, config });
  app.route('/', accountSettingsRoutes(deps, clock, accountSettings));
  return { accountSettings };
}
