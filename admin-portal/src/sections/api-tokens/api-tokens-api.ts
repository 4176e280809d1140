/**
 * The API tokens sections' calls to the identity API (seed 001 section 7 "API tokens and access
 * tokens, user and tenant: GET, POST, DELETE"). One client for both kinds: personal tokens (the
 * caller's own, acting with the caller's permissions) and tenant tokens (acting with their roles).
 */
import { AdminPaths, ApiTokenPaths, expiryDaysToMinutes, type ApiTokenType } from '@gatehouse/shared/admin-paths';
import type { ApiToken, ApiTokenList, CreatedApiToken, Role, TeamRolesResponse } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';

/** Whose tokens a section manages: the signed-in user's own, or the account's. */
export type ApiTokenKind = 'user' | 'tenant';

export interface TokenInput {
  description: string;
  /** Whole days; null: the token never expires. */
  expiryDays: number | null;
  type: ApiTokenType;
  /** Tenant tokens only. */
  roleIds: string[];
}

const PATHS: Record<ApiTokenKind, Record<ApiTokenType, { list: string; one: string }>> = {
  user: {
    ClientCredentials: { list: ApiTokenPaths.userApiTokens, one: ApiTokenPaths.userApiToken },
    AccessToken: { list: ApiTokenPaths.userAccessTokens, one: ApiTokenPaths.userAccessToken },
  },
  tenant: {
    ClientCredentials: { list: ApiTokenPaths.tenantApiTokens, one: ApiTokenPaths.tenantApiToken },
    AccessToken: { list: ApiTokenPaths.tenantAccessTokens, one: ApiTokenPaths.tenantAccessToken },
  },
};

/** Newest first; ISO timestamps compare as strings. */
const newestFirst = (a: ApiToken, b: ApiToken) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0);

/** The body of a POST: the seed's days × 1440 minutes; no expiry field when it never expires; roles only for tenant tokens. */
export function createBody(kind: ApiTokenKind, input: TokenInput): Record<string, unknown> {
  return {
    description: input.description.trim(),
    ...(input.expiryDays === null ? {} : { expiresInMinutes: expiryDaysToMinutes(input.expiryDays) }),
    ...(kind === 'tenant' ? { roleIds: input.roleIds } : {}),
  };
}

export function createApiTokensApi(api: GatehouseApi, kind: ApiTokenKind) {
  const paths = PATHS[kind];
  return {
    /** Both types of token (two lists on the server), newest first. */
    list: async (): Promise<ApiToken[]> => {
      const [credentials, access] = await Promise.all([
        api.request<ApiTokenList>('GET', paths.ClientCredentials.list),
        api.request<ApiTokenList>('GET', paths.AccessToken.list),
      ]);
      return [...credentials.items, ...access.items].sort(newestFirst);
    },
    create: (input: TokenInput) => api.request<CreatedApiToken>('POST', paths[input.type].list, { body: createBody(kind, input) }),
    remove: (token: Pick<ApiToken, 'id' | 'type'>) => api.request<void>('DELETE', paths[token.type].one.replace('{tokenId}', encodeURIComponent(token.id))),
    /** The account's roles for the tenant token picker: the roles list, else the team dialogs' list. */
    roles: async (source: 'roles' | 'team'): Promise<Role[]> =>
      source === 'roles' ? api.request<Role[]>('GET', AdminPaths.rolesV1) : (await api.request<TeamRolesResponse>('GET', AdminPaths.teamRoles)).roles,
  };
}

export type ApiTokensApi = ReturnType<typeof createApiTokensApi>;
