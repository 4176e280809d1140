/**
 * Wire schemas of the admin portal's users (the "team"; seed 001 sections 3, 4, 5, 7). Validated by
 * the server; the portal imports only the types.
 */
import { z } from 'zod';
import { INVITE_LINK_DEFAULT_EXPIRY_MINUTES, TEAM_PAGE_SIZE, UserFilterPresets, UserSortFields } from './paths';
import { RoleSummary } from '../users/users';
import { ListCursorParam, ListCursors } from './list-cursor';

const id = z.string().trim().min(1).max(64);
const pageSize = z.coerce.number().int().min(1).max(100);
const page = z.coerce.number().int().min(0).max(1_000_000);
const search = z.string().trim().max(200);

/** The users list of one tenant, as the server runs it (either query style below turns into this). */
export interface UsersListQuery {
  page: number;
  pageSize: number;
  search?: string;
  sortBy: (typeof UserSortFields)[number];
  sortDirection: 'asc' | 'desc';
  preset?: (typeof UserFilterPresets)[number];
  /** Keyset pagination (issue 17): the page after or before the one this cursor came from; `page` is then 0. */
  cursor?: string;
}

/** GET /identity/resources/users/v3: `_offset` is the page index (0 first), `_limit` the page size. */
export const UsersV3Query = z.object({
  _offset: page.default(0),
  _limit: pageSize.default(TEAM_PAGE_SIZE),
  _filter: search.optional(),
  _sortBy: z.enum(UserSortFields).default('name'),
  _order: z.enum(['ASC', 'DESC', 'asc', 'desc']).default('ASC'),
  _preset: z.enum(UserFilterPresets).optional(),
  cursor: ListCursorParam.optional(),
  tenantId: z.string().max(64).optional(),
});

/** GET /team/resources/members/v1 (seed 001 section 3 "Users list query"). */
export const TeamMembersQuery = z.object({
  pageOffset: page.default(0),
  pageSize: pageSize.default(TEAM_PAGE_SIZE),
  filter: search.optional(),
  sortBy: z.enum(UserSortFields).default('name'),
  sortDirection: z.enum(['asc', 'desc']).default('asc'),
  preset: z.enum(UserFilterPresets).optional(),
  cursor: ListCursorParam.optional(),
  tenantId: z.string().max(64).optional(),
});

export const GroupSummary = z.object({ id: z.string(), name: z.string(), color: z.string().nullable() });
export type GroupSummary = z.infer<typeof GroupSummary>;

/** One user of the tenant: the users table's row (user, groups, roles, joinedAt, lastSeen, managedBy) and its state. */
export const TenantUser = z.object({
  id: z.string(),
  email: z.string().nullable(),
  name: z.string(),
  phoneNumber: z.string().nullable(),
  profilePictureUrl: z.string().nullable(),
  tenantId: z.string(),
  roleIds: z.array(z.string()),
  roles: z.array(RoleSummary),
  groups: z.array(GroupSummary),
  verified: z.boolean(),
  /** Locked by an admin of this tenant, or by the lockout policy. */
  isLocked: z.boolean(),
  isDisabled: z.boolean(),
  /** Invited and not accepted yet. */
  invitationPending: z.boolean(),
  temporaryExpirationDate: z.string().nullable(),
  mfaEnrolled: z.boolean(),
  isBreachedPassword: z.boolean(),
  provider: z.string(),
  /**
   * Who manages the membership, as the seed's data contract spells it (values kept verbatim):
   * 'frontegg' = the tenant itself (its admins invite, edit and remove the user; `provider` says how
   * the user signs in: local, social or SSO), 'scim2' = the tenant's identity provider through SCIM
   * (changes come from there). Never show the raw value: the portal words it in the tenant's terms
   * ("<company name>", "Identity provider (SCIM)").
   */
  managedBy: z.enum(['frontegg', 'scim2']),
  superUser: z.boolean(),
  createdAt: z.string(),
  joinedAt: z.string(),
  lastSeen: z.string().nullable(),
});
export type TenantUser = z.infer<typeof TenantUser>;

export const UsersPage = z.object({
  items: z.array(TenantUser),
  _metadata: z.object({ totalItems: z.number().int(), totalPages: z.number().int() }),
  ...ListCursors,
});
export type UsersPage = z.infer<typeof UsersPage>;

