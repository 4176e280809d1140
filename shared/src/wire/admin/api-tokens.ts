/**
 * Wire schemas and paths of API tokens (seed 001 sections 3 "API token", 5 "Token expiry in days
 * converts to minutes (days times 1440)", 6 "Token creation for the tenant takes roleIds; user tokens
 * do not", 7 "API tokens and access tokens, user and tenant: GET, POST, DELETE").
 *
 * - ClientCredentials tokens: `clientId` + `secret`, exchanged at the OAuth token endpoint
 *   (grant_type=client_credentials) for a short access token carrying the token's permissions.
 * - AccessToken tokens: `secret` is itself the bearer token (`gh_at.<id>.<random>`).
 *
 * The secret is answered once, by the POST; lists never carry it.
 */
import { z } from 'zod';
import { ApiTokenTypes, MINUTES_PER_DAY } from './api-token-paths';

export * from './api-token-paths';

const description = z.string().trim().min(1).max(200);
/** Up to 10 years; omitted: the token never expires. */
const expiresInMinutes = z.number().int().min(1).max(3650 * MINUTES_PER_DAY);

export const CreateUserApiTokenRequest = z.object({ description, expiresInMinutes: expiresInMinutes.optional() }).strict();
export type CreateUserApiTokenRequest = z.infer<typeof CreateUserApiTokenRequest>;
export const CreateTenantApiTokenRequest = z
  .object({ description, roleIds: z.array(z.string().trim().min(1).max(64)).max(50), expiresInMinutes: expiresInMinutes.optional() })
  .strict();
export type CreateTenantApiTokenRequest = z.infer<typeof CreateTenantApiTokenRequest>;

/** A token as lists show it: never the secret. */
export const ApiToken = z.object({
  /** The token id (seed: "id or tokenId for access tokens"); the path parameter of DELETE. */
  id: z.string(),
  clientId: z.string(),
  type: z.enum(ApiTokenTypes),
  description: z.string(),
  createdAt: z.string(),
  /** Tenant tokens: the roles it acts with. Personal tokens: empty (they act with the owner's). */
  roleIds: z.array(z.string()),
  /** Minutes left, or null when it never expires. */
  expiresInMinutes: z.number().int().nullable(),
  expires: z.string().nullable(),
  /** Personal tokens: the owner. */
  userId: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ApiToken>;

/** The POST answer: the token plus its secret, shown once. */
export const CreatedApiToken = ApiToken.extend({ secret: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

export const ApiTokenList = z.object({ items: z.array(ApiToken) });
export type ApiTokenList = z.infer<typeof ApiTokenList>;
