/**
 * Why a condition's operand would make it false for everyone, in one sentence for the operator who
 * wrote it: the same reading as the evaluator's (compileOperation), so a rule that passes here is
 * one the evaluator runs. The operator API answers these as 400s instead of saving a dead rule.
 */
import { compileOperation } from './conditions';
import { isSafePattern } from './safe-regex';
import { RuleOperations, type ConditionValue } from './types';

const DATE = 'an ISO 8601 date: YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS[.fff]] with Z or ±HH:MM (none: UTC)';
const LIST = '{ list: [strings] }';
const NUMBER = '{ number }';

const SHAPES: Record<string, string> = {
  in_list: LIST,
  starts_with: LIST,
  ends_with: LIST,
  contains: LIST,
  matches: '{ string: a regular expression }',
  equal: NUMBER,
  greater_than: NUMBER,
  greater_than_equal: NUMBER,
  lower_than: NUMBER,
  lower_than_equal: NUMBER,
  between_numeric: '{ start: number, end: number }',
  is: '{ boolean }',
  on: `{ date: ${DATE} }`,
  on_or_after: `{ date: ${DATE} }`,
  on_or_before: `{ date: ${DATE} }`,
  between_date: `{ start, end }, each ${DATE}`,
};

/** Why the operand of `op` is unusable (unknown operation, wrong shape, refused pattern), or undefined when the evaluator can run it. */
export function operandProblem(op: string, value: ConditionValue): string | undefined {
  if (!(RuleOperations as readonly string[]).includes(op)) return `unknown operation ${JSON.stringify(op)}`;
  if (compileOperation(op, value)) return undefined;
  const pattern: unknown = value?.string;
  if (op === 'matches' && typeof pattern === 'string') {
    return isSafePattern(pattern)
      ? `matches: ${JSON.stringify(pattern)} is not a valid regular expression`
      : 'matches: the pattern is refused because it could backtrack for too long (over 256 characters, a back-reference, a repeated group holding a quantifier or |, or too many repetitions)';
  }
  return `${op} takes ${SHAPES[op]}`;
}
