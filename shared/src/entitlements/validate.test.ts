import { describe, expect, it } from 'vitest';
import { evaluateCondition } from './conditions';
import { operandProblem } from './validate';
import type { RuleOperation } from './types';

describe('operandProblem', () => {
  it('accepts every operand the evaluator runs', () => {
    const valid: Array<[RuleOperation, Record<string, unknown>]> = [
      ['in_list', { list: ['a'] }], ['in_list', { list: [] }], ['contains', { list: ['@acme'] }], ['matches', { string: '^[a-z]+$' }],
      ['equal', { number: 1 }], ['between_numeric', { start: 1, end: 2 }], ['is', { boolean: false }],
      ['on', { date: '2024-02-29' }], ['on_or_after', { date: '2024-02-29T10:00:00+02:00' }], ['between_date', { start: '2024-01-01', end: '2024-12-31T23:59:59Z' }],
    ];
    for (const [op, value] of valid) expect(operandProblem(op, value), op).toBeUndefined();
  });
  it('names the shape an operation takes when the operand misfits', () => {
    expect(operandProblem('starts_with', { string: 'adm' })).toBe('starts_with takes { list: [strings] }');
    expect(operandProblem('equal', { number: '3' })).toBe('equal takes { number }');
    expect(operandProblem('between_numeric', { start: 1 })).toBe('between_numeric takes { start: number, end: number }');
    expect(operandProblem('is', { boolean: 'true' })).toBe('is takes { boolean }');
    expect(operandProblem('on', { date: '2023-02-29' })).toMatch(/^on takes \{ date: an ISO 8601 date/);
    expect(operandProblem('between_date', { start: '2024-01-01', end: 'soon' })).toMatch(/^between_date takes \{ start, end \}/);
    expect(operandProblem('near', { number: 1 })).toBe('unknown operation "near"');
  });
  it('tells an invalid regular expression from a refused one', () => {
    expect(operandProblem('matches', { string: '([' })).toBe('matches: "([" is not a valid regular expression');
    expect(operandProblem('matches', { string: '^(a+)+$' })).toMatch(/^matches: the pattern is refused because it could backtrack/);
  });
  it('a condition it accepts is one the evaluator can make true; one it refuses is false even negated', () => {
    expect(evaluateCondition({ attribute: 'a', op: 'starts_with', value: { string: 'adm' }, negate: true }, { a: 'x' })).toBe(false);
    expect(evaluateCondition({ attribute: 'a', op: 'starts_with', value: { list: ['adm'] }, negate: true }, { a: 'x' })).toBe(true);
  });
});
