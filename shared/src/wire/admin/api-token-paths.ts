/**
 * Paths and constants of API tokens (seed 001 sections 5, 7): plain data, no zod, so the admin
 * portal can import them without the schemas (api-tokens.ts re-exports them for the server).
 */
const tokenId = '{tokenId}';
export const ApiTokenPaths = {
  /** GET, POST { description, expiresInMinutes? }: the caller's personal ClientCredentials tokens in the tenant. */
  userApiTokens: '/identity/resources/users/api-tokens/v1',
  userApiToken: `/identity/resources/users/api-tokens/v1/${tokenId}`,
  /** GET, POST { description, roleIds, expiresInMinutes? }: the tenant's ClientCredentials tokens. */
  tenantApiTokens: '/identity/resources/tenants/api-tokens/v1',
  tenantApiToken: `/identity/resources/tenants/api-tokens/v1/${tokenId}`,
  /** The same for AccessToken type tokens. */
  userAccessTokens: '/identity/resources/users/access-tokens/v1',
  userAccessToken: `/identity/resources/users/access-tokens/v1/${tokenId}`,
  tenantAccessTokens: '/identity/resources/tenants/access-tokens/v1',
  tenantAccessToken: `/identity/resources/tenants/access-tokens/v1/${tokenId}`,
} as const;

export const ApiTokenTypes = ['ClientCredentials', 'AccessToken'] as const;
export type ApiTokenType = (typeof ApiTokenTypes)[number];

/** Seed 001 section 5: the dialog asks for days; the API takes minutes. */
export const MINUTES_PER_DAY = 1440;
export const expiryDaysToMinutes = (days: number): number => days * MINUTES_PER_DAY;

/** Prefix of an AccessToken type bearer token (never a JWT, which has no such prefix). */
export const ACCESS_TOKEN_PREFIX = 'gh_at.';
