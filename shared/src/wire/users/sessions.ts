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
  /** When the session last refreshed its token (ISO 8601). */
  lastActiveAt: z.string(),
  /** The device read from the User-Agent by the server; each part null when it cannot tell. */
  device: z.object({
    browser: z.string().nullable(),
    browserVersion: z.string().nullable(),
    os: z.string().nullable(),
    /** desktop, mobile, tablet, tv, bot, or null. */
    type: z.string().nullable(),
  }),
});
export type UserSession = z.infer<typeof UserSession>;

export const UserSessionsResponse = z.array(UserSession);
export type UserSessionsResponse = z.infer<typeof UserSessionsResponse>;

export const RevokeSessionsResponse = z.object({ revoked: z.number().int() });
export type RevokeSessionsResponse = z.infer<typeof RevokeSessionsResponse>;
