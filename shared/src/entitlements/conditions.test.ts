import { describe, expect, it } from 'vitest';
import { evaluateCondition, evaluateGroup } from './conditions';
import type { Condition, ConditionGroup, RuleOperation } from './types';

const check = (op: RuleOperation, value: Record<string, unknown>, attribute: unknown, negate = false): boolean =>
  evaluateCondition({ attribute: 'a', op, value, negate }, attribute === undefined ? {} : { a: attribute });

describe('string operations', () => {
  it('in_list matches a string in the list, or any item of an array attribute', () => {
    expect(check('in_list', { list: ['admin', 'owner'] }, 'owner')).toBe(true);
    expect(check('in_list', { list: ['admin'] }, 'Admin')).toBe(false);
    expect(check('in_list', { list: ['admin'] }, ['viewer', 'admin'])).toBe(true);
    expect(check('in_list', { list: ['admin'] }, ['viewer', 1])).toBe(false);
  });
  it('an empty list matches nothing, and its negation matches everything readable', () => {
    expect(check('in_list', { list: [] }, 'x')).toBe(false);
    expect(check('in_list', { list: [] }, 'x', true)).toBe(true);
    expect(check('starts_with', { list: [] }, 'x')).toBe(false);
  });
  it('starts_with, ends_with and contains try each listed string', () => {
    expect(check('starts_with', { list: ['no', 'adm'] }, 'admin@acme.io')).toBe(true);
    expect(check('ends_with', { list: ['@acme.io'] }, 'admin@acme.io')).toBe(true);
    expect(check('ends_with', { list: ['@acme.io'] }, 'admin@acme.io.evil')).toBe(false);
    expect(check('contains', { list: ['@acme'] }, 'admin@acme.io')).toBe(true);
    expect(check('contains', { list: ['ACME'] }, 'admin@acme.io')).toBe(false);
  });
  it('matches runs the pattern, and an invalid pattern matches nothing even negated', () => {
    expect(check('matches', { string: '^[a-z]+@acme\\.io$' }, 'admin@acme.io')).toBe(true);
    expect(check('matches', { string: '^[a-z]+@acme\\.io$' }, 'admin@acme.com')).toBe(false);
    expect(check('matches', { string: '([' }, 'x')).toBe(false);
    expect(check('matches', { string: '([' }, 'x', true)).toBe(false);
  });
  it('matches refuses a backtracking-prone pattern and an over-long attribute', () => {
    expect(check('matches', { string: '^(a+)+$' }, 'aaaa')).toBe(false);
    expect(check('matches', { string: '^(a+)+$' }, 'aaaa', true)).toBe(false);
    expect(check('matches', { string: 'a' }, 'a'.repeat(257))).toBe(false);
    expect(check('matches', { string: 'a' }, 'a'.repeat(256))).toBe(true);
  });
  it('string operations do not read numbers, booleans, dates or null', () => {
    for (const attribute of [5, true, new Date(0), null, { toString: () => 'admin' }]) {
      expect(check('in_list', { list: ['admin', '5', 'true'] }, attribute)).toBe(false);
      expect(check('in_list', { list: ['admin', '5', 'true'] }, attribute, true)).toBe(false);
      expect(check('starts_with', { list: [''] }, attribute, true)).toBe(false);
      expect(check('matches', { string: '.*' }, attribute)).toBe(false);
    }
  });
  it('a list operand must be an array of strings, and the single-string operand a string', () => {
    expect(check('in_list', { list: 'admin' }, 'admin')).toBe(false);
    expect(check('in_list', { list: ['admin', 1] }, 'admin')).toBe(false);
    expect(check('contains', { list: [null] }, 'null', true)).toBe(false);
    expect(check('matches', { string: ['a'] }, 'a')).toBe(false);
    expect(check('matches', { list: ['a'] }, 'a')).toBe(false);
  });
});

describe('numeric operations', () => {
  it('compare numbers', () => {
    expect(check('equal', { number: 3 }, 3)).toBe(true);
    expect(check('equal', { number: 3 }, 3.0000001)).toBe(false);
    expect(check('greater_than', { number: 3 }, 4)).toBe(true);
    expect(check('greater_than', { number: 3 }, 3)).toBe(false);
    expect(check('greater_than_equal', { number: 3 }, 3)).toBe(true);
    expect(check('lower_than', { number: 3 }, 2)).toBe(true);
    expect(check('lower_than', { number: 3 }, 3)).toBe(false);
    expect(check('lower_than_equal', { number: 3 }, 3)).toBe(true);
    expect(check('lower_than_equal', { number: -0 }, 0)).toBe(true);
  });
  it('between_numeric includes both ends, and an inverted range holds nothing', () => {
    expect(check('between_numeric', { start: 1, end: 3 }, 1)).toBe(true);
    expect(check('between_numeric', { start: 1, end: 3 }, 3)).toBe(true);
    expect(check('between_numeric', { start: 1, end: 3 }, 3.5)).toBe(false);
    expect(check('between_numeric', { start: 3, end: 1 }, 2)).toBe(false);
  });
  it('Infinity compares as a number; NaN is no number, as attribute or operand', () => {
    expect(check('greater_than', { number: 1e308 }, Infinity)).toBe(true);
    expect(check('lower_than', { number: Infinity }, 1e308)).toBe(true);
    expect(check('equal', { number: 1 }, NaN)).toBe(false);
    expect(check('equal', { number: 1 }, NaN, true)).toBe(false);
    expect(check('equal', { number: NaN }, 1, true)).toBe(false);
    expect(check('between_numeric', { start: NaN, end: 3 }, 1, true)).toBe(false);
  });
  it('numbers are never coerced from strings, booleans or dates', () => {
    expect(check('equal', { number: 10 }, '10')).toBe(false);
    expect(check('greater_than', { number: 5 }, '10')).toBe(false);
    expect(check('greater_than', { number: 5 }, '10', true)).toBe(false);
    expect(check('equal', { number: 1 }, true)).toBe(false);
    expect(check('greater_than', { number: 0 }, new Date(5))).toBe(false);
    expect(check('equal', { number: '10' }, 10)).toBe(false);
    expect(check('between_numeric', { start: '1', end: 3 }, 2)).toBe(false);
  });
});

