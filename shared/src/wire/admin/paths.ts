/**
 * API paths of the admin portal's users, roles and groups (seed 001 section 7, "Identity resources"
 * and "Team"). Plain data, kept apart from `ApiPaths` so the login box never carries them; the admin
 * portal's sections and the server's routes share them. `{name}` segments are path parameters.
 */
const member = '/team/resources/members/v1/{userId}';
const tenantUser = '/identity/resources/tenants/users/v1/{userId}';
const role = '/identity/resources/roles/v1/{roleId}';
const permission = '/identity/resources/permissions/v1/{permissionId}';
const group = '/identity/resources/groups/v1/{groupId}';

export const AdminPaths = {
  // Users of the tenant (the "team")
  /** GET: one page of the tenant's users; `_offset` (page), `_limit`, `_filter`, `_sortBy`, `_order`, `_preset`. */
  usersV3: '/identity/resources/users/v3',
  /** GET ?ids=a,b: the roles of these users in the tenant. */
  usersRolesV3: '/identity/resources/users/roles/v3',
  /** GET ?ids=a,b: the groups of these users in the tenant. */
  usersGroupsV3: '/identity/resources/users/groups/v3',
  /** GET: one page (pageOffset, pageSize, filter, sortBy, sortDirection, preset); PUT { id, roleIds }: a user's roles. */
  teamMembers: '/team/resources/members/v1',
  /** DELETE: removes the user from the tenant. */
  teamMember: member,
  /** POST: emails the activation or invitation link again. */
  teamResendActivation: `${member}/resendActivationEmail`,
  /** GET: the roles (with their permissions) the team dialogs offer. */
  teamRoles: '/team/resources/roles/v1',
  /** GET: counts for the team page. */
  teamStats: '/team/resources/stats/v1/members',
  tenantUserDisable: `${tenantUser}/disable`,
  tenantUserEnable: `${tenantUser}/enable`,
  tenantUserLock: `${tenantUser}/lock`,
  tenantUserUnlock: `${tenantUser}/unlock`,
  /** PUT { expirationInSeconds }: temporary user; DELETE: permanent again. */
  temporaryUser: '/identity/resources/users/temporary/v1/{userId}',
  temporaryUsersConfiguration: '/identity/resources/users/temporary/v1/configuration',
  /** POST { emails, roleIds? }: invites each address, answering { allowed, unallowed }. */
  bulkInvite: '/identity/resources/users/bulk/v1/invite',
  /** GET, POST { expiresInMinutes? }, PATCH { expiresInMinutes }, DELETE: the tenant's invite link. */
  inviteLink: '/identity/resources/tenants/invites/v1/user',
  /** POST { token } (signed in): joins the invite link's tenant. */
  inviteLinkJoin: '/identity/resources/tenants/invites/v1/user/join',
  /** POST { token } (public, rate-limited per IP): { name } of a live invite link's tenant. */
  inviteLinkVerify: '/identity/resources/tenants/invites/v1/verify',

  // Roles and permissions
  rolesV1: '/identity/resources/roles/v1',
  rolesV2: '/identity/resources/roles/v2',
  role,
  rolePermissions: `${role}/permissions`,
  permissions: '/identity/resources/permissions/v1',
  permission,
  permissionRoles: `${permission}/roles`,
  permissionCategories: '/identity/resources/permissions/v1/categories',
  permissionCategory: '/identity/resources/permissions/v1/categories/{categoryId}',

  // Groups
  groups: '/identity/resources/groups/v1',
  group,
  groupRoles: `${group}/roles`,
  groupUsers: `${group}/users`,
  groupsBulkGet: '/identity/resources/groups/v1/bulkGet',
} as const;

/** Seed 001 section 9: team page size, and the default invite-link lifetime. */
export const TEAM_PAGE_SIZE = 20;
export const INVITE_LINK_DEFAULT_EXPIRY_MINUTES = 43200;
/** Seed 001 section 9: users without activity for this long are "inactive" (90 days). */
export const INACTIVE_USER_SECONDS = 7_776_000;

/** Seed 001 section 3: the users list's sort fields and filter presets. */
export const UserSortFields = ['createdAt', 'name', 'email', 'id', 'verified', 'isLocked', 'tenantId', 'provider'] as const;
export type UserSortField = (typeof UserSortFields)[number];
export const UserFilterPresets = ['mfa-unenrolled', 'breached-passwords', 'inactive'] as const;
export type UserFilterPreset = (typeof UserFilterPresets)[number];
