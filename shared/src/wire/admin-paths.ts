/**
 * The admin portal's runtime entry to the wire (`@gatehouse/shared/admin-paths`): the paths and
 * constants of every admin section, zod-free, so the portal never loads the schemas.
 */
/** Users, roles, groups and the invite link. */
export * from './admin/paths';

/** The audit log's paths, columns and constants (zod-free; the portal's audits section uses them). */
export * from './admin/audit-paths';

/** The account settings' paths, choices and checks (zod-free; the portal's account section uses them). */
export * from './account/paths';

/** The signed-in user's own login sessions (Privacy section). */
export * from './users/session-paths';
/** The signed-in user's username (Profile section). */
export * from './users/username-paths';
/** The API tokens' paths and expiry constants (zod-free; the portal's API tokens sections use them). */
export * from './admin/api-token-paths';
/** Sub-accounts' paths and constants (zod-free; the portal's All accounts section uses them). */
export * from './admin/sub-account-paths';
/** The signed-in user's email change and new recovery codes (Privacy section's self-service). */
export * from './users/self-service-paths';
/** Adding a texted-code or security-key second factor (Privacy section's self-service). */
export * from './mfa/paths';
/** The permission keys and their wildcard match (the portal's sections and access checks; never in the runtime the login box loads). */
export { Permissions, permissionMatches, type PermissionKey } from './admin/permissions';
/** Tenant security: policies, restrictions and the security center's paths, codes and constants (the portal's Security section and security center). */
export * from './security/paths';
/** Subscriptions and billing: paths, statuses and the seed's error messages (Subscription and Usage sections, checkout). */
export * from './billing/paths';
/** Entitlements v2 and the claim name (browser core and the portal's Usage section). */
export * from './entitlements/paths';
/** The Operator area (super users only). */
export * from './operator/paths';
/** Publishing a CDN version: caps and name rules (Operator area, CDN tab). */
export * from './operator/cdn-publish';
export { CDN_BUNDLES } from './platform/cdn-manifest';
/** SCIM provisioning: the connections' paths, sources and error codes (the portal's Provisioning section). */
export * from './provisioning/paths';
/** Applications: the vendor's (operators) and their assignment to a tenant's users (users table, multi-app mode). */
export * from './applications/paths';
/** Enterprise SSO configuration: paths and the TXT prefix (the portal's SSO section). */
export { SsoPaths, SSO_DOMAIN_TXT_PREFIX } from './sso/paths';
/** The connectivity area's own paths: the event catalogue (the portal's Connectivity section). */
export { ConnectivityPaths } from './connectivity/paths';
/** Webhooks: paths and delivery constants (the portal's Connectivity section, Webhooks tab). */
export * from './connectivity/webhook-paths';
/** Notification channels (email, Slack, SMS): paths, limits, Slack scopes and error codes (the portal's Connectivity section). */
export * from './connectivity/channel-paths';
/** The portal's notifications: paths, categories, states and the stream's limits (the notification bell). */
export * from './connectivity/notification-paths';
/** Reports: paths, templates' filters and their validation, dataFilters encoding (the portal's Reports section). */
export * from './connectivity/report-paths';