describe('boolean operation', () => {
  it('is compares booleans only', () => {
    expect(check('is', { boolean: true }, true)).toBe(true);
    expect(check('is', { boolean: false }, true)).toBe(false);
    expect(check('is', { boolean: false }, true, true)).toBe(true);
    expect(check('is', { boolean: true }, 'true')).toBe(false);
    expect(check('is', { boolean: false }, 0, true)).toBe(false);
    expect(check('is', { boolean: 'true' }, true)).toBe(false);
  });
});

describe('date operations', () => {
  const day = '2024-02-29';
  it('on with a date-only operand holds for the whole UTC day, edges included', () => {
    expect(check('on', { date: day }, '2024-02-29T00:00:00.000Z')).toBe(true);
    expect(check('on', { date: day }, '2024-02-29T23:59:59.999Z')).toBe(true);
    expect(check('on', { date: day }, '2024-03-01T00:00:00.000Z')).toBe(false);
    expect(check('on', { date: day }, '2024-02-28T23:59:59.999Z')).toBe(false);
  });
  it('the day is a UTC day, whatever the offset the attribute was written in', () => {
    // 01:30 on the 1st of March in Paris is still the 29th of February in UTC.
    expect(check('on', { date: day }, '2024-03-01T01:30:00+02:00')).toBe(true);
    // The night the clocks moved in Europe (2024-03-31) has 24 UTC hours like any other.
    expect(check('on', { date: '2024-03-31' }, '2024-03-31T23:30:00-00:30')).toBe(false);
    expect(check('on', { date: '2024-03-31' }, '2024-03-31T02:30:00+01:00')).toBe(true);
  });
  it('on with a date-time operand is that instant', () => {
    expect(check('on', { date: '2024-02-29T10:00:00Z' }, new Date('2024-02-29T10:00:00Z'))).toBe(true);
    expect(check('on', { date: '2024-02-29T10:00:00Z' }, new Date('2024-02-29T10:00:00.001Z'))).toBe(false);
  });
  it('on_or_after and on_or_before include the operand day', () => {
    expect(check('on_or_after', { date: day }, '2024-02-29T00:00:00Z')).toBe(true);
    expect(check('on_or_after', { date: day }, '2024-02-28T23:59:59.999Z')).toBe(false);
    expect(check('on_or_before', { date: day }, '2024-02-29T23:59:59.999Z')).toBe(true);
    expect(check('on_or_before', { date: day }, '2024-03-01T00:00:00Z')).toBe(false);
    expect(check('on_or_before', { date: '2024-02-29T12:00:00Z' }, '2024-02-29T12:00:00.001Z')).toBe(false);
  });
  it('between_date spans from the start day to the end of the end day', () => {
    const range = { start: '2024-01-01', end: '2024-01-31' };
    expect(check('between_date', range, '2024-01-31T23:59:59Z')).toBe(true);
    expect(check('between_date', range, '2024-02-01T00:00:00Z')).toBe(false);
    expect(check('between_date', range, '2023-12-31T23:59:59Z')).toBe(false);
    expect(check('between_date', { start: '2024-02-01', end: '2024-01-01' }, '2024-01-15')).toBe(false);
  });
  it('reads attributes as Date, epoch milliseconds or ISO strings', () => {
    const instant = Date.UTC(2024, 1, 29, 12);
    expect(check('on', { date: day }, new Date(instant))).toBe(true);
    expect(check('on', { date: day }, instant)).toBe(true);
    expect(check('on', { date: new Date(instant) }, instant)).toBe(true);
    expect(check('on', { date: instant }, '2024-02-29T12:00:00Z')).toBe(true);
  });
  it('an ISO date-time without a zone is UTC', () => {
    expect(check('on', { date: '2024-02-29T12:00:00Z' }, '2024-02-29T12:00:00')).toBe(true);
    expect(check('on', { date: '2024-02-29T12:00' }, '2024-02-29T12:00:00Z')).toBe(true);
  });
  it('leap days exist only in leap years; impossible and non-ISO dates are refused', () => {
    expect(check('on', { date: '2023-02-29' }, '2023-03-01')).toBe(false);
    expect(check('on', { date: '2023-02-29' }, '2023-03-01', true)).toBe(false);
    expect(check('on', { date: '2024-04-31' }, '2024-05-01')).toBe(false);
    expect(check('on', { date: '2000-02-29' }, '2000-02-29T08:00Z')).toBe(true);
    expect(check('on', { date: '1900-02-29' }, '1900-03-01')).toBe(false);
    expect(check('on', { date: 'March 1, 2024' }, '2024-03-01')).toBe(false);
    expect(check('on', { date: '2024/03/01' }, '2024-03-01')).toBe(false);
    expect(check('on', { date: day }, '2024-02-29T25:00Z')).toBe(false);
  });
  it('invalid dates, NaN and non-dates are not read, negated or not', () => {
    expect(check('on_or_after', { date: day }, new Date(NaN))).toBe(false);
    expect(check('on_or_after', { date: day }, new Date(NaN), true)).toBe(false);
    expect(check('on_or_after', { date: day }, NaN, true)).toBe(false);
    expect(check('on_or_after', { date: day }, Infinity)).toBe(false);
    expect(check('on_or_after', { date: day }, true, true)).toBe(false);
    expect(check('on_or_after', { date: new Date(NaN) }, '2025-01-01', true)).toBe(false);
    expect(check('between_date', { start: day }, '2025-01-01', true)).toBe(false);
  });
  it('epoch 0 is a date like any other', () => {
    expect(check('on', { date: 0 }, '1970-01-01T00:00:00Z')).toBe(true);
    expect(check('on', { date: '1970-01-01' }, 0)).toBe(true);
  });
});

