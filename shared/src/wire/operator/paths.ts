/**
 * Paths of the Operator area (issue 13): what the vendor's super users manage. Every operation
 * needs a super user (403 otherwise) and writes an audit row. Plain data, no zod; the schemas are
 * in operator.ts.
 */
const operator = '/operator/resources';

export const OperatorPaths = {
  /** GET (all plans, active or not) | POST. */
  plans: `${operator}/plans/v1`,
  /** GET | PATCH | DELETE (a plan a subscription uses is deactivated, not deleted). */
  plan: `${operator}/plans/v1/{id}`,
  features: `${operator}/features/v1`,
  feature: `${operator}/features/v1/{id}`,
  featureFlags: `${operator}/feature-flags/v1`,
  featureFlag: `${operator}/feature-flags/v1/{id}`,
  /** GET `?tenantId&userId` | POST `{ featureKey, tenantId, userId?, expiresAt? }`: direct grants. */
  grants: `${operator}/entitlement-grants/v1`,
  grant: `${operator}/entitlement-grants/v1/{id}`,
  /** GET | PUT: Stripe keys (secrets never answered, only whether set), plan rules, trial-end option, default plan. */
  billingConfiguration: `${operator}/billing-configuration/v1`,
  /** GET | POST: the OAuth applications (hosted login clients) the CLI manages. */
  applications: `${operator}/applications/v1`,
  /** GET | PATCH | DELETE. */
  application: `${operator}/applications/v1/{clientId}`,
  /** POST: a new secret for a confidential application, answered once. */
  applicationSecret: `${operator}/applications/v1/{clientId}/secret`,
  /** GET: every published version of every bundle, with its rollout state and size over the wire (issue 18). */
  cdnVersions: `${operator}/cdn/v1/versions`,
  /** POST `{ version, percent?, tenants? }`: make a version the default, the canary, or pinned for tenants. */
  cdnPromote: `${operator}/cdn/v1/bundles/{bundle}/promote`,
  /** POST: the previous default becomes the default again (409 when there is none). */
  cdnRollback: `${operator}/cdn/v1/bundles/{bundle}/rollback`,
  /** DELETE: the bundle's canary. */
  cdnCanary: `${operator}/cdn/v1/bundles/{bundle}/canary`,
  /** DELETE: a tenant's pin. */
  cdnPin: `${operator}/cdn/v1/bundles/{bundle}/pins/{tenantId}`,
  /** POST `{ keep }`: removes unused versions beyond the newest `keep` of each bundle. */
  cdnPrune: `${operator}/cdn/v1/prune`,
  /** POST `{ bundle, version, files: { path: base64 } }`: publish a version folder (201, or 200 when already published with the same bytes). */
  cdnPublish: `${operator}/cdn/v1/publish`,
} as const;

export const OperatorErrorCodes = {
  notSuperUser: 'ER-04001',
  slugTaken: 'ER-04002',
  keyTaken: 'ER-04003',
  notFound: 'ER-04004',
  invalidRules: 'ER-04005',
  inUse: 'ER-04006',
  /** An OAuth application from OAUTH_CLIENTS_FILE (or dev mode's demo-spa): changed in its file, not here. */
  readOnly: 'ER-04007',
  /** CDN (issue 18): a published version already exists with other bytes, or a folder's files.json does not match its files. */
  cdnVersionConflict: 'ER-04008',
  /** CDN (issue 18): the rollout would name a version whose files do not verify; nothing changed. */
  cdnManifestInvalid: 'ER-04009',
  /** CDN (issue 18): rollback asked of a bundle with no previous default. */
  cdnNoPrevious: 'ER-04010',
} as const;
export type OperatorErrorCode = (typeof OperatorErrorCodes)[keyof typeof OperatorErrorCodes];
