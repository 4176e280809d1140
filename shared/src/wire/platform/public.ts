import { z } from 'zod';

/** GET /flags: flag name -> value. A flag is on only when its value is the string 'on'. */
export const FlagsResponse = z.record(z.string(), z.string());
export type FlagsResponse = z.infer<typeof FlagsResponse>;

/** GET /metadata?entityName=adminBox: the loader reads rows[0].configuration. */
export const MetadataResponse = z.object({
  rows: z.array(z.object({ entityName: z.string(), configuration: z.record(z.string(), z.unknown()) })),
});
export type MetadataResponse = z.infer<typeof MetadataResponse>;

/** GET /metadata/ip */
export const IpMetadataResponse = z.object({ ip: z.string(), country_code: z.string().nullable() });
export type IpMetadataResponse = z.infer<typeof IpMetadataResponse>;

/**
 * GET /tenants/resources/account-settings/v1/public?tenantId=: what anyone may see of an account (its
 * login page look). Without a tenant, or for an unknown one, every field is empty.
 */
export const PublicAccountSettings = z.object({
  applicationUrl: z.string().nullable(),
  hasCustomLogin: z.boolean(),
  logo: z.string().nullable(),
  companyName: z.string().nullable(),
  /** Set only while custom login is on. */
  loginTitle: z.string().nullable(),
  loginColor: z.string().nullable(),
});
export type PublicAccountSettings = z.infer<typeof PublicAccountSettings>;

/** GET /vendors/public: what the login box needs to know about this deployment. */
export const VendorPublicConfig = z.object({
  name: z.string(),
  allowSignUps: z.boolean(),
  loginStrategy: z.string(),
  signUpStrategies: z.object({
    email: z.object({ enabled: z.boolean(), required: z.boolean() }),
    phoneNumber: z.object({ enabled: z.boolean(), required: z.boolean() }),
  }),
  passwordConfig: z.object({
    allowPassphrases: z.boolean(),
    maxLength: z.number().int(),
    minLength: z.number().int(),
    minPhraseLength: z.number().int(),
    minOptionalTestsToPass: z.number().int(),
  }),
  /** Login policy's secondary strategies, e.g. `{ strategy: 'Passkeys', isActive: true }` (seed 000 section 4.2). */
  secondaryLoginStrategies: z.array(z.object({ strategy: z.string(), isActive: z.boolean() })).optional(),
  /** At least one social login provider is on: the login box loads its provider buttons (seed 000 section 1). */
  socialLogin: z.boolean().optional(),
});
export type VendorPublicConfig = z.infer<typeof VendorPublicConfig>;
