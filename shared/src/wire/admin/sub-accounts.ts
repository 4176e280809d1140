/** Wire schemas of sub-accounts (seed 001 sections 3 "Account", "Account user", "Selected account"; 7 "Tenants"). */
import { z } from 'zod';
import { AccountSortKeys, ACCOUNT_USERS_LIMIT, ACCOUNTS_PAGE_LIMIT, SubAccountAccessTypes, TENANT_ID_PATTERN, TenantTypes } from './sub-account-paths';
import { RoleSummary } from '../users/users';

export * from './sub-account-paths';

const id = z.string().trim().min(1).max(64);
const scoped = { tenantId: z.string().max(64).optional() };
const offset = z.coerce.number().int().min(0).max(1_000_000).default(0);

/** An account (tenant) as the hierarchy shows it. */
export const Account = z.object({
  tenantId: z.string(),
  name: z.string(),
  parentTenantId: z.string().nullable(),
  numberOfUsers: z.number().int(),
  numberOfSubAccounts: z.number().int(),
  createdAt: z.string(),
  metadata: z.string().nullable(),
  isReseller: z.boolean(),
  subAccountAccessType: z.enum(SubAccountAccessTypes),
  tenantType: z.enum(TenantTypes),
});
export type Account = z.infer<typeof Account>;

/** One account with one page of its children; `loadMoreLink` is the next page's path, or null. */
export const AccountNode = Account.extend({ children: z.array(Account), loadMoreLink: z.string().nullable() });
export type AccountNode = z.infer<typeof AccountNode>;

export const AccountRef = z.object({ tenantId: z.string(), name: z.string() });
export type AccountRef = z.infer<typeof AccountRef>;
export const ParentsResponse = z.object({ parents: z.array(AccountRef) });
export type ParentsResponse = z.infer<typeof ParentsResponse>;

/** The selected account: the account, its parents from the caller's tenant down, its number of sub-accounts. */
export const SelectedAccount = Account.extend({ parentsAccounts: z.array(AccountRef) });
export type SelectedAccount = z.infer<typeof SelectedAccount>;

export const AccountsSearchResponse = z.object({ items: z.array(Account), loadMoreLink: z.string().nullable() });
export type AccountsSearchResponse = z.infer<typeof AccountsSearchResponse>;

export const TreeQuery = z.object({
  ...scoped,
  parentTenantId: id.optional(),
  _offset: offset,
  _limit: z.coerce.number().int().min(1).max(ACCOUNTS_PAGE_LIMIT).default(ACCOUNTS_PAGE_LIMIT),
  _sortBy: z.enum(AccountSortKeys).default('name'),
  _order: z.enum(['ASC', 'DESC']).default('ASC'),
});
export type TreeQuery = z.infer<typeof TreeQuery>;
export const SearchQuery = z.object({
  ...scoped,
  _filter: z.string().trim().min(1).max(100),
  _offset: offset,
  _limit: z.coerce.number().int().min(1).max(ACCOUNTS_PAGE_LIMIT).default(ACCOUNTS_PAGE_LIMIT),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

export const UsersCountRequest = z.object({ tenantIds: z.array(id).min(1).max(ACCOUNTS_PAGE_LIMIT) }).strict();
export const UsersCountResponse = z.object({ items: z.array(z.object({ tenantId: z.string(), numberOfUsers: z.number().int() })) });
export type UsersCountResponse = z.infer<typeof UsersCountResponse>;

const tenantIdChoice = z.string().regex(TENANT_ID_PATTERN, 'tenantId may hold letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit)');
export const CreateSubAccountRequest = z
  .object({
    name: z.string().trim().min(1).max(100),
    parentTenantId: id.optional(),
    tenantId: tenantIdChoice.optional(),
    metadata: z.string().max(8192).optional(),
    tenantType: z.enum(TenantTypes).optional(),
  })
  .strict();
export type CreateSubAccountRequest = z.infer<typeof CreateSubAccountRequest>;
export const UpdateSubAccountRequest = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    parentTenantId: id.optional(),
    metadata: z.string().max(8192).nullable().optional(),
    tenantType: z.enum(TenantTypes).optional(),
  })
  .strict();
export type UpdateSubAccountRequest = z.infer<typeof UpdateSubAccountRequest>;
export const ManagementRequest = z.object({ isReseller: z.boolean() }).strict();
/** Seed 001 section 5: the update proceeds only if an access type is given (checked by the service, with its own message). */
export const HierarchySettingsRequest = z.object({ subAccountAccessType: z.enum(SubAccountAccessTypes).optional() }).strict();
export type HierarchySettingsRequest = z.infer<typeof HierarchySettingsRequest>;

/** A user of an account: roles there, and whether they reach the account's descendants. */
export const AccountUser = z.object({ id: z.string(), name: z.string(), email: z.string().nullable(), roles: z.array(RoleSummary), subAccountAccessAllowed: z.boolean() });
export type AccountUser = z.infer<typeof AccountUser>;
export const AccountUsersQuery = z.object({ ...scoped, _offset: offset, _limit: z.coerce.number().int().min(1).max(ACCOUNT_USERS_LIMIT).default(ACCOUNT_USERS_LIMIT) });
export const AccountUsersResponse = z.object({ items: z.array(AccountUser), _metadata: z.object({ totalItems: z.number().int(), offset: z.number().int(), limit: z.number().int() }) });
export type AccountUsersResponse = z.infer<typeof AccountUsersResponse>;
export const AccountRolesResponse = z.object({ items: z.array(RoleSummary) });
export type AccountRolesResponse = z.infer<typeof AccountRolesResponse>;
export const AddAccountUsersRequest = z.object({ userIds: z.array(id).min(1).max(ACCOUNT_USERS_LIMIT), roleIds: z.array(id).max(50).default([]) }).strict();
export type AddAccountUsersRequest = z.infer<typeof AddAccountUsersRequest>;
export const AccountUserRolesRequest = z.object({ roleIds: z.array(id).max(50) }).strict();
export const AccountUserAccessRequest = z.object({ allowAccess: z.boolean() }).strict();

export const SubTenantParam = z.object({ subTenantId: id });
export const SubTenantUserParam = z.object({ subTenantId: id, userId: id });
