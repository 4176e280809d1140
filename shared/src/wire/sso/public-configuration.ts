import { z } from 'zod';

/**
 * GET /identity/resources/configurations/v1/sso/public: whether SSO sign-in is active in this
 * deployment (some tenant has an enabled, complete SSO configuration with a validated domain), so a
 * login box can skip the SSO lookup at preLogin when it is not. Which tenants, domains or providers
 * is never told.
 */
export const SsoPublicConfiguration = z.object({ isActive: z.boolean() });
export type SsoPublicConfiguration = z.infer<typeof SsoPublicConfiguration>;