describe('conditions', () => {
  it('negate inverts a readable result', () => {
    expect(check('equal', { number: 1 }, 2, true)).toBe(true);
    expect(check('equal', { number: 1 }, 1, true)).toBe(false);
  });
  it('a missing attribute is false, negated or not', () => {
    expect(check('equal', { number: 1 }, undefined)).toBe(false);
    expect(check('equal', { number: 1 }, undefined, true)).toBe(false);
  });
  it('an unknown operation or a missing operand is false', () => {
    expect(evaluateCondition({ attribute: 'a', op: 'near' as RuleOperation, value: { number: 1 }, negate: true }, { a: 1 })).toBe(false);
    expect(evaluateCondition({ attribute: 'a', op: 'equal', value: null as unknown as Record<string, unknown>, negate: true }, { a: 1 })).toBe(false);
  });
  it('reads only own attributes, never inherited ones', () => {
    const condition: Condition = { attribute: 'constructor', op: 'in_list', value: { list: ['x'] }, negate: true };
    expect(evaluateCondition(condition, {})).toBe(false);
    expect(evaluateCondition({ ...condition, attribute: 'toString' }, {})).toBe(false);
  });
});

describe('groups', () => {
  const yes: Condition = { attribute: 'a', op: 'is', value: { boolean: true }, negate: false };
  const no: Condition = { ...yes, negate: true };
  const attributes = { a: true };
  it('and needs every item; or needs one; groups nest', () => {
    expect(evaluateGroup({ conditionLogic: 'and', conditions: [yes, yes] }, attributes)).toBe(true);
    expect(evaluateGroup({ conditionLogic: 'and', conditions: [yes, no] }, attributes)).toBe(false);
    expect(evaluateGroup({ conditionLogic: 'or', conditions: [no, yes] }, attributes)).toBe(true);
    const nested: ConditionGroup = { conditionLogic: 'and', conditions: [yes, { conditionLogic: 'or', conditions: [no, { conditionLogic: 'and', conditions: [yes] }] }] };
    expect(evaluateGroup(nested, attributes)).toBe(true);
  });
  it('an empty and holds (everyone), an empty or does not', () => {
    expect(evaluateGroup({ conditionLogic: 'and', conditions: [] }, {})).toBe(true);
    expect(evaluateGroup({ conditionLogic: 'or', conditions: [] }, {})).toBe(false);
  });
  it('an unknown logic, a missing list or a malformed item is false', () => {
    expect(evaluateGroup({ conditionLogic: 'xor' as 'and', conditions: [yes] }, attributes)).toBe(false);
    expect(evaluateGroup({ conditionLogic: 'and' } as ConditionGroup, attributes)).toBe(false);
    expect(evaluateGroup({ conditionLogic: 'or', conditions: [null as unknown as Condition, yes] }, attributes)).toBe(true);
    expect(evaluateGroup({ conditionLogic: 'and', conditions: [null as unknown as Condition] }, attributes)).toBe(false);
  });
  it('stops at a nesting depth of 16 instead of overflowing the stack', () => {
    let group: ConditionGroup = { conditionLogic: 'and', conditions: [yes] };
    for (let i = 0; i < 16; i++) group = { conditionLogic: 'and', conditions: [group] };
    expect(evaluateGroup(group, attributes)).toBe(true);
    expect(evaluateGroup({ conditionLogic: 'and', conditions: [group] }, attributes)).toBe(false);
  });
});
