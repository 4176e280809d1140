import { z } from 'zod';

/** POST /identity/resources/auth/v1/user */
export const LoginRequest = z.object({
  email: z.string().trim().min(1).max(320).optional(),
  username: z.string().trim().min(1).max(320).optional(),
  password: z.string().min(1).max(1024),
  recaptchaToken: z.string().max(4096).optional(),
  invitationToken: z.string().max(512).optional(),
}).refine((b) => b.email || b.username, { message: 'email or username is required' });
export type LoginRequest = z.infer<typeof LoginRequest>;

/**
 * Login response (seed 000 section 3). The refresh token travels only in the httpOnly cookie,
 * so `refreshToken` is never filled in for browser calls.
 */
export const LoginResponse = z.object({
  accessToken: z.string(),
  refreshToken: z.string().optional(),
  expiresIn: z.number().int(),
  expires: z.string(),
  mfaRequired: z.boolean(),
  mfaToken: z.string().optional(),
  tenantId: z.string().optional(),
  userId: z.string().optional(),
  resetPasswordToken: z.string().optional(),
  /** Rotation (seed 4.2): expired (no session; resetPasswordToken given) or, signed in, the days left within the notification period. */
  passwordRotation: z.object({ expired: z.boolean(), daysToExpiry: z.number().int() }).optional(),
  /** The password is on the breached list (flag breached-password on): no session; a new one must be set (seed 3). */
  isBreachedPassword: z.boolean().optional(),
  /** Activation of a sign-up made through an invite link that was deleted or expired since: signed in to a tenant of its own instead. */
  invitationFailed: z.boolean().optional(),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

/** POST /identity/resources/auth/v1/user/token/refresh */
export const RefreshRequest = z.object({ tenantId: z.string().max(64).optional() }).partial();
export type RefreshRequest = z.infer<typeof RefreshRequest>;

/** Claims of the access token (DESIGN.md "Tokens"). */
export interface AccessTokenClaims {
  sub: string;
  /** Absent for an account made by phone sign-up (no email address). */
  email?: string;
  email_verified: boolean;
  name: string;
  tenantId: string;
  tenantIds: string[];
  roles: string[];
  permissions: string[];
  amr: string[];
  acr: string;
  auth_time: number;
  superUser?: boolean;
  sid?: string;
  /** RFC 8693 actor: set when an admin impersonates this user; `sub` is the impersonator's id. */
  act?: { sub: string; email?: string };
  /**
   * RFC 9068: the hosted-login client the token was issued to (an OAuth grant's tokens only; the
   * login box's tokens have none). An application's API accepts only its own client's tokens.
   */
  client_id?: string;
  iss: string;
  aud: string;
  exp: number;
  iat: number;
}
