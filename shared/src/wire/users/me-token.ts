import { z } from 'zod';

/**
 * POST /identity/resources/users/v3/me/token: a fresh access token of the caller's own session, its
 * claims (roles, permissions, entitlements, tenants) read now, for `tenantId` (one of the caller's
 * tenants) or, without it, the tenant of the token presented. The session's active tenant and its
 * refresh token are left alone, and the new token expires no later than the one presented.
 */
export const MeTokenRequest = z.object({ tenantId: z.string().min(1).max(64).optional() }).strict();
export type MeTokenRequest = z.infer<typeof MeTokenRequest>;

export const MeTokenResponse = z.object({
  accessToken: z.string(),
  /** Seconds until the token expires. */
  expiresIn: z.number().int(),
  /** When the token expires (ISO 8601). */
  expires: z.string(),
  tenantId: z.string(),
  userId: z.string(),
});
export type MeTokenResponse = z.infer<typeof MeTokenResponse>;