/** ?ids=a,b,c (seed 001 section 7: "ids joined by commas"), at most 100. */
export const UserIdsQuery = z.object({
  ids: z
    .string()
    .max(6600)
    .transform((s) => [...new Set(s.split(',').map((v) => v.trim()).filter(Boolean))])
    .pipe(z.array(id).min(1, 'ids: give at least one user id').max(100, 'ids: at most 100 user ids')),
  tenantId: z.string().max(64).optional(),
});
export const UsersRolesResponse = z.array(z.object({ userId: z.string(), roles: z.array(RoleSummary) }));
export type UsersRolesResponse = z.infer<typeof UsersRolesResponse>;
export const UsersGroupsResponse = z.array(z.object({ userId: z.string(), groups: z.array(GroupSummary) }));
export type UsersGroupsResponse = z.infer<typeof UsersGroupsResponse>;

/**
 * PUT /team/resources/members/v1: sets the user's roles in the tenant. Seed 001 section 5: removing
 * every role sends a single empty role id, so `['']` means "no roles".
 */
export const SetUserRolesRequest = z
  .object({
    id,
    roleIds: z.array(z.string().trim().max(64)).max(50).transform((ids) => [...new Set(ids.filter((v) => v !== ''))]),
  })
  .strict();
export type SetUserRolesRequest = z.input<typeof SetUserRolesRequest>;

/** PUT temporary user: expires this many seconds from now (at least a minute, at most ten years). */
export const TemporaryUserRequest = z.object({ expirationInSeconds: z.number().int().min(60).max(315_360_000) }).strict();
export type TemporaryUserRequest = z.infer<typeof TemporaryUserRequest>;
export const TemporaryUsersConfiguration = z.object({ enabled: z.boolean() });
export type TemporaryUsersConfiguration = z.infer<typeof TemporaryUsersConfiguration>;

/** POST bulk invite: the emails are processed one by one (seed 001 section 5). */
export const BulkInviteRequest = z
  .object({
    emails: z.array(z.string().trim().max(320)).min(1).max(100),
    roleIds: z.array(id).max(50).optional(),
  })
  .strict();
export type BulkInviteRequest = z.infer<typeof BulkInviteRequest>;
export const BulkInviteResponse = z.object({
  allowed: z.array(z.object({ email: z.string(), userId: z.string() })),
  unallowed: z.array(z.object({ email: z.string(), reason: z.string(), errorCode: z.string().optional() })),
});
export type BulkInviteResponse = z.infer<typeof BulkInviteResponse>;

export const TeamStats = z.object({
  totalUsers: z.number().int(),
  pendingInvitations: z.number().int(),
  disabled: z.number().int(),
  locked: z.number().int(),
  temporary: z.number().int(),
  mfaUnenrolled: z.number().int(),
  breachedPasswords: z.number().int(),
  inactive: z.number().int(),
});
export type TeamStats = z.infer<typeof TeamStats>;

// ---- invite links (seed 001 section 3 "Invite link: token, expiresInMinutes") ----

const expiresInMinutes = z.number().int().min(1).max(525_600);
export const CreateInviteLinkRequest = z.object({ expiresInMinutes: expiresInMinutes.default(INVITE_LINK_DEFAULT_EXPIRY_MINUTES) }).strict();
export type CreateInviteLinkRequest = z.input<typeof CreateInviteLinkRequest>;
export const UpdateInviteLinkRequest = z.object({ expiresInMinutes }).strict();
export type UpdateInviteLinkRequest = z.infer<typeof UpdateInviteLinkRequest>;
export const InviteLink = z.object({
  id: z.string(),
  token: z.string(),
  /** The sign-up page of the app with the token, to share. */
  url: z.string(),
  expires: z.string(),
  /** Minutes left until it expires. */
  expiresInMinutes: z.number().int(),
});
export type InviteLink = z.infer<typeof InviteLink>;
export const JoinByInviteLinkRequest = z.object({ token: z.string().trim().min(1).max(512) }).strict();
export const JoinByInviteLinkResponse = z.object({ tenantId: z.string(), tenantName: z.string(), joined: z.boolean() });
export type JoinByInviteLinkResponse = z.infer<typeof JoinByInviteLinkResponse>;
/** Public: POST …/invites/v1/verify { token } answers the tenant's name (seed 000 section 7.3 "Verify invite token returns name"). */
export const VerifyInviteLinkRequest = JoinByInviteLinkRequest;
export const VerifyInviteLinkResponse = z.object({ name: z.string() });
export type VerifyInviteLinkResponse = z.infer<typeof VerifyInviteLinkResponse>;

export const UserIdParam = z.object({ userId: id });
