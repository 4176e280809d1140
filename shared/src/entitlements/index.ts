/**
 * The entitlements evaluator (seed 000 sections 3 and 6): rule operations, targeting rules, feature
 * flags, plan targeting, and the feature and permission checks with their justification. Pure and
 * framework-free: the server computes entitlements with it and the browser core checks them with it.
 *
 * SCAFFOLD (issue 13): the signatures below are the contract the server and the browser core code
 * against; the evaluator's owner replaces the bodies (and may split them into files here).
 */
import type { CheckAttributes, EntitlementResult, EntitlementsContext, FlagDefinition, PlanTargeting, Treatment } from './types';

export * from './types';

/** Options of a check. `explain`: also say which source decided (EntitlementResult.explanation). `now`: epoch ms (tests). */
export interface CheckOptions {
  explain?: boolean;
  now?: number;
}

/**
 * The attribute record rules read: custom attributes as given, `jwt.<path>` for every (flattened)
 * token claim, and `frontegg.email`, `frontegg.emailVerified`, `frontegg.tenantId`,
 * `frontegg.userId` taken from the claims (seed 000 section 6).
 */
export function prepareAttributes(attributes: CheckAttributes = {}): Record<string, unknown> {
  void attributes;
  throw new Error('entitlements evaluator: prepareAttributes is not built yet');
}

/** A flag's treatment for these (prepared) attributes, and the index of the rule that decided (undefined: off or default treatment). */
export function evaluateFlag(flag: FlagDefinition, attributes: Record<string, unknown>): { treatment: Treatment; ruleIndex?: number } {
  void flag;
  void attributes;
  throw new Error('entitlements evaluator: evaluateFlag is not built yet');
}

/** A plan's targeting treatment for these (prepared) attributes. */
export function evaluatePlanTargeting(plan: PlanTargeting, attributes: Record<string, unknown>): { treatment: Treatment; ruleIndex?: number } {
  void plan;
  void attributes;
  throw new Error('entitlements evaluator: evaluatePlanTargeting is not built yet');
}

/** Is the user entitled to this feature (direct, then feature flag, then plan targeting)? */
export function isEntitledToFeature(featureKey: string, context: EntitlementsContext | null | undefined, attributes?: CheckAttributes, options?: CheckOptions): EntitlementResult {
  void featureKey;
  void context;
  void attributes;
  void options;
  throw new Error('entitlements evaluator: isEntitledToFeature is not built yet');
}

/** Is the user entitled to this permission (seed 000 section 6; patterns with `*`)? */
export function isEntitledToPermission(permissionKey: string, context: EntitlementsContext | null | undefined, attributes?: CheckAttributes, options?: CheckOptions): EntitlementResult {
  void permissionKey;
  void context;
  void attributes;
  void options;
  throw new Error('entitlements evaluator: isEntitledToPermission is not built yet');
}
