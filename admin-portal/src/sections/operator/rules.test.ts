import { describe, expect, it } from 'vitest';
import { evaluateFlag, operandProblem, prepareAttributes, RuleOperations, type Rule, type RuleOperation } from '@gatehouse/shared/entitlements';
import { RulesSchema } from '@gatehouse/shared/wire';
import { draftsFromRules, emptyCondition, emptyRule, OPERAND_KIND, OPERATION_GROUPS, problemsAfterEdit, rulesFromDrafts, type ConditionDraft, type RuleDraft } from './rules';

/** A valid operand, as typed, for each kind of operation. */
function filled(op: RuleOperation, attribute = 'frontegg.email'): ConditionDraft {
  const draft = { ...emptyCondition(), attribute, op };
  switch (OPERAND_KIND[op]) {
    case 'list': return { ...draft, list: ['a@x.io', 'b@x.io'] };
    case 'string': return { ...draft, text: '^ada@' };
    case 'number': return { ...draft, text: '-2.5' };
    case 'numberRange': return { ...draft, start: '1', end: '10' };
    case 'boolean': return { ...draft, boolean: false };
    case 'date': return { ...draft, text: '2026-03-01' };
    case 'dateRange': return { ...draft, start: '2026-01-01', end: '2026-12-31' };
  }
}

const rule = (...conditions: ConditionDraft[]): RuleDraft => ({ ...emptyRule(), conditions });

