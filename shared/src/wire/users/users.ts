import { z } from 'zod';

export const RoleSummary = z.object({ id: z.string(), key: z.string(), name: z.string(), description: z.string().optional() });
export const PermissionSummary = z.object({ id: z.string(), key: z.string(), name: z.string(), categoryId: z.string().optional() });
export type RoleSummary = z.infer<typeof RoleSummary>;
export type PermissionSummary = z.infer<typeof PermissionSummary>;

export const TenantSummary = z.object({
  id: z.string(),
  tenantId: z.string(),
  name: z.string(),
  createdAt: z.string(),
  isReseller: z.boolean().optional(),
});
export type TenantSummary = z.infer<typeof TenantSummary>;

/** GET /identity/resources/users/v2/me */
export const MeResponse = z.object({
  id: z.string(),
  /** Null for an account made by phone sign-up (its phoneNumber identifies it). */
  email: z.string().nullable(),
  name: z.string(),
  username: z.string().nullable(),
  verified: z.boolean(),
  tenantId: z.string(),
  tenantIds: z.array(z.string()),
  tenants: z.array(TenantSummary),
  phoneNumber: z.string().nullable(),
  address: z.string().nullable(),
  jobTitle: z.string().nullable(),
  profilePictureUrl: z.string().nullable(),
  roles: z.array(RoleSummary),
  permissions: z.array(PermissionSummary),
  superUser: z.boolean(),
  mfaEnrolled: z.boolean(),
  metadata: z.string().nullable(),
  createdAt: z.string(),
  lastLogin: z.string().nullable(),
});
export type MeResponse = z.infer<typeof MeResponse>;

/** PUT /identity/resources/users/v2/me. Every field optional; null clears it. */
export const UpdateMeRequest = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  phoneNumber: z.string().trim().max(32).regex(/^\+?[0-9 ()\-]*$/, 'phoneNumber may hold only digits, spaces, parentheses, dashes and a leading +').nullable().optional(),
  address: z.string().trim().max(500).nullable().optional(),
  jobTitle: z.string().trim().max(200).nullable().optional(),
  profilePictureUrl: z.string().max(2048).nullable().optional(),
  metadata: z.string().max(8192).nullable().optional(),
}).strict();
export type UpdateMeRequest = z.infer<typeof UpdateMeRequest>;

/** PUT /team/resources/profile/me/image/v1: a base64 image data URL (seed 001 section 5). */
export const ProfileImageRequest = z.object({
  profileImage: z.string().max(1_500_000).regex(/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/, 'profileImage must be a base64 data URL of a png, jpeg, gif or webp image'),
});
export type ProfileImageRequest = z.infer<typeof ProfileImageRequest>;

/** GET /identity/resources/users/v1/me/authorization */
export const MeAuthorizationResponse = z.object({ roles: z.array(RoleSummary), permissions: z.array(PermissionSummary) });
export type MeAuthorizationResponse = z.infer<typeof MeAuthorizationResponse>;

/** GET /identity/resources/users/v3/me/tenants */
export const MeTenantsV3Response = z.object({ tenants: z.array(TenantSummary), activeTenant: TenantSummary });
export type MeTenantsV3Response = z.infer<typeof MeTenantsV3Response>;

/** PUT /identity/resources/users/v1/tenant */
export const SwitchTenantRequest = z.object({ tenantId: z.string().min(1).max(64) });
export type SwitchTenantRequest = z.infer<typeof SwitchTenantRequest>;

/** PUT /identity/resources/users/v1/tenant answers with an access token for the new tenant. */
export { LoginResponse as SwitchTenantResponse } from '../auth/auth';
