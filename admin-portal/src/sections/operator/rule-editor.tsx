import { useState, type KeyboardEvent } from 'react';
import type { RuleOperation, Treatment } from '@gatehouse/shared/entitlements';
import { useT } from '../../i18n/i18n-context';
import { emptyCondition, emptyRule, OPERAND_KIND, OPERATION_GROUPS, SUGGESTED_ATTRIBUTES, type ConditionDraft, type ConditionProblems, type RuleDraft } from './rules';

/**
 * The targeting rule editor (issue 13; seed 000 section 3): rules in order (the first that matches
 * decides), each with and/or logic, its conditions and its treatment. A condition names an
 * attribute (suggestions: the frontegg.* data contract and jwt.*; any custom one may be typed), one
 * of the 16 operations grouped by type, an operand input that fits the operation, and negate.
 * Problems are shown on the field they concern (the dialog checks before it sends).
 */
export function RuleEditor({ idPrefix, rules, onChange, problems, emptyRules, busy }: {
  idPrefix: string;
  rules: RuleDraft[];
  onChange: (rules: RuleDraft[]) => void;
  problems: Record<string, ConditionProblems>;
  emptyRules: string[];
  busy: boolean;
}) {
  const t = useT();
  const setRule = (index: number, next: RuleDraft) => onChange(rules.map((rule, i) => (i === index ? next : rule)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...rules];
    const [rule] = next.splice(index, 1);
    next.splice(index + by, 0, rule!);
    onChange(next);
  };
  const listId = `${idPrefix}-attributes`;
  return (
    <fieldset className="gh-ap-fieldset gh-ap-op-rules" disabled={busy}>
      <legend className="gh-ap-label">{t.t('operator.rules.title')}</legend>
      <p className="gh-ap-hint">{t.t('operator.rules.hint')}</p>
      <datalist id={listId}>
        {SUGGESTED_ATTRIBUTES.map((attribute) => <option key={attribute} value={attribute} />)}
      </datalist>
      {rules.length === 0 && <p className="gh-ap-hint gh-ap-op-none">{t.t('operator.rules.none')}</p>}
      <ol className="gh-ap-op-rule-list">
        {rules.map((rule, index) => {
          const ruleId = `${idPrefix}-r${rule.key}`;
          const name = t.t('operator.rules.rule', { n: index + 1 });
          return (
            <li key={rule.key} className="gh-ap-op-rule" aria-labelledby={`${ruleId}-title`}>
              <div className="gh-ap-op-rule-head">
                <h4 id={`${ruleId}-title`} className="gh-ap-op-rule-title">{name}</h4>
                <div className="gh-ap-op-rule-tools">
                  <button type="button" className="gh-ap-button-secondary gh-ap-op-small" disabled={index === 0} aria-label={t.t('operator.rules.moveUp', { rule: name })} onClick={() => move(index, -1)}>↑</button>
                  <button type="button" className="gh-ap-button-secondary gh-ap-op-small" disabled={index === rules.length - 1} aria-label={t.t('operator.rules.moveDown', { rule: name })} onClick={() => move(index, 1)}>↓</button>
                  <button type="button" className="gh-ap-button-secondary gh-ap-op-small" onClick={() => onChange(rules.filter((_, i) => i !== index))}>{t.t('operator.rules.removeRule', { rule: name })}</button>
                </div>
              </div>
              <div className="gh-ap-op-row">
                <div className="gh-ap-field">
                  <label className="gh-ap-label" htmlFor={`${ruleId}-logic`}>{t.t('operator.rules.logic')}</label>
                  <select id={`${ruleId}-logic`} className="gh-ap-input" value={rule.conditionLogic} onChange={(e) => setRule(index, { ...rule, conditionLogic: e.target.value as 'and' | 'or' })}>
                    <option value="and">{t.t('operator.rules.logicAnd')}</option>
                    <option value="or">{t.t('operator.rules.logicOr')}</option>
                  </select>
                </div>
                <div className="gh-ap-field">
                  <label className="gh-ap-label" htmlFor={`${ruleId}-treatment`}>{t.t('operator.rules.treatment')}</label>
                  <select id={`${ruleId}-treatment`} className="gh-ap-input" value={rule.treatment} onChange={(e) => setRule(index, { ...rule, treatment: e.target.value as Treatment })}>
                    <option value="true">{t.t('operator.treatment.true')}</option>
                    <option value="false">{t.t('operator.treatment.false')}</option>
                  </select>
                </div>
              </div>
              <ul className="gh-ap-op-conditions" aria-label={t.t('operator.rules.conditionsOf', { rule: name })}>
                {rule.conditions.map((item, c) =>
                  item.kind === 'group' ? (
                    <li key={item.key} className="gh-ap-op-condition">
                      <p className="gh-ap-hint">{t.t('operator.rules.group', { count: item.group.conditions.length })}</p>
                      <button type="button" className="gh-ap-button-secondary gh-ap-op-small" onClick={() => setRule(index, { ...rule, conditions: rule.conditions.filter((_, i) => i !== c) })}>
                        {t.t('operator.rules.removeCondition', { n: c + 1 })}
                      </button>
                    </li>
                  ) : (
                    <ConditionRow
                      key={item.key}
                      id={`${ruleId}-c${item.key}`}
                      n={c + 1}
                      listId={listId}
                      draft={item}
                      problems={problems[item.key] ?? {}}
                      onChange={(next) => setRule(index, { ...rule, conditions: rule.conditions.map((other, i) => (i === c ? next : other)) })}
                      onRemove={() => setRule(index, { ...rule, conditions: rule.conditions.filter((_, i) => i !== c) })}
                    />
                  ),
                )}
              </ul>
              {emptyRules.includes(rule.key) && <p className="gh-ap-field-error" role="alert">{t.t('operator.rules.problem.noConditions')}</p>}
              <button type="button" className="gh-ap-button-secondary" onClick={() => setRule(index, { ...rule, conditions: [...rule.conditions, emptyCondition()] })}>
                {t.t('operator.rules.addCondition')}
              </button>
            </li>
          );
        })}
      </ol>
      <button type="button" className="gh-ap-button-secondary" onClick={() => onChange([...rules, emptyRule()])}>{t.t('operator.rules.addRule')}</button>
    </fieldset>
  );
}

