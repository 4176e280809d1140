import type { Rule, RuleOperation } from '@gatehouse/shared/entitlements';
import { RuleOperations } from '@gatehouse/shared/entitlements';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../errors';
import { assertValidRules, operandProblem } from './rules';

/** Operands each operation accepts, and ones it must refuse (the evaluator could not run them, or they could never hold). */
const CASES: Record<RuleOperation, { fits: Record<string, unknown>[]; misfits: Record<string, unknown>[] }> = {
  in_list: { fits: [{ list: ['a', 'b'] }], misfits: [{ list: [] }, { list: [1] }, { string: 'a' }] },
  starts_with: { fits: [{ list: ['a'] }, { list: ['a', 'b'] }], misfits: [{ number: 1 }, { list: 'a' }, { list: [] }, { string: 'a' }] },
  ends_with: { fits: [{ list: ['@x.com'] }], misfits: [{}, { string: 5 }, { string: '@x.com' }] },
  contains: { fits: [{ list: ['x'] }], misfits: [{ list: [null] }, { string: 'x' }] },
  matches: { fits: [{ string: '^a.*z$' }], misfits: [{ string: '(' }, { list: ['a'] }, { string: '(a+)+$' }] },
  equal: { fits: [{ number: 0 }], misfits: [{ number: '1' }, { number: Number.NaN }] },
  greater_than: { fits: [{ number: 1.5 }], misfits: [{ number: '2' }] },
  greater_than_equal: { fits: [{ number: -1 }], misfits: [{ start: 1, end: 2 }] },
  lower_than: { fits: [{ number: 10 }], misfits: [{ number: null }] },
  lower_than_equal: { fits: [{ number: 10 }], misfits: [{ date: '2026-01-01' }] },
  between_numeric: { fits: [{ start: 1, end: 1 }, { start: -5, end: 5 }], misfits: [{ start: 5, end: 1 }, { start: 1 }, { start: '1', end: 2 }] },
  is: { fits: [{ boolean: false }], misfits: [{ boolean: 'true' }, { boolean: 1 }] },
  on: { fits: [{ date: '2026-11-27' }, { date: '2026-11-27T03:00:00Z' }, { date: '2026-11-27T03:00:00.123+02:00' }], misfits: [{ date: 'tomorrow' }, { date: '2026-13-45' }, { date: true }] },
  on_or_after: { fits: [{ date: '2026-01-01T00:00:00Z' }], misfits: [{ date: '' }] },
  on_or_before: { fits: [{ date: '2026-01-01' }], misfits: [{ start: '2026-01-01', end: '2026-01-02' }] },
  between_date: { fits: [{ start: '2026-01-01', end: '2026-02-01' }], misfits: [{ start: '2026-02-01', end: '2026-01-01' }, { date: '2026-01-01' }] },
};

describe('rule operands (operator rules check)', () => {
  it('covers all 16 operations of seed 000 section 3', () => {
    expect(Object.keys(CASES).sort()).toEqual([...RuleOperations].sort());
  });

  for (const op of RuleOperations) {
    it(`${op}: accepts the operands the evaluator reads and refuses the rest with a sentence`, () => {
      for (const value of CASES[op].fits) expect(operandProblem(op, value), JSON.stringify(value)).toBeNull();
      for (const value of CASES[op].misfits) expect(operandProblem(op, value), JSON.stringify(value)).toMatch(new RegExp(`^${op}`));
    });
  }

  it('reads operands as the evaluator does: a backtracking-prone pattern is refused; starts_with, ends_with and contains take a list, their { string } form is refused', () => {
    expect(operandProblem('matches', { string: '(a+)+$' })).toMatch(/could backtrack for too long/);
    for (const op of ['starts_with', 'ends_with', 'contains'] as const) {
      expect(operandProblem(op, { string: '@example.com' })).toBe(`${op} takes { list: [strings] }`);
      expect(operandProblem(op, { list: ['@example.com'] })).toBeNull();
    }
    expect(operandProblem('ends_with', { string: 5 })).toMatch(/^ends_with takes/);
  });

  it('names the rule and the condition, through nested groups, of the first misfit', () => {
    const rules: Rule[] = [
      { conditionLogic: 'and', treatment: 'true', conditions: [{ attribute: 'a', op: 'is', value: { boolean: true }, negate: false }] },
      { conditionLogic: 'or', treatment: 'false', conditions: [{ attribute: 'a', op: 'is', value: { boolean: true }, negate: false }, { conditionLogic: 'and', conditions: [{ attribute: 'b', op: 'equal', value: { number: 1 }, negate: true }, { attribute: 'c', op: 'on', value: { date: 'soon' }, negate: false }] }] },
    ];
    let thrown: unknown;
    try {
      assertValidRules(rules);
    } catch (error) {
      thrown = error;
    }
    expect(isAppError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ status: 400, code: 'ER-04005', message: expect.stringMatching(/^rules\[1\]\.conditions\[1\]\.conditions\[1\]: on takes \{ date: an ISO 8601 date/), context: { field: 'rules', ruleIndex: 1, conditionIndex: [1, 1] } });
    expect(() => assertValidRules([rules[0]!])).not.toThrow();
    expect(() => assertValidRules(null)).not.toThrow();
  });
});
