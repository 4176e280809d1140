/** Wire schemas of the signed-in user's login sessions (seed 001 section 3 "Session": id, userAgent, createdAt, ipAddress, current). */
import { z } from 'zod';

export const UserSession = z.object({
  id: z.string(),
  /** The browser's User-Agent at sign-in (at most 512 characters), or null. */
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  ipAddress: z.string().nullable(),
  /** True for the session of the access token making the call. */
  current: z.boolean(),
});
export type UserSession = z.infer<typeof UserSession>;

export const UserSessionsResponse = z.array(UserSession);
export type UserSessionsResponse = z.infer<typeof UserSessionsResponse>;

export const RevokeSessionsResponse = z.object({ revoked: z.number().int() });
export type RevokeSessionsResponse = z.infer<typeof RevokeSessionsResponse>;
