/**
 * Targeting rules: the first rule (in order) whose conditions hold decides; otherwise the default
 * treatment. A flag that is off answers its off treatment without reading its rules.
 */
import { evaluateGroup } from './conditions';
import type { FlagDefinition, PlanTargeting, Rule, Treatment } from './types';

/** The decision of a flag or a plan's targeting; `ruleIndex` names the rule that matched. */
export interface TreatmentResult {
  treatment: Treatment;
  ruleIndex?: number;
}

const treatmentOf = (value: unknown): Treatment => (value === 'true' ? 'true' : 'false');

function firstMatch(rules: Rule[] | undefined, defaultTreatment: unknown, attributes: Record<string, unknown>): TreatmentResult {
  const list = Array.isArray(rules) ? rules : [];
  const ruleIndex = list.findIndex((rule) => evaluateGroup(rule, attributes));
  return ruleIndex < 0 ? { treatment: treatmentOf(defaultTreatment) } : { treatment: treatmentOf(list[ruleIndex]?.treatment), ruleIndex };
}

/** A flag's treatment for these (prepared) attributes, and the index of the rule that decided (undefined: off or default treatment). */
export function evaluateFlag(flag: FlagDefinition, attributes: Record<string, unknown>): TreatmentResult {
  return flag.on === true ? firstMatch(flag.rules, flag.defaultTreatment, attributes) : { treatment: treatmentOf(flag.offTreatment) };
}

/** A plan's targeting treatment for these (prepared) attributes. */
export function evaluatePlanTargeting(plan: PlanTargeting, attributes: Record<string, unknown>): TreatmentResult {
  return firstMatch(plan.rules, plan.defaultTreatment, attributes);
}
