/**
 * The entitlement data contract (seed 000 sections 3, 6 and 7.1): what a user is entitled to, the
 * targeting rules of feature flags and plans, and the results of a check. Plain types and
 * constants; the same shapes travel on the wire (GET entitlements v2) and feed the evaluator.
 */

/** `expireTime` of a feature entitled with no expiry. */
export const NO_EXPIRATION = -1;

/** The 16 rule operations of seed 000 section 3, verbatim. */
export const RuleOperations = [
  'in_list',
  'starts_with',
  'ends_with',
  'contains',
  'matches',
  'equal',
  'greater_than',
  'greater_than_equal',
  'lower_than',
  'lower_than_equal',
  'between_numeric',
  'is',
  'on',
  'between_date',
  'on_or_after',
  'on_or_before',
] as const;
export type RuleOperation = (typeof RuleOperations)[number];

/** What a rule decides when it matches; also a flag's off and default treatment. */
export type Treatment = 'true' | 'false';
export type ConditionLogic = 'and' | 'or';

/**
 * The operand of a condition, by operation: `{ list }` (in_list; starts_with, ends_with and contains:
 * true when the attribute starts with / ends with / contains any item), `{ string }` (matches: a
 * regular expression), `{ number }` (equal and the comparisons), `{ start, end }`
 * (between_numeric: numbers; between_date: ISO dates), `{ boolean }` (is), `{ date }` (on,
 * on_or_after, on_or_before: an ISO date). Anything else makes the condition false.
 */
export type ConditionValue = Record<string, unknown>;

/** One test of one attribute; `negate` inverts a valid result. */
export interface Condition {
  attribute: string;
  op: RuleOperation;
  value: ConditionValue;
  negate: boolean;
}

/** Conditions combined with and/or; groups nest. */
export interface ConditionGroup {
  conditionLogic: ConditionLogic;
  conditions: Array<Condition | ConditionGroup>;
}

/** A targeting rule: when its conditions hold, its treatment applies. */
export interface Rule extends ConditionGroup {
  treatment: Treatment;
}

/** A feature flag as the evaluator sees it. */
export interface FlagDefinition {
  /** The flag's key, named by an explanation. */
  key?: string;
  on: boolean;
  offTreatment: Treatment;
  defaultTreatment: Treatment;
  rules?: Rule[];
}

/** A plan's targeting (plan targeting rules evaluator). */
export interface PlanTargeting {
  defaultTreatment: Treatment;
  rules?: Rule[];
}

/** One feature a user may be entitled to. */
export interface FeatureEntitlement {
  /** Plans that grant it (also the plans whose targeting may grant it). */
  planIds: string[];
  /** Epoch ms, NO_EXPIRATION (-1) for none, null for not entitled (seed 000 section 6). */
  expireTime: number | null;
  linkedPermissions: string[];
  /** The flag that may grant the feature by its rules. */
  featureFlag?: FlagDefinition;
}

/** Everything a check needs: a user's features, the plans that grant them, and their permissions. */
export interface EntitlementsContext {
  features: Record<string, FeatureEntitlement>;
  plans: Record<string, PlanTargeting>;
  permissions: Record<string, true>;
  /** The tenant's plan (GET entitlements v2), null for none; absent from servers before issue 14. */
  planId?: string | null;
}

/** Custom attributes a host passes to a check. */
export type CustomAttributes = Record<string, string | number | boolean | Date>;

/** The attributes of a check: custom ones and the (nested) token claims, flattened as `jwt.*`. */
export interface CheckAttributes {
  custom?: CustomAttributes;
  jwt?: Record<string, unknown>;
}

export type NotEntitledJustification = 'MISSING_FEATURE' | 'MISSING_PERMISSION' | 'BUNDLE_EXPIRED';

/** Which source decided a result (`explain`). */
export interface EntitlementExplanation {
  /** 'direct': granted (plan, grant) with an expiry; 'feature-flag' and 'plan-targeting': a rule decided. */
  source: 'direct' | 'feature-flag' | 'plan-targeting' | 'permission' | 'none';
  featureKey?: string;
  planId?: string;
  flagKey?: string;
  /** Index of the rule that matched, in the flag's or plan's rules; absent when the default or off treatment applied. */
  ruleIndex?: number;
  /** One sentence for people. */
  reason: string;
}

export type EntitlementResult =
  | { isEntitled: true; justification?: undefined; explanation?: EntitlementExplanation[] }
  | { isEntitled: false; justification: NotEntitledJustification; explanation?: EntitlementExplanation[] };
