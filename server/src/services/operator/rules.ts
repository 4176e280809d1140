/**
 * Checks targeting rules beyond their wire schema (RulesSchema): every condition's operand must fit
 * its operation, as the evaluator reads it (shared/src/entitlements/types.ts), so a rule an operator
 * saves can never be silently false. A misfit is a 400 ER-04005 naming the rule and condition.
 *
 * Operands: in_list `{ list: string[] }`; starts_with, ends_with, contains `{ list: string[] }` or
 * `{ string }`; matches `{ string }` (a valid regular expression); equal and the comparisons
 * `{ number }`; between_numeric `{ start, end }` numbers with start <= end; is `{ boolean }`; on,
 * on_or_after, on_or_before `{ date }` (an ISO 8601 date); between_date `{ start, end }` dates in order.
 */
import type { Condition, ConditionGroup, Rule, RuleOperation } from '@gatehouse/shared/entitlements';
import { OperatorErrors } from './errors';

const MAX_LIST = 1000;
const MAX_STRING = 1000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

type Operand = Record<string, unknown>;

const isString = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_STRING;
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isDate = (v: unknown): v is string => typeof v === 'string' && ISO_DATE.test(v) && Number.isFinite(Date.parse(v));
const isList = (v: unknown): v is string[] => Array.isArray(v) && v.length >= 1 && v.length <= MAX_LIST && v.every(isString);

function hasOnly(value: Operand, keys: string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((k) => own.includes(k));
}

/** Why `value` does not fit `op`, or null when it does. */
export function operandProblem(op: RuleOperation, value: Operand): string | null {
  switch (op) {
    case 'in_list':
      return hasOnly(value, ['list']) && isList(value.list) ? null : `${op} takes { list: [strings] } (1 to ${MAX_LIST} strings)`;
    case 'starts_with':
    case 'ends_with':
    case 'contains':
      if (hasOnly(value, ['list']) && isList(value.list)) return null;
      return hasOnly(value, ['string']) && isString(value.string) ? null : `${op} takes { list: [strings] } or { string }`;
    case 'matches': {
      if (!hasOnly(value, ['string']) || !isString(value.string)) return `${op} takes { string: a regular expression }`;
      try {
        new RegExp(value.string);
        return null;
      } catch {
        return `${op}: ${JSON.stringify(value.string)} is not a valid regular expression`;
      }
    }
    case 'equal':
    case 'greater_than':
    case 'greater_than_equal':
    case 'lower_than':
    case 'lower_than_equal':
      return hasOnly(value, ['number']) && isNumber(value.number) ? null : `${op} takes { number }`;
    case 'between_numeric':
      if (!hasOnly(value, ['start', 'end']) || !isNumber(value.start) || !isNumber(value.end)) return `${op} takes { start: number, end: number }`;
      return value.start <= value.end ? null : `${op}: start must not be greater than end`;
    case 'is':
      return hasOnly(value, ['boolean']) && typeof value.boolean === 'boolean' ? null : `${op} takes { boolean }`;
    case 'on':
    case 'on_or_after':
    case 'on_or_before':
      return hasOnly(value, ['date']) && isDate(value.date) ? null : `${op} takes { date: an ISO 8601 date }`;
    case 'between_date':
      if (!hasOnly(value, ['start', 'end']) || !isDate(value.start) || !isDate(value.end)) return `${op} takes { start, end }: ISO 8601 dates`;
      return Date.parse(value.start) <= Date.parse(value.end) ? null : `${op}: start must not be after end`;
    default:
      return `unknown operation ${JSON.stringify(op)}`;
  }
}

const isGroup = (c: Condition | ConditionGroup): c is ConditionGroup => Array.isArray((c as ConditionGroup).conditions);

/** Throws 400 ER-04005 at the first condition whose operand misfits, e.g. "rules[1].conditions[0].conditions[2]: ...". */
export function assertValidRules(rules: Rule[] | null | undefined, field = 'rules'): void {
  if (!rules) return;
  const walk = (group: ConditionGroup, where: string, ruleIndex: number, indexes: number[]) => {
    group.conditions.forEach((condition, i) => {
      const here = `${where}.conditions[${i}]`;
      if (isGroup(condition)) return walk(condition, here, ruleIndex, [...indexes, i]);
      const problem = operandProblem(condition.op, condition.value);
      if (problem) throw OperatorErrors.invalidRules(`${here}: ${problem}`, { field, ruleIndex, conditionIndex: [...indexes, i] });
    });
  };
  rules.forEach((rule, i) => walk(rule, `${field}[${i}]`, i, []));
}