describe('rule editor model', () => {
  it('offers all 16 operations of seed 000 section 3, each once, grouped by type', () => {
    expect(OPERATION_GROUPS.flatMap((g) => g.ops).sort()).toEqual([...RuleOperations].sort());
    expect(OPERATION_GROUPS.map((g) => [g.type, g.ops.length])).toEqual([['string', 5], ['numeric', 6], ['boolean', 1], ['date', 4]]);
  });

  it.each(RuleOperations.map((op) => [op]))('%s: builds a condition the wire RulesSchema accepts, with the operand the evaluator reads (its operandProblem finds none)', (op) => {
    const { rules, problems } = rulesFromDrafts([{ ...rule(filled(op)), conditionLogic: 'or', treatment: 'false' }]);
    expect(problems).toEqual({});
    expect(RulesSchema.safeParse(rules).success).toBe(true);
    const condition = rules![0]!.conditions[0] as { op: string; value: Record<string, unknown>; negate: boolean };
    expect(condition.op).toBe(op);
    const expected: Record<string, Record<string, unknown>> = {
      list: { list: ['a@x.io', 'b@x.io'] },
      string: { string: '^ada@' },
      number: { number: -2.5 },
      numberRange: { start: 1, end: 10 },
      boolean: { boolean: false },
      date: { date: '2026-03-01' },
      dateRange: { start: '2026-01-01', end: '2026-12-31' },
    };
    expect(condition.value).toEqual(expected[OPERAND_KIND[op]]);
    expect(operandProblem(op, condition.value)).toBeUndefined();
    expect(rules![0]).toMatchObject({ conditionLogic: 'or', treatment: 'false' });
  });

  it.each([['starts_with'], ['ends_with'], ['contains']] as const)('%s: takes the list input like in_list and sends { list }, true when any item matches; { string } is what the evaluator refuses', (op) => {
    expect(OPERAND_KIND[op]).toBe('list');
    const items = { starts_with: ['ada@', 'grace@'], ends_with: ['@example.com', '@example.org'], contains: ['@example.', 'corp'] }[op];
    const { rules, problems } = rulesFromDrafts([rule({ ...emptyCondition(), op, list: items })]);
    expect(problems).toEqual({});
    const value = (rules![0]!.conditions[0] as { value: Record<string, unknown> }).value;
    expect(value).toEqual({ list: items });
    expect(RulesSchema.safeParse(rules).success).toBe(true);
    expect(operandProblem(op, value)).toBeUndefined();
    expect(operandProblem(op, { string: items[0] })).toBe(`${op} takes { list: [strings] }`);
    const flag = { on: true, offTreatment: 'false' as const, defaultTreatment: 'false' as const, rules: rules! };
    const treatment = (email: string) => evaluateFlag(flag, prepareAttributes({ jwt: { email } })).treatment;
    expect([treatment('grace@example.org'), treatment('ada@example.com'), treatment('linus@other.net')]).toEqual(['true', 'true', 'false']);
    expect(rulesFromDrafts(draftsFromRules(rules)).rules).toEqual(rules);
  });

  it('shows the items of a stored { list } for starts_with, ends_with and contains, and an old { string } one as its single item, saved back as { list }', () => {
    const stored: Rule[] = [{ conditionLogic: 'and', treatment: 'true', conditions: [
      { attribute: 'frontegg.email', op: 'ends_with', value: { list: ['@example.com', '@example.org'] }, negate: false },
      { attribute: 'frontegg.email', op: 'starts_with', value: { string: 'ada@' }, negate: true },
    ] }];
    const [draft] = draftsFromRules(stored);
    expect(draft!.conditions.map((c) => (c.kind === 'condition' ? [c.op, c.list, c.text] : null))).toEqual([['ends_with', ['@example.com', '@example.org'], ''], ['starts_with', ['ada@'], '']]);
    expect(rulesFromDrafts([draft!]).rules![0]!.conditions.map((c) => ('value' in c ? c.value : null))).toEqual([{ list: ['@example.com', '@example.org'] }, { list: ['ada@'] }]);
  });

  it('keeps rules in order, with negate and a trimmed attribute, and reads them back into the same drafts', () => {
    const first = rule({ ...filled('ends_with'), attribute: '  frontegg.email ', negate: true }, filled('is', 'frontegg.emailVerified'));
    const second = rule(filled('between_numeric', 'jwt.seats'));
    const { rules } = rulesFromDrafts([first, second]);
    expect(rules!.map((r) => r.conditions.map((c) => ('attribute' in c ? [c.attribute, c.op, c.negate] : null)))).toEqual([
      [['frontegg.email', 'ends_with', true], ['frontegg.emailVerified', 'is', false]],
      [['jwt.seats', 'between_numeric', false]],
    ]);
    expect(rulesFromDrafts(draftsFromRules(rules)).rules).toEqual(rules);
  });

  it('sends dates as whole UTC days, as the date input gives them, and the evaluator decides by them', () => {
    const { rules } = rulesFromDrafts([rule({ ...filled('on_or_before', 'signedUp'), text: '2026-03-01' })]);
    const flag = { on: true, offTreatment: 'false' as const, defaultTreatment: 'false' as const, rules: rules! };
    expect(evaluateFlag(flag, prepareAttributes({ custom: { signedUp: '2026-03-01T23:59:59Z' } })).treatment).toBe('true');
    expect(evaluateFlag(flag, prepareAttributes({ custom: { signedUp: '2026-03-02T00:00:00Z' } })).treatment).toBe('false');
  });

  it('passes a nested group from the API through unchanged', () => {
    const stored = [{ conditionLogic: 'and' as const, treatment: 'true' as const, conditions: [{ conditionLogic: 'or' as const, conditions: [{ attribute: 'plan', op: 'in_list' as const, value: { list: ['x'] }, negate: false }] }] }];
    expect(rulesFromDrafts(draftsFromRules(stored)).rules).toEqual(stored);
  });

  it('names each wrong field and builds nothing: empty attribute or bare jwt., empty list, bad or backtracking-prone regex, non-numbers, reversed ranges, impossible dates, a rule without conditions', () => {
    const bad: ConditionDraft[] = [
      { ...filled('contains'), attribute: ' ' },
      { ...filled('contains'), attribute: 'jwt.' },
      { ...filled('in_list'), list: [] },
      { ...filled('starts_with'), list: [] },
      { ...filled('matches'), text: '([' },
      { ...filled('matches'), text: '(a+)+$' },
      { ...filled('greater_than'), text: '12abc' },
      { ...filled('between_numeric'), start: '10', end: '2' },
      { ...filled('between_numeric'), start: 'x', end: '' },
      { ...filled('on'), text: '2026-02-30' },
      { ...filled('between_date'), start: '2026-05-01', end: '2026-04-01' },
    ];
    const empty = { ...emptyRule(), conditions: [] };
    const check = rulesFromDrafts([rule(...bad), empty]);
    expect(check.rules).toBeNull();
    expect(bad.map((c) => check.problems[c.key])).toEqual([
      { attribute: 'attribute' },
      { attribute: 'attribute' },
      { list: 'list' },
      { list: 'list' },
      { text: 'regex' },
      { text: 'unsafeRegex' },
      { text: 'number' },
      { end: 'rangeOrder' },
      { start: 'number', end: 'number' },
      { text: 'date' },
      { end: 'rangeOrder' },
    ]);
    expect(check.emptyRules).toEqual([empty.key]);
  });

  it('drops the problem of a condition once it is edited, and keeps the others until the next save', () => {
    const a = { ...filled('contains'), list: [] };
    const b = { ...filled('equal'), text: 'x' };
    const before = [rule(a, b)];
    const { problems } = rulesFromDrafts(before);
    expect(Object.keys(problems).sort()).toEqual([a.key, b.key].sort());
    const after = [{ ...before[0]!, conditions: [{ ...a, list: ['y'] }, b] }];
    expect(problemsAfterEdit(problems, before, after)).toEqual({ [b.key]: { text: 'number' } });
  });
});
