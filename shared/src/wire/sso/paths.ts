/**
 * API paths of enterprise SSO (seed 000 section 7.2; seed 001 section 7 "SSO"). Plain data, kept apart
 * from `ApiPaths` (and from the preLogin lookup's path, prelogin-path.ts) so the browser loads
 * them only with the SSO flow's own chunk.
 */
import { SSO_PRELOGIN_PATH } from './prelogin-path';

export { SSO_PRELOGIN_PATH };

const configuration = '/identity/resources/sso/v1/configurations/{configId}';

export const SsoPaths = {
  preLogin: SSO_PRELOGIN_PATH,
  // Sign-in: start (the IdP address with a fresh request), and finish on the login box's callback routes
  samlPreLogin: '/identity/resources/auth/v1/user/saml/prelogin',
  samlPostLogin: '/identity/resources/auth/v1/user/saml/postlogin',
  oidcPreLogin: '/identity/resources/auth/v1/user/oidc/prelogin',
  oidcPostLogin: '/identity/resources/auth/v1/user/oidc/postlogin',
  // The SAML service provider of one configuration: the ACS the IdP posts to, and its metadata
  samlAcs: '/identity/resources/auth/v1/user/saml/{configId}/acs',
  samlMetadata: '/identity/resources/auth/v1/user/saml/{configId}/metadata',
  // Tenant administration (the admin portal's SSO section)
  configurations: '/identity/resources/sso/v1/configurations',
  configuration,
  metadata: `${configuration}/metadata`,
  metadataUrl: `${configuration}/metadata/url`,
  /** The seed's SAML config saved by hand: domain, sign-in URL, certificate, IdP entity id, signRequest. */
  saml: `${configuration}/saml`,
  domains: `${configuration}/domains`,
  domain: `${configuration}/domains/{domainId}`,
  validateDomain: `${configuration}/domains/{domainId}/validate`,
  roles: `${configuration}/roles`,
  groups: `${configuration}/groups`,
  /** "Test connection": starts a test sign-in at the IdP (POST), then its report (GET .../test/{testId}). */
  test: `${configuration}/test`,
  testReport: `${configuration}/test/{testId}`,
} as const;

/** The DNS TXT record value that proves control of a domain starts with this. */
export const SSO_DOMAIN_TXT_PREFIX = 'gatehouse-verification=';
