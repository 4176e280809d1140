/**
 * Paths and constants of SCIM provisioning (seed 001 sections 3 "Provisioning connection", 7
 * "Directory: SCIM configuration CRUD with deleteAll"): plain data, no zod, so the admin portal can
 * import them without the schemas (provisioning.ts re-exports them for the server).
 */
const id = '{id}';
export const ProvisioningPaths = {
  /** GET: the tenant's connections (never a token). POST { source }: a new one, answering its token once. */
  scim2Configurations: '/directory/resources/v1/configurations/scim2',
  /** DELETE ?deleteAll=true|false: removes the connection (and, with deleteAll, the users it made). */
  scim2Configuration: `/directory/resources/v1/configurations/scim2/${id}`,
  /** POST: a new token for the connection; the old one stops working at once. */
  scim2ConfigurationToken: `/directory/resources/v1/configurations/scim2/${id}/token`,
  /** GET ?offset&limit: the connection's request log, newest first. */
  scim2ConfigurationRequests: `/directory/resources/v1/configurations/scim2/${id}/requests`,
  /** The SCIM 2.0 service provider's base URL (RFC 7644), relative to the server's public URL. */
  scimBase: '/scim/v2',
} as const;

/** Seed 001 section 3: "SCIM source: frontegg, okta, azure-ad, other" (frontegg: Gatehouse's own). */
export const ScimSources = ['frontegg', 'okta', 'azure-ad', 'other'] as const;
export type ScimSource = (typeof ScimSources)[number];

/** Prefix of a connection's bearer token: `ghscim.<connectionId>.<secret>`. */
export const SCIM_TOKEN_PREFIX = 'ghscim.';

/** The request log keeps this many requests per connection; older ones are dropped. */
export const SCIM_REQUEST_LOG_SIZE = 1000;
/** Page size bounds of the request log route. */
export const SCIM_REQUEST_LOG_DEFAULT_LIMIT = 20;
export const SCIM_REQUEST_LOG_MAX_LIMIT = 100;

/** Error codes of provisioning (ER-025xx, a range of its own). */
export const ProvisioningErrorCodes = {
  /** The connection is unknown in the tenant acted in. */
  connectionNotFound: 'ER-02501',
  /** The user or group is managed by SCIM (managedBy: scim2) and is read-only in the admin API. */
  managedByScim: 'ER-02502',
  /** The tenant already has the most provisioning connections it may have (MAX_SCIM_CONNECTIONS). */
  tooManyConnections: 'ER-02503',
} as const;
export type ProvisioningErrorCode = (typeof ProvisioningErrorCodes)[keyof typeof ProvisioningErrorCodes];
