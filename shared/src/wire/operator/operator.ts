/**
 * Wire schemas of the Operator area (issue 13): plans, features, feature flags, direct grants, the
 * vendor billing configuration and OAuth applications, managed by super users.
 */
import { z } from 'zod';
import { TrialEndOptions } from '../billing/paths';
import { RulesSchema } from '../entitlements/entitlements';

export * from './paths';

const slug = z.string().min(1).max(64).regex(/^[a-z0-9][a-z0-9-]*$/);
const key = z.string().min(1).max(100).regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/);
const name = z.string().trim().min(1).max(120);
const description = z.string().max(1000);

export const PlanFeatureGrant = z.object({ featureKey: key, limit: z.number().int().min(0).nullable().optional() }).strict();

export const OperatorPlanBody = z.object({
  name,
  description: description.optional(),
  slug,
  price: z.object({ amount: z.number().int().min(0).max(100_000_000), currency: z.string().regex(/^[a-z]{3}$/) }).strict(),
  recurringInterval: z.literal('month').optional(),
  trialDays: z.number().int().min(0).max(730).optional(),
  seatLimit: z.number().int().min(1).max(10_000_000).nullable().optional(),
  isActive: z.boolean().optional(),
  features: z.array(PlanFeatureGrant).max(200).optional(),
  /** Plan targeting rules (evaluator "plan targeting"). */
  defaultTreatment: z.enum(['true', 'false']).optional(),
  rules: RulesSchema.nullable().optional(),
}).strict();
export type OperatorPlanBody = z.infer<typeof OperatorPlanBody>;
export const OperatorPlanPatch = OperatorPlanBody.partial().strict();

export const OperatorPlan = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  slug: z.string(),
  price: z.object({ amount: z.number().int(), currency: z.string() }),
  recurringInterval: z.literal('month'),
  trialDays: z.number().int(),
  seatLimit: z.number().int().nullable(),
  isActive: z.boolean(),
  isDefault: z.boolean(),
  features: z.array(z.object({ featureKey: z.string(), limit: z.number().int().nullable() })),
  defaultTreatment: z.enum(['true', 'false']),
  rules: RulesSchema.nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type OperatorPlan = z.infer<typeof OperatorPlan>;

export const FeatureBody = z.object({ key, name, description: description.optional(), linkedPermissions: z.array(z.string().min(1).max(200)).max(100).optional() }).strict();
export const FeaturePatch = FeatureBody.partial().strict();
export const Feature = z.object({ id: z.string(), key: z.string(), name: z.string(), description: z.string(), linkedPermissions: z.array(z.string()), createdAt: z.number().int(), updatedAt: z.number().int() });
export type Feature = z.infer<typeof Feature>;

export const FeatureFlagBody = z.object({
  key,
  name,
  description: description.optional(),
  on: z.boolean(),
  offTreatment: z.enum(['true', 'false']).optional(),
  defaultTreatment: z.enum(['true', 'false']).optional(),
  rules: RulesSchema.optional(),
  /** Features this flag grants while its treatment is 'true'. */
  featureKeys: z.array(key).max(100).optional(),
}).strict();
export const FeatureFlagPatch = FeatureFlagBody.partial().strict();
export const FeatureFlag = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  description: z.string(),
  on: z.boolean(),
  offTreatment: z.enum(['true', 'false']),
  defaultTreatment: z.enum(['true', 'false']),
  rules: RulesSchema,
  featureKeys: z.array(z.string()),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type FeatureFlag = z.infer<typeof FeatureFlag>;

export const GrantBody = z.object({ featureKey: key, tenantId: z.string().min(1).max(128), userId: z.string().min(1).max(128).optional(), expiresAt: z.number().int().positive().nullable().optional() }).strict();
export const Grant = z.object({ id: z.string(), featureKey: z.string(), tenantId: z.string(), userId: z.string().nullable(), expiresAt: z.number().int().nullable(), createdAt: z.number().int() });
export type Grant = z.infer<typeof Grant>;

/** PUT billing-configuration/v1. A secret left out (or null) keeps the stored one; '' clears it. */
export const BillingConfigurationBody = z.object({
  secretKey: z.string().max(300).nullable().optional(),
  publishableKey: z.string().max(300).nullable().optional(),
  webhookSecret: z.string().max(300).nullable().optional(),
  allowPlanDowngrade: z.boolean(),
  allowPlanCancellation: z.boolean(),
  trialEndOption: z.enum(TrialEndOptions),
  /** null: no default plan. An empty id is refused (400), never stored. */
  defaultPlanId: z.string().min(1).max(128).nullable(),
}).strict();
export const BillingConfiguration = z.object({
  providerType: z.literal('Stripe'),
  status: z.enum(['0', '1']),
  secretKeySet: z.boolean(),
  webhookSecretSet: z.boolean(),
  publishableKey: z.string().nullable(),
  allowPlanDowngrade: z.boolean(),
  allowPlanCancellation: z.boolean(),
  trialEndOption: z.enum(TrialEndOptions),
  defaultPlanId: z.string().nullable(),
  /** Where Stripe is called (STRIPE_API_URL), for the operator's information. */
  apiBase: z.string(),
  updatedAt: z.number().int().nullable(),
});
export type BillingConfiguration = z.infer<typeof BillingConfiguration>;

export const ApplicationBody = z.object({
  clientId: z.string().min(3).max(100).regex(/^[A-Za-z0-9._-]+$/),
  name: name.optional(),
  redirectUris: z.array(z.string().max(2000)).min(1).max(50),
  postLogoutRedirectUris: z.array(z.string().max(2000)).max(50).optional(),
  confidential: z.boolean().optional(),
}).strict();
export const ApplicationPatch = ApplicationBody.omit({ clientId: true, confidential: true }).partial().strict();
export const Application = z.object({
  clientId: z.string(),
  name: z.string(),
  redirectUris: z.array(z.string()),
  postLogoutRedirectUris: z.array(z.string()),
  confidential: z.boolean(),
  /** 'database' (managed here and by the CLI) or 'file' (OAUTH_CLIENTS_FILE, read-only). */
  source: z.string(),
  /** Only in the answer that created it or made a new one. */
  clientSecret: z.string().optional(),
});
export type Application = z.infer<typeof Application>;
