/**
 * Wire schemas of entitlements (issue 13; seed 000 sections 3, 6, 7.1). The response of GET
 * entitlements v2 is the evaluator's EntitlementsContext (`@gatehouse/shared/entitlements`).
 */
import { z } from 'zod';
import { RuleOperations } from '../../entitlements/types';

export * from './paths';

const treatment = z.enum(['true', 'false']);

export const ConditionSchema = z.object({
  attribute: z.string().min(1).max(200),
  op: z.enum(RuleOperations),
  value: z.record(z.string(), z.unknown()),
  negate: z.boolean(),
});

type GroupShape = { conditionLogic: 'and' | 'or'; conditions: Array<z.infer<typeof ConditionSchema> | GroupShape> };
// The id makes the OpenAPI generator write the recursion as a $ref (without it, it recurses forever).
export const ConditionGroupSchema: z.ZodType<GroupShape> = z
  .lazy(() => z.object({ conditionLogic: z.enum(['and', 'or']), conditions: z.array(z.union([ConditionSchema, ConditionGroupSchema])).max(50) }))
  .meta({ id: 'EntitlementConditionGroup' });

export const RuleSchema = z.object({
  conditionLogic: z.enum(['and', 'or']),
  conditions: z.array(z.union([ConditionSchema, ConditionGroupSchema])).max(50),
  treatment,
});
export const RulesSchema = z.array(RuleSchema).max(50);

export const FlagDefinitionSchema = z.object({ key: z.string().optional(), on: z.boolean(), offTreatment: treatment, defaultTreatment: treatment, rules: RulesSchema.optional() });

export const Explanation = z.object({
  source: z.enum(['direct', 'feature-flag', 'plan-targeting', 'permission', 'none']),
  featureKey: z.string().optional(),
  planId: z.string().optional(),
  flagKey: z.string().optional(),
  grantId: z.string().optional(),
  ruleIndex: z.number().int().optional(),
  reason: z.string(),
});

export const UserEntitlementsResponse = z.object({
  features: z.record(z.string(), z.object({
    planIds: z.array(z.string()),
    expireTime: z.number().nullable(),
    linkedPermissions: z.array(z.string()),
    featureFlag: FlagDefinitionSchema.optional(),
    /** The typed limit from the plan, when it sets one. */
    limit: z.number().int().nullable().optional(),
  })),
  plans: z.record(z.string(), z.object({ defaultTreatment: treatment, rules: RulesSchema.optional() })),
  permissions: z.record(z.string(), z.literal(true)),
  /** The tenant's plan: its live subscription's, else a retained trial's, else the vendor's default plan; null for none. */
  planId: z.string().nullable().optional(),
  /** `?explain=true`: per feature key, what decided it. */
  explain: z.record(z.string(), z.array(Explanation)).optional(),
});
export type UserEntitlementsResponse = z.infer<typeof UserEntitlementsResponse>;
