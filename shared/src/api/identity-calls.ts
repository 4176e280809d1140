/**
 * The seed 000 calls no screen makes before sign-in (sections 7.1 and 7.3): the signed-in user's
 * token, vendor public info and the public SSO configuration. Functions over any client's
 * `request`, imported through the `@gatehouse/shared/identity-calls` subpath only: never from
 * `createApiClient` or the package root, which the runtime loads before sign-in and shares whole
 * with every bundle (module federation). A bundle that calls one carries just that one.
 */
import type { GatehouseApi } from '../core/types';
import type { MeTokenResponse } from '../wire/users/me-token';
import type { SsoPublicConfiguration } from '../wire/sso/public-configuration';
import type { VendorPublicInfo } from '../wire/platform/vendor-info';
import { ME_TOKEN_PATH } from '../wire/users/me-token-paths';
import { SSO_PUBLIC_CONFIGURATION_PATH } from '../wire/sso/public-configuration-paths';
import { VENDOR_PUBLIC_INFO_PATH } from '../wire/platform/vendor-info-paths';

type Requester = Pick<GatehouseApi, 'request'>;

/**
 * POST users/v3/me/token: a fresh access token of the signed-in session, its claims read now, for
 * `tenantId` (one of the user's tenants) or the current token's tenant. The session's active tenant
 * is left alone (a tab can keep its own tenant), and the token expires no later than the current one.
 */
export function requestMeToken(api: Requester, tenantId?: string): Promise<MeTokenResponse> {
  return api.request<MeTokenResponse>('POST', ME_TOKEN_PATH, { body: tenantId ? { tenantId } : {} });
}

/** GET vendor public info: the deployment's name and application address. */
export function getVendorPublicInfo(api: Requester): Promise<VendorPublicInfo> {
  return api.request<VendorPublicInfo>('GET', VENDOR_PUBLIC_INFO_PATH);
}

/** GET the public SSO configuration: whether SSO sign-in is active in this deployment at all. */
export function getSsoPublicConfiguration(api: Requester): Promise<SsoPublicConfiguration> {
  return api.request<SsoPublicConfiguration>('GET', SSO_PUBLIC_CONFIGURATION_PATH);
}
