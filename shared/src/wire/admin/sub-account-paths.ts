/**
 * Paths and constants of sub-accounts (seed 001 sections 3 "Account", 7 "Tenants", 9): plain data, no
 * zod, so the admin portal's All accounts section imports them without the schemas.
 * `{subTenantId}` is the account acted on: the caller's own tenant or one of its descendants.
 */
const sub = '/tenants/resources/sub-tenants/v1/{subTenantId}';

export const SubAccountPaths = {
  /** GET ?parentTenantId&_offset&_limit&_sortBy&_order: one account (default: the caller's) with one page of its children. */
  tree: '/tenants/resources/hierarchy/v1/tree',
  /** GET ?_filter&_offset&_limit: descendants (any depth) whose name starts with `_filter`. */
  search: '/tenants/resources/hierarchy/v1/search',
  /** GET: the caller's tenant as an account (hierarchy settings, counts). */
  metadata: '/tenants/resources/hierarchy/v1/metadata',
  /** POST { tenantIds }: users count of each account (ones the caller cannot reach are left out). */
  usersCount: '/tenants/resources/hierarchy/v1/users-count',
  /** GET: the accounts from the caller's tenant down to this one's parent (the breadcrumb). */
  parents: '/tenants/resources/hierarchy/v1/{subTenantId}/parents',
  /** POST { name, parentTenantId?, tenantId? }: creates a sub-account. */
  subTenants: '/tenants/resources/sub-tenants/v1',
  /** GET (selected account), PATCH { name?, parentTenantId?, metadata?, tenantType? }, DELETE (no children). */
  subTenant: sub,
  /** PUT { isReseller }: enables or disables sub-account management of a descendant. */
  management: `${sub}/management`,
  /** PUT { subAccountAccessType }: how the account's users reach its descendants. */
  hierarchySettings: `${sub}/hierarchy-settings`,
  /** GET: the account's roles (for the add-users and edit-roles dialogs). */
  roles: `${sub}/roles`,
  /** GET ?_offset&_limit (<= 10): the account's users; POST { userIds, roleIds }: adds users of the caller's tenant. */
  users: `${sub}/users`,
  /** DELETE: removes the user from the account. */
  user: `${sub}/users/{userId}`,
  /** PUT { roleIds }: the user's roles in that account. */
  userRoles: `${sub}/users/{userId}/roles`,
  /** PUT { allowAccess }: grants or revokes the user's access to the account's descendants. */
  userAccess: `${sub}/users/{userId}/access`,
} as const;

/** Seed 001 section 9: accounts page limit 50 (offset 0); account users limit 10. */
export const ACCOUNTS_PAGE_LIMIT = 50;
export const ACCOUNT_USERS_LIMIT = 10;

/** Seed 001 section 3. */
export const SubAccountAccessTypes = ['defaultOff', 'defaultOn', 'alwaysOn'] as const;
export type SubAccountAccessType = (typeof SubAccountAccessTypes)[number];
export const TenantTypes = ['customer', 'spam', 'test', 'reseller', 'headquarter'] as const;
export type TenantType = (typeof TenantTypes)[number];
export const AccountSortKeys = ['createdAt', 'name', 'tenantId'] as const;
export type AccountSortKey = (typeof AccountSortKeys)[number];

/** A tenant id chosen on create: letters, digits, '-', '_' or '.', starting with a letter or digit, at most 64. */
export const TENANT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
