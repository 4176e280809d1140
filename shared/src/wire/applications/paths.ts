/**
 * Paths and constants of applications (issue 15; seed 001 sections 3 "Application: id, accessType
 * (FREE_ACCESS or MANAGED_ACCESS), userIds", 7 "Applications: user app ids, app data, tenant apps,
 * users of apps, assign or unassign (userId, appIds, tenantId)", 8). Plain data, no zod: the admin
 * portal imports it at run time; the schemas are in applications.ts.
 *
 * The vendor's applications are managed by operators (super users) under `/applications/resources`;
 * a tenant admin reads them and assigns the tenant's users under `/identity/resources/applications`.
 */
const vendor = '/applications/resources/applications/v1';
const identity = '/identity/resources/applications/v1';

export const ApplicationPaths = {
  /** Operators: GET (every application of the vendor) | POST `{ name, url, logo?, accessType?, clientId? }`. */
  applications: vendor,
  /** Operators: GET | PATCH | DELETE (its assignments go with it). */
  application: `${vendor}/{appId}`,
  /** Anyone: an uploaded logo's bytes (public, immutable: a new logo gets a new URL). */
  logo: `${vendor}/logos/{logoId}`,
  /** Tenant admins: GET "tenant apps": `{ tenantId, appIds }`, the applications the tenant's users may be given. */
  tenantApps: `${identity}/tenant-apps`,
  /** Tenant admins: GET `?ids=a,b` "app data": id, name, URL, logo and access type (every application without ids). */
  apps: `${identity}/apps`,
  /** Tenant admins: GET "user app ids": `{ userId, appIds }`, the applications the user is assigned in the tenant. */
  userApps: `${identity}/{userId}/apps`,
  /** Tenant admins: GET `?ids=a,b` (users): `[{ userId, appIds }]`, for the users table's applications column. */
  usersApps: `${identity}/users-apps`,
  /** Tenant admins: GET `?ids=a,b` (applications) "users of apps": `[{ id, accessType, userIds }]` in the tenant. */
  appsUsers: `${identity}/apps-users`,
  /** Tenant admins: POST `{ userId, appIds, tenantId }`: assigns the user to the applications. */
  assign: `${identity}/assign`,
  /** Tenant admins: POST `{ userId, appIds, tenantId }`: unassigns the user from the applications. */
  unassign: `${identity}/unassign`,
} as const;

/** Seed 001 section 3: who may use an application. MANAGED_ACCESS: only the users assigned to it. */
export const APPLICATION_ACCESS_TYPES = ['FREE_ACCESS', 'MANAGED_ACCESS'] as const;
export type ApplicationAccessType = (typeof APPLICATION_ACCESS_TYPES)[number];

/** At most this many applications in one assign or unassign call, and ids in one `?ids=` list. */
export const APPLICATION_IDS_MAX = 100;

/** Seed 001 section 8: what the portal shows when an assignment fails. */
export const ASSIGNMENT_FAILED_MESSAGE = 'Assignment action failed. Try again or contact support.';

/** Error codes of applications (ER-051xx, a range of their own). */
export const ApplicationErrorCodes = {
  /** A MANAGED_ACCESS application refused sign-in (or its token) to a user not assigned to it. */
  notAssigned: 'ER-05101',
  /** The hosted-login client is already linked to another application. */
  clientLinked: 'ER-05102',
} as const;
export type ApplicationErrorCode = (typeof ApplicationErrorCodes)[keyof typeof ApplicationErrorCodes];

/** Feature flag (seed 000 section 2.1): the admin portal may be shown in multi-app mode only while it is on. */
export const MULTI_APPS_ADMIN_PORTAL_FLAG = 'multi-apps-admin-portal';
