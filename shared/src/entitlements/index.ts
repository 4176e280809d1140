/**
 * The entitlements evaluator (seed 000 sections 3 and 6): rule operations, targeting rules, feature
 * flags, plan targeting, and the feature and permission checks with their justification. Pure and
 * framework-free: the server computes entitlements with it and the browser core checks them with it.
 * docs/entitlement-rules.md describes the rules and where they deliberately differ from the peer.
 */
export * from './types';
export { prepareAttributes } from './attributes';
export { evaluateCondition, evaluateGroup } from './conditions';
export { evaluateFlag, evaluatePlanTargeting, type TreatmentResult } from './rules';
export { isEntitledToFeature, type CheckOptions } from './feature';
export { isEntitledToPermission, permissionCovers } from './permission';
export { isSafePattern, MAX_MATCHED_LENGTH, MAX_PATTERN_LENGTH } from './safe-regex';
export { operandProblem } from './validate';