function ConditionRow({ id, n, listId, draft, problems, onChange, onRemove }: {
  id: string;
  n: number;
  listId: string;
  draft: ConditionDraft;
  problems: ConditionProblems;
  onChange: (next: ConditionDraft) => void;
  onRemove: () => void;
}) {
  const t = useT();
  const kind = OPERAND_KIND[draft.op];
  const problem = (field: keyof ConditionProblems) => (problems[field] ? t.t(`operator.rules.problem.${problems[field]}`) : undefined);
  const described = (field: keyof ConditionProblems, hint?: string) => ({
    'aria-invalid': problems[field] ? true : undefined,
    'aria-describedby': [hint, problems[field] ? `${id}-${field}-error` : ''].filter(Boolean).join(' ') || undefined,
  });
  const error = (field: keyof ConditionProblems) => problem(field) && <p id={`${id}-${field}-error`} className="gh-ap-field-error" role="alert">{problem(field)}</p>;
  const dateKind = kind === 'date' || kind === 'dateRange';
  const inputType = dateKind ? 'date' : 'text';
  const inputMode = kind === 'number' || kind === 'numberRange' ? 'decimal' : undefined;

  return (
    <li className="gh-ap-op-condition" aria-label={t.t('operator.rules.condition', { n })}>
      <div className="gh-ap-op-row">
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${id}-attribute`}>{t.t('operator.rules.attribute')}</label>
          <input id={`${id}-attribute`} className="gh-ap-input gh-ap-mono" dir="ltr" list={listId} value={draft.attribute} autoComplete="off" spellCheck={false} {...described('attribute', `${id}-attribute-hint`)}
            onChange={(e) => onChange({ ...draft, attribute: e.target.value })} />
          <p id={`${id}-attribute-hint`} className="gh-ap-hint">
            {t.t('operator.rules.attributeHint')}{' '}
            {/* Attribute names read left to right in every language. */}
            <bdi dir="ltr" className="gh-ap-mono">{SUGGESTED_ATTRIBUTES.map((a) => (a === 'jwt.' ? 'jwt.<claim>' : a)).join(', ')}</bdi>
          </p>
          {error('attribute')}
        </div>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${id}-op`}>{t.t('operator.rules.operation')}</label>
          <select id={`${id}-op`} className="gh-ap-input" value={draft.op} onChange={(e) => onChange({ ...draft, op: e.target.value as RuleOperation })}>
            {OPERATION_GROUPS.map((group) => (
              <optgroup key={group.type} label={t.t(`operator.rules.type.${group.type}`)}>
                {group.ops.map((op) => <option key={op} value={op}>{t.t(`operator.op.${op}`)}</option>)}
              </optgroup>
            ))}
          </select>
        </div>
      </div>
      <div className="gh-ap-op-row">
        {kind === 'list' && (
          <ListInput id={`${id}-list`} values={draft.list} onChange={(list) => onChange({ ...draft, list })} problem={problem('list')}
            hint={draft.op === 'in_list' ? undefined : t.t('operator.rules.listAnyHint')} />
        )}
        {(kind === 'string' || kind === 'number' || kind === 'date') && (
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${id}-text`}>{t.t(`operator.rules.value.${kind}`)}</label>
            <input id={`${id}-text`} className="gh-ap-input" dir="ltr" type={inputType} inputMode={inputMode} value={draft.text} autoComplete="off" spellCheck={false} {...described('text')}
              onChange={(e) => onChange({ ...draft, text: e.target.value })} />
            {error('text')}
          </div>
        )}
        {(kind === 'numberRange' || kind === 'dateRange') && (
          <>
            <div className="gh-ap-field">
              <label className="gh-ap-label" htmlFor={`${id}-start`}>{t.t(dateKind ? 'operator.rules.value.startDate' : 'operator.rules.value.start')}</label>
              <input id={`${id}-start`} className="gh-ap-input" dir="ltr" type={inputType} inputMode={inputMode} value={draft.start} autoComplete="off" {...described('start')} onChange={(e) => onChange({ ...draft, start: e.target.value })} />
              {error('start')}
            </div>
            <div className="gh-ap-field">
              <label className="gh-ap-label" htmlFor={`${id}-end`}>{t.t(dateKind ? 'operator.rules.value.endDate' : 'operator.rules.value.end')}</label>
              <input id={`${id}-end`} className="gh-ap-input" dir="ltr" type={inputType} inputMode={inputMode} value={draft.end} autoComplete="off" {...described('end')} onChange={(e) => onChange({ ...draft, end: e.target.value })} />
              {error('end')}
            </div>
          </>
        )}
        {kind === 'boolean' && (
          <label className="gh-ap-check gh-ap-op-switch" htmlFor={`${id}-boolean`}>
            <input id={`${id}-boolean`} type="checkbox" role="switch" checked={draft.boolean} onChange={(e) => onChange({ ...draft, boolean: e.target.checked })} />
            <span>{t.t('operator.rules.value.boolean')}</span>
          </label>
        )}
      </div>
      {dateKind && <p className="gh-ap-hint">{t.t('operator.rules.dateHint')}</p>}
      <div className="gh-ap-op-row gh-ap-op-condition-foot">
        <label className="gh-ap-check" htmlFor={`${id}-negate`}>
          <input id={`${id}-negate`} type="checkbox" checked={draft.negate} onChange={(e) => onChange({ ...draft, negate: e.target.checked })} />
          <span>{t.t('operator.rules.negate')}</span>
        </label>
        <button type="button" className="gh-ap-button-secondary gh-ap-op-small" onClick={onRemove}>{t.t('operator.rules.removeCondition', { n })}</button>
      </div>
    </li>
  );
}

/** A list of values as chips (the operand of in_list, starts_with, ends_with and contains; a feature's permissions): Enter or "Add" puts the typed value in, each chip has its remove button. */
export function ListInput({ id, values, onChange, problem, label, hint, suggestions }: { id: string; values: string[]; onChange: (values: string[]) => void; problem?: string; label?: string; hint?: string; suggestions?: readonly string[] }) {
  const t = useT();
  const title = label ?? t.t('operator.rules.value.list');
  const [text, setText] = useState('');
  const add = () => {
    const value = text.trim();
    if (value && !values.includes(value)) onChange([...values, value]);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      add();
    }
  };
  return (
    <div className="gh-ap-field gh-ap-op-list">
      <label className="gh-ap-label" htmlFor={id}>{title}</label>
      {suggestions && (
        <datalist id={`${id}-suggestions`}>
          {suggestions.filter((s) => !values.includes(s)).map((s) => <option key={s} value={s} />)}
        </datalist>
      )}
      {values.length > 0 && (
        <ul className="gh-ap-op-chips" aria-label={title}>
          {values.map((value) => (
            <li key={value} className="gh-ap-op-chip">
              <bdi className="gh-ap-mono" dir="ltr">{value}</bdi>
              <button type="button" className="gh-ap-op-chip-remove" aria-label={t.t('operator.rules.removeValue', { value })} onClick={() => onChange(values.filter((v) => v !== value))}>×</button>
            </li>
          ))}
        </ul>
      )}
      <div className="gh-ap-copy">
        <input id={id} className="gh-ap-input" dir="ltr" value={text} autoComplete="off" spellCheck={false} list={suggestions ? `${id}-suggestions` : undefined} aria-invalid={problem ? true : undefined} aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ''}`}
          onChange={(e) => setText(e.target.value)} onKeyDown={onKeyDown} />
        <button type="button" className="gh-ap-button-secondary" onClick={add} disabled={!text.trim()}>{t.t('operator.rules.addValue')}</button>
      </div>
      <p id={`${id}-hint`} className="gh-ap-hint">{hint ?? t.t('operator.rules.listHint')}</p>
      {problem && <p id={`${id}-error`} className="gh-ap-field-error" role="alert">{problem}</p>}
    </div>
  );
}
