import { z } from 'zod';
import { LoginResponse } from '../auth/auth';

const userId = z.string().min(1).max(64);
const token = z.string().min(1).max(512);

/**
 * POST /identity/resources/users/v1 (signed in; permission fe.secure.write.users in the tenant):
 * invites a user into the caller's current tenant. `roleIds` are roles of that tenant; without them
 * the tenant's default role is granted.
 */
export const InviteUserRequest = z
  .object({
    email: z.string().trim().toLowerCase().email().max(320),
    name: z.string().trim().min(1).max(200),
    phoneNumber: z.string().trim().max(32).optional(),
    roleIds: z.array(z.string().min(1).max(64)).max(50).optional(),
  })
  .strict();
export type InviteUserRequest = z.infer<typeof InviteUserRequest>;

/** The invited user as the tenant sees them. */
export const InvitedUserResponse = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  tenantId: z.string(),
  roleIds: z.array(z.string()),
  /** False until the invitee accepts (a new user) or joins (an existing account). */
  invitationAccepted: z.boolean(),
  invitationExpiresAt: z.string(),
});
export type InvitedUserResponse = z.infer<typeof InvitedUserResponse>;

/** POST .../users/v1/invitation/verify: the link's userId and token (nothing is used up). */
export const InvitationTokenRequest = z.object({ userId, token });
export type InvitationTokenRequest = z.infer<typeof InvitationTokenRequest>;

/** What the accept-invitation screen greets the invitee with ("Verify invite token returns name"). */
export const VerifyInvitationResponse = z.object({
  name: z.string(),
  email: z.string(),
  tenantName: z.string(),
  /** A new account chooses its password on acceptance; an existing one keeps its own. */
  shouldSetPassword: z.boolean(),
  /** The invitation email carries a code that acceptance needs (INVITATION_STRATEGY=code). */
  codeRequired: z.boolean(),
});
export type VerifyInvitationResponse = z.infer<typeof VerifyInvitationResponse>;

/** POST .../users/v1/invitation/accept (link strategy). */
export const AcceptInvitationRequest = z.object({ userId, token, password: z.string().max(1024).optional() });
export type AcceptInvitationRequest = z.infer<typeof AcceptInvitationRequest>;

/** POST .../users/v1/invitation/accept/code (code strategy): the link's token and userId plus the emailed code. */
export const AcceptInvitationWithCodeRequest = AcceptInvitationRequest.extend({
  code: z.string().trim().regex(/^\d{6}$/, 'code must be the 6-digit code from the invitation email'),
});
export type AcceptInvitationWithCodeRequest = z.infer<typeof AcceptInvitationWithCodeRequest>;

/**
 * `signedIn`: a new account set its password and is signed in (`authResponse`, possibly mfaRequired);
 * `joined`: an existing account joined the tenant and signs in as usual.
 */
export const AcceptInvitationResponse = z.object({
  outcome: z.enum(['signedIn', 'joined']),
  tenantId: z.string(),
  authResponse: LoginResponse.optional(),
});
export type AcceptInvitationResponse = z.infer<typeof AcceptInvitationResponse>;

/** POST .../users/v1/invitation/reset: a new invitation email (same answer for any address). */
export const ResendInvitationRequest = z.object({ email: z.string().trim().toLowerCase().email().max(320) });
export type ResendInvitationRequest = z.infer<typeof ResendInvitationRequest>;

/** POST /identity/resources/impersonation/v1 (signed in; permission fe.secure.write.impersonate). */
export const ImpersonationRequest = z
  .object({
    userId,
    /** Why, for the audit record. */
    reason: z.string().trim().max(500).optional(),
  })
  .strict();
export type ImpersonationRequest = z.infer<typeof ImpersonationRequest>;

/** A short-lived, single-use token; `url` is the login box's impersonation route with it. */
export const ImpersonationResponse = z.object({ token: z.string(), expiresIn: z.number().int(), url: z.string() });
export type ImpersonationResponse = z.infer<typeof ImpersonationResponse>;

/** POST /identity/resources/auth/v1/impersonate: exchanges the token for a session of the target. */
export const ImpersonateRequest = z.object({ token });
export type ImpersonateRequest = z.infer<typeof ImpersonateRequest>;
