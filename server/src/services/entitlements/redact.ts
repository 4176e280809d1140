/**
 * The targeting rules GET entitlements v2 sends to the browser (which evaluates them with the
 * host's custom attributes) are the operator's, written for every tenant: a flag "for tenants
 * [a, b]" or a plan "for emails ending @customer.com" would show every signed-in user other
 * tenants' ids and customers' addresses. Conditions on what the server knows of the caller
 * (`frontegg.*` and `jwt.*`) are therefore decided here, for this caller, and sent as a condition
 * that gives the same answer in the browser and names only the caller's own user id; conditions on
 * custom attributes are sent as written.
 */
import { evaluateCondition, type Condition, type ConditionGroup, type EntitlementsContext, type Rule } from '@gatehouse/shared/entitlements';

const KNOWN = /^(jwt|frontegg)\./;

const isGroup = (item: unknown): item is ConditionGroup => !!item && typeof item === 'object' && 'conditionLogic' in item && !('op' in item);

function redactItem(item: Condition | ConditionGroup, attributes: Record<string, unknown>, userId: string): Condition | ConditionGroup {
  if (isGroup(item)) return { ...item, conditions: Array.isArray(item.conditions) ? item.conditions.map((c) => redactItem(c, attributes, userId)) : [] };
  if (!item || typeof item !== 'object' || typeof item.attribute !== 'string' || !KNOWN.test(item.attribute)) return item;
  // frontegg.userId is the token's `sub` in the browser too: in_list [own id] holds, negate gives the decided answer.
  return { attribute: 'frontegg.userId', op: 'in_list', value: { list: [userId] }, negate: !evaluateCondition(item, attributes) };
}

function redactRules(rules: Rule[] | undefined, attributes: Record<string, unknown>, userId: string): Rule[] | undefined {
  return Array.isArray(rules) ? rules.map((rule) => ({ ...rule, ...(redactItem(rule, attributes, userId) as ConditionGroup) })) : rules;
}

/** A copy of `context` whose flag and plan rules hold no condition on frontegg.* or jwt.* (decided for the caller). */
export function redactContext<T extends EntitlementsContext>(context: T, attributes: Record<string, unknown>, userId: string): T {
  const features: EntitlementsContext['features'] = {};
  for (const [key, feature] of Object.entries(context.features)) {
    features[key] = feature.featureFlag ? { ...feature, featureFlag: { ...feature.featureFlag, rules: redactRules(feature.featureFlag.rules, attributes, userId) } } : feature;
  }
  const plans: EntitlementsContext['plans'] = {};
  for (const [id, plan] of Object.entries(context.plans)) plans[id] = { ...plan, rules: redactRules(plan.rules, attributes, userId) };
  return { ...context, features, plans };
}
