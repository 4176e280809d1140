/**
 * The 16 rule operations and condition groups (seed 000 section 3). Operands are checked strictly
 * (types.ts ConditionValue): a condition with an invalid operand, or whose attribute is missing or
 * of a type the operation does not read, is false, and `negate` does not make it true. Nothing
 * here coerces and nothing throws.
 */
import { readDate } from './dates';
import { MAX_MATCHED_LENGTH, safeRegExp } from './safe-regex';
import type { Condition, ConditionGroup, ConditionValue } from './types';

/** A compiled operation: true/false, or undefined when the attribute is of a type it does not read. */
type Test = (attribute: unknown) => boolean | undefined;

const MAX_DEPTH = 16;

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && !Number.isNaN(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/** The value of an own attribute (never one inherited from Object.prototype). */
export const attributeOf = (attributes: Record<string, unknown>, name: string): unknown =>
  attributes && Object.hasOwn(attributes, name) ? attributes[name] : undefined;

const onStrings =
  (list: unknown, test: (attribute: string, operand: string) => boolean): Test | undefined =>
    isStringList(list) ? (a) => (isString(a) ? list.some((s) => test(a, s)) : undefined) : undefined;

const onNumbers =
  (operand: unknown, test: (attribute: number, operand: number) => boolean): Test | undefined =>
    isNumber(operand) ? (a) => (isNumber(a) ? test(a, operand) : undefined) : undefined;

/** A test that the attribute's instant lies in [low, high] (undefined bounds: invalid operand). */
const onDates = (low: number | undefined, high: number | undefined): Test | undefined =>
  low === undefined || high === undefined
    ? undefined
    : (a) => {
        const at = readDate(a)?.from;
        return at === undefined ? undefined : at >= low && at <= high;
      };

/** The operation `op` with its operand, or undefined when the operation or the operand is invalid. */
export function compileOperation(op: string, value: ConditionValue): Test | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { list, string, number, start, end, boolean, date } = value;
  switch (op) {
    case 'in_list':
      return isStringList(list)
        ? (a) => (isString(a) ? list.includes(a) : Array.isArray(a) ? a.some((item) => isString(item) && list.includes(item)) : undefined)
        : undefined;
    case 'starts_with':
      return onStrings(list, (a, s) => a.startsWith(s));
    case 'ends_with':
      return onStrings(list, (a, s) => a.endsWith(s));
    case 'contains':
      return onStrings(list, (a, s) => a.includes(s));
    case 'matches': {
      const expression = safeRegExp(string);
      return expression ? (a) => (isString(a) && a.length <= MAX_MATCHED_LENGTH ? expression.test(a) : undefined) : undefined;
    }
    case 'equal':
      return onNumbers(number, (a, n) => a === n);
    case 'greater_than':
      return onNumbers(number, (a, n) => a > n);
    case 'greater_than_equal':
      return onNumbers(number, (a, n) => a >= n);
    case 'lower_than':
      return onNumbers(number, (a, n) => a < n);
    case 'lower_than_equal':
      return onNumbers(number, (a, n) => a <= n);
    case 'between_numeric':
      return isNumber(start) ? onNumbers(end, (a, n) => a >= start && a <= n) : undefined;
    case 'is':
      return typeof boolean === 'boolean' ? (a) => (typeof a === 'boolean' ? a === boolean : undefined) : undefined;
    case 'on':
      return onDates(readDate(date)?.from, readDate(date)?.to);
    case 'on_or_after':
      return onDates(readDate(date)?.from, Infinity);
    case 'on_or_before':
      return onDates(-Infinity, readDate(date)?.to);
    case 'between_date':
      return onDates(readDate(start)?.from, readDate(end)?.to);
    default:
      return undefined;
  }
}

/** One condition against prepared attributes. */
export function evaluateCondition(condition: Condition, attributes: Record<string, unknown>): boolean {
  const test = compileOperation(condition.op, condition.value);
  const attribute = attributeOf(attributes, condition.attribute);
  const result = test && attribute !== undefined ? test(attribute) : undefined;
  return result !== undefined && result !== (condition.negate === true);
}

const isGroup = (item: object): item is ConditionGroup => 'conditionLogic' in item && !('op' in item);

/** A group: 'and' needs every item (an empty 'and' holds), 'or' needs one; any other logic is false. */
export function evaluateGroup(group: ConditionGroup, attributes: Record<string, unknown>, depth = 0): boolean {
  if (!group || !Array.isArray(group.conditions) || depth > MAX_DEPTH) return false;
  const holds = (item: Condition | ConditionGroup): boolean =>
    !!item && typeof item === 'object' && (isGroup(item) ? evaluateGroup(item, attributes, depth + 1) : evaluateCondition(item, attributes));
  return group.conditionLogic === 'or' ? group.conditions.some(holds) : group.conditionLogic === 'and' && group.conditions.every(holds);
}
