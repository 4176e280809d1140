/**
 * Checks targeting rules beyond their wire schema (RulesSchema): a condition whose operand the
 * evaluator cannot run would be false for everyone, so the operator API refuses it (400 ER-04005
 * naming the rule and condition) instead of saving a dead rule. The reading is the evaluator's own
 * (`operandProblem` of @gatehouse/shared/entitlements: shapes, dates, refused backtracking-prone
 * patterns), plus what makes a runnable condition false for everyone: an empty list, and a range
 * whose start is after its end. starts_with, ends_with and contains take `{ list }` (true when the
 * attribute starts with / ends with / contains any item), as the evaluator reads them; `{ string }`
 * for them is refused like any other misfit.
 */
import { operandProblem as evaluatorProblem, type Condition, type ConditionGroup, type Rule, type RuleOperation } from '@gatehouse/shared/entitlements';
import { OperatorErrors } from './errors';

type Operand = Record<string, unknown>;

/** Why `value` does not fit `op`, or null when it does. */
export function operandProblem(op: RuleOperation, value: Operand): string | null {
  const problem = evaluatorProblem(op, value);
  if (problem) return problem;
  if (Array.isArray(value.list) && value.list.length === 0) return `${op}: the list is empty, so the condition could never hold`;
  if (op === 'between_numeric' && (value.start as number) > (value.end as number)) return `${op}: start must not be greater than end`;
  if (op === 'between_date' && Date.parse(String(value.start)) > Date.parse(String(value.end))) return `${op}: start must not be after end`;
  return null;
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
