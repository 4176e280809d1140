/**
 * The rule editor's model (issue 13; seed 000 section 3): targeting rules as the operator edits them
 * (every operand kept as typed text) and their conversion, field by field checked, to the wire's
 * RulesSchema body. Pure data, no React, so the conversion is tested on its own.
 */
import { isSafePattern, RuleOperations, type Condition, type ConditionGroup, type Rule, type RuleOperation, type Treatment } from '@gatehouse/shared/entitlements';

/** The attributes the evaluator reads (the seed's data contract), offered as suggestions; `jwt.*` and custom ones are typed. */
export const SUGGESTED_ATTRIBUTES = ['frontegg.email', 'frontegg.emailVerified', 'frontegg.tenantId', 'frontegg.userId', 'jwt.'] as const;

/**
 * What an operation's operand is, so the editor shows the input that fits it. starts_with, ends_with
 * and contains take a list like in_list (the evaluator's reading: true when the attribute starts
 * with / ends with / contains any item); matches takes one pattern.
 */
export type OperandKind = 'list' | 'string' | 'number' | 'numberRange' | 'boolean' | 'date' | 'dateRange';

export const OPERAND_KIND: Readonly<Record<RuleOperation, OperandKind>> = {
  in_list: 'list',
  starts_with: 'list',
  ends_with: 'list',
  contains: 'list',
  matches: 'string',
  equal: 'number',
  greater_than: 'number',
  greater_than_equal: 'number',
  lower_than: 'number',
  lower_than_equal: 'number',
  between_numeric: 'numberRange',
  is: 'boolean',
  on: 'date',
  between_date: 'dateRange',
  on_or_after: 'date',
  on_or_before: 'date',
};

/** The 16 operations grouped by the type they test, in the seed's order. */
export const OPERATION_GROUPS: ReadonlyArray<{ type: 'string' | 'numeric' | 'boolean' | 'date'; ops: readonly RuleOperation[] }> = [
  { type: 'string', ops: RuleOperations.filter((op) => ['list', 'string'].includes(OPERAND_KIND[op])) },
  { type: 'numeric', ops: RuleOperations.filter((op) => ['number', 'numberRange'].includes(OPERAND_KIND[op])) },
  { type: 'boolean', ops: RuleOperations.filter((op) => OPERAND_KIND[op] === 'boolean') },
  { type: 'date', ops: RuleOperations.filter((op) => ['date', 'dateRange'].includes(OPERAND_KIND[op])) },
];

/** A condition being edited: its operand as typed (a date is the date input's `YYYY-MM-DD`, which the evaluator reads as that whole UTC day). */
export interface ConditionDraft {
  kind: 'condition';
  key: string;
  attribute: string;
  op: RuleOperation;
  list: string[];
  text: string;
  start: string;
  end: string;
  boolean: boolean;
  negate: boolean;
}

/** A nested group from the API: kept as it is (the editor edits flat conditions and shows groups read-only). */
export interface GroupDraft {
  kind: 'group';
  key: string;
  group: ConditionGroup;
}

export interface RuleDraft {
  key: string;
  conditionLogic: 'and' | 'or';
  treatment: Treatment;
  conditions: Array<ConditionDraft | GroupDraft>;
}

let counter = 0;
const nextKey = () => `k${++counter}`;

export function emptyCondition(): ConditionDraft {
  return { kind: 'condition', key: nextKey(), attribute: 'frontegg.email', op: 'ends_with', list: [], text: '', start: '', end: '', boolean: true, negate: false };
}

export function emptyRule(): RuleDraft {
  return { key: nextKey(), conditionLogic: 'and', treatment: 'true', conditions: [emptyCondition()] };
}

const isGroup = (item: Condition | ConditionGroup): item is ConditionGroup => !('op' in item);
const dateText = (value: unknown) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : '');
const numberText = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : '');

/**
 * A list operand's items. A `{ string }` operand for a list operation (what this editor sent for
 * starts_with, ends_with and contains before they took a list; the evaluator never ran it) shows
 * as its one item, so saving the rule again stores the list the operator meant.
 */
const listOf = (kind: OperandKind, v: Record<string, unknown>): string[] => {
  if (Array.isArray(v.list)) return v.list.map(String);
  return kind === 'list' && typeof v.string === 'string' && v.string !== '' ? [v.string] : [];
};

/** The drafts of stored rules (the inverse of `rulesFromDrafts` for what the editor produces). */
export function draftsFromRules(rules: readonly Rule[] | null | undefined): RuleDraft[] {
  return (rules ?? []).map((rule) => ({
    key: nextKey(),
    conditionLogic: rule.conditionLogic,
    treatment: rule.treatment,
    conditions: rule.conditions.map((item): ConditionDraft | GroupDraft => {
      if (isGroup(item)) return { kind: 'group', key: nextKey(), group: item };
      const v = item.value ?? {};
      const kind = OPERAND_KIND[item.op];
      return {
        ...emptyCondition(),
        attribute: item.attribute,
        op: item.op,
        negate: item.negate,
        list: listOf(kind, v),
        text: kind === 'string' ? String(v.string ?? '') : kind === 'number' ? numberText(v.number) : kind === 'date' ? dateText(v.date) : '',
        start: kind === 'dateRange' ? dateText(v.start) : numberText(v.start),
        end: kind === 'dateRange' ? dateText(v.end) : numberText(v.end),
        boolean: typeof v.boolean === 'boolean' ? v.boolean : true,
      };
    }),
  }));
}

