/**
 * Wire schemas of IP and email-domain restrictions (issue 12; seed 001 sections 3 "IP restriction",
 * "Domain restriction", 7 "Email-domain and IP restrictions", 9). An IP entry is one IPv4 or IPv6
 * address or a CIDR range; invalid input is a 400 naming the field.
 */
import { z } from 'zod';
import { RestrictionStrategies } from './paths';

export * from './paths';

const strategy = z.enum(RestrictionStrategies);
/** Saving something that would shut out the caller's own address needs this set (409 otherwise). */
const confirmSelfLockout = z.boolean().optional();

export const IpRestriction = z.object({
  id: z.string(),
  ip: z.string(),
  isActive: z.boolean(),
  description: z.string(),
  strategy,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type IpRestriction = z.infer<typeof IpRestriction>;

/** `ip` is validated by the server (address or CIDR, canonical form stored). */
export const CreateIpRestrictionRequest = z.object({
  ip: z.string().trim().min(1).max(64),
  isActive: z.boolean().optional(),
  description: z.string().trim().max(200).optional(),
  strategy,
  confirmSelfLockout,
}).strict();
export type CreateIpRestrictionRequest = z.infer<typeof CreateIpRestrictionRequest>;
export const UpdateIpRestrictionRequest = CreateIpRestrictionRequest.partial().strict();
export type UpdateIpRestrictionRequest = z.infer<typeof UpdateIpRestrictionRequest>;
export const BulkIpRestrictionsRequest = z.object({
  restrictions: z.array(CreateIpRestrictionRequest.omit({ confirmSelfLockout: true })).min(1).max(500),
  confirmSelfLockout,
}).strict();
export type BulkIpRestrictionsRequest = z.infer<typeof BulkIpRestrictionsRequest>;

export const RestrictionListQuery = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
export const IpRestrictionList = z.object({ items: z.array(IpRestriction), total: z.number().int() });
export type IpRestrictionList = z.infer<typeof IpRestrictionList>;

export const IpRestrictionConfig = z.object({ isActive: z.boolean(), strategy });
export type IpRestrictionConfig = z.infer<typeof IpRestrictionConfig>;
export const SaveIpRestrictionConfigRequest = IpRestrictionConfig.extend({ confirmSelfLockout }).strict();
export type SaveIpRestrictionConfigRequest = z.infer<typeof SaveIpRestrictionConfigRequest>;

export const IpVerifyResponse = z.object({ allowed: z.boolean(), ip: z.string() });
export type IpVerifyResponse = z.infer<typeof IpVerifyResponse>;

export const EmailDomainRestriction = z.object({ id: z.string(), domain: z.string(), type: strategy, createdAt: z.string() });
export type EmailDomainRestriction = z.infer<typeof EmailDomainRestriction>;
/** `domain` is validated by the server (a DNS name, stored lower case, no leading @). */
export const CreateEmailDomainRestrictionRequest = z.object({ domain: z.string().trim().min(1).max(253), type: strategy }).strict();
export type CreateEmailDomainRestrictionRequest = z.infer<typeof CreateEmailDomainRestrictionRequest>;
export const UpdateEmailDomainRestrictionRequest = CreateEmailDomainRestrictionRequest.partial().strict();
export type UpdateEmailDomainRestrictionRequest = z.infer<typeof UpdateEmailDomainRestrictionRequest>;
export const BulkEmailDomainRestrictionsRequest = z.object({ restrictions: z.array(CreateEmailDomainRestrictionRequest).min(1).max(500) }).strict();
export type BulkEmailDomainRestrictionsRequest = z.infer<typeof BulkEmailDomainRestrictionsRequest>;
export const EmailDomainRestrictionList = z.object({ items: z.array(EmailDomainRestriction), total: z.number().int() });
export type EmailDomainRestrictionList = z.infer<typeof EmailDomainRestrictionList>;

export const EmailDomainRestrictionConfig = z.object({ active: z.boolean(), listType: strategy, blockPublicDomains: z.boolean() }).strict();
export type EmailDomainRestrictionConfig = z.infer<typeof EmailDomainRestrictionConfig>;

export const EmailDomainVerifyRequest = z.object({ email: z.string().trim().min(3).max(320) }).strict();
export const EmailDomainVerifyResponse = z.object({
  allowed: z.boolean(),
  /** Why not: NOT_IN_ALLOWLIST, IN_BLOCKLIST or PUBLIC_DOMAIN. */
  reason: z.enum(['NOT_IN_ALLOWLIST', 'IN_BLOCKLIST', 'PUBLIC_DOMAIN']).optional(),
});
export type EmailDomainVerifyResponse = z.infer<typeof EmailDomainVerifyResponse>;
