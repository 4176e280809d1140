/**
 * The public SSO configuration (seed 000 section 7.3): what an anonymous visitor may know of SSO in
 * this deployment, namely whether it is active at all, so a login box can skip the SSO lookup at
 * preLogin. Never which tenants, domains or identity providers.
 */
import type { SsoPublicConfiguration } from '@gatehouse/shared/wire';
import type { Db } from '../../db';
import { hasReadySsoConfiguration } from '../../db/queries/sso-configurations';

export interface SsoPublicConfigurationService {
  publicConfiguration(): Promise<SsoPublicConfiguration>;
}

export function createSsoPublicConfigurationService(deps: { db: Db }): SsoPublicConfigurationService {
  return {
    publicConfiguration: async () => ({ isActive: await hasReadySsoConfiguration(deps.db) }),
  };
}