/** Which field of a condition is wrong, and why (a catalog key under `operator.rules.problem.`). */
export type ConditionProblems = Partial<Record<'attribute' | 'list' | 'text' | 'start' | 'end', string>>;

const NUMBER = /^-?\d+(\.\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const validDate = (text: string) => DATE.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00.000Z`)) && new Date(`${text}T00:00:00.000Z`).toISOString().startsWith(text);

/** The problems of one condition, empty when it can be sent. */
export function conditionProblems(draft: ConditionDraft): ConditionProblems {
  const problems: ConditionProblems = {};
  const attribute = draft.attribute.trim();
  if (!attribute || attribute === 'jwt.' || attribute.length > 200) problems.attribute = 'attribute';
  switch (OPERAND_KIND[draft.op]) {
    case 'list':
      if (draft.list.length === 0) problems.list = 'list';
      break;
    case 'string':
      if (draft.text === '') problems.text = 'string';
      else if (draft.op === 'matches') {
        try {
          new RegExp(draft.text);
          // The evaluator refuses patterns that could backtrack for long (they never match): say so here.
          if (!isSafePattern(draft.text)) problems.text = 'unsafeRegex';
        } catch {
          problems.text = 'regex';
        }
      }
      break;
    case 'number':
      if (!NUMBER.test(draft.text.trim())) problems.text = 'number';
      break;
    case 'numberRange':
      if (!NUMBER.test(draft.start.trim())) problems.start = 'number';
      if (!NUMBER.test(draft.end.trim())) problems.end = 'number';
      else if (!problems.start && Number(draft.start) > Number(draft.end)) problems.end = 'rangeOrder';
      break;
    case 'date':
      if (!validDate(draft.text)) problems.text = 'date';
      break;
    case 'dateRange':
      if (!validDate(draft.start)) problems.start = 'date';
      if (!validDate(draft.end)) problems.end = 'date';
      else if (!problems.start && draft.start > draft.end) problems.end = 'rangeOrder';
      break;
    case 'boolean':
      break;
  }
  return problems;
}

/** The operand the evaluator reads for the operation (types.ts ConditionValue). Call only on a condition without problems. */
export function operandOf(draft: ConditionDraft): Record<string, unknown> {
  switch (OPERAND_KIND[draft.op]) {
    case 'list':
      return { list: [...draft.list] };
    case 'string':
      return { string: draft.text };
    case 'number':
      return { number: Number(draft.text.trim()) };
    case 'numberRange':
      return { start: Number(draft.start.trim()), end: Number(draft.end.trim()) };
    case 'boolean':
      return { boolean: draft.boolean };
    case 'date':
      return { date: draft.text };
    case 'dateRange':
      return { start: draft.start, end: draft.end };
  }
}

export interface RulesCheck {
  /** The RulesSchema body when every condition is valid. */
  rules: Rule[] | null;
  /** Problems by condition key. */
  problems: Record<string, ConditionProblems>;
  /** Keys of rules with no condition at all. */
  emptyRules: string[];
}

/** Checks every condition and, when all pass, builds the wire body (rules in order). */
export function rulesFromDrafts(drafts: readonly RuleDraft[]): RulesCheck {
  const problems: Record<string, ConditionProblems> = {};
  const emptyRules = drafts.filter((rule) => rule.conditions.length === 0).map((rule) => rule.key);
  for (const rule of drafts) {
    for (const item of rule.conditions) {
      if (item.kind !== 'condition') continue;
      const found = conditionProblems(item);
      if (Object.keys(found).length > 0) problems[item.key] = found;
    }
  }
  if (Object.keys(problems).length > 0 || emptyRules.length > 0) return { rules: null, problems, emptyRules };
  const rules = drafts.map((rule): Rule => ({
    conditionLogic: rule.conditionLogic,
    treatment: rule.treatment,
    conditions: rule.conditions.map((item) => (item.kind === 'group' ? item.group : { attribute: item.attribute.trim(), op: item.op, value: operandOf(item), negate: item.negate })),
  }));
  return { rules, problems, emptyRules };
}

/**
 * The problems still worth showing after an edit: those of conditions the edit left as they were
 * (an edit makes a new draft object; the edited condition is checked again at the next save).
 */
export function problemsAfterEdit(problems: Record<string, ConditionProblems>, before: readonly RuleDraft[], after: readonly RuleDraft[]): Record<string, ConditionProblems> {
  const old = new Map(before.flatMap((rule) => rule.conditions).map((item) => [item.key, item]));
  const kept = after.flatMap((rule) => rule.conditions).filter((item) => problems[item.key] && old.get(item.key) === item);
  return Object.fromEntries(kept.map((item) => [item.key, problems[item.key]!]));
}
