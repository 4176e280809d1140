import { useId, useState, type FormEvent } from 'react';
import type { Feature, FeatureFlag } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { DialogFooter } from '../dialogs/dialog-footer';
import { TextField } from '../dialogs/text-field';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';
import { KEY } from './feature-dialog';
import { RuleEditor } from './rule-editor';
import { draftsFromRules, problemsAfterEdit, rulesFromDrafts, type ConditionProblems, type RuleDraft } from './rules';

type Treatment = 'true' | 'false';

/**
 * Add or edit a feature flag (seed 000 section 3): key, name, description, on/off, the treatment
 * while off and when no rule matches, the features it grants while its treatment is 'true', and its
 * targeting rules (rule editor). Everything is checked before the call.
 */
export function FlagDialog({ flag, features, save, onClose }: { flag: FeatureFlag | null; features: Feature[]; save: (body: Record<string, unknown>) => Promise<void>; onClose: () => void }) {
  const t = useT();
  const id = useId().replace(/:/g, '');
  const saving = useSave();
  const [key, setKey] = useState(flag?.key ?? '');
  const [name, setName] = useState(flag?.name ?? '');
  const [description, setDescription] = useState(flag?.description ?? '');
  const [on, setOn] = useState(flag?.on ?? false);
  const [offTreatment, setOffTreatment] = useState<Treatment>(flag?.offTreatment ?? 'false');
  const [defaultTreatment, setDefaultTreatment] = useState<Treatment>(flag?.defaultTreatment ?? 'false');
  const [featureKeys, setFeatureKeys] = useState<string[]>(flag?.featureKeys ?? []);
  const [rules, setRules] = useState<RuleDraft[]>(() => draftsFromRules(flag?.rules));
  const [problems, setProblems] = useState<{ key?: string; name?: string; description?: string }>({});
  const [ruleProblems, setRuleProblems] = useState<{ problems: Record<string, ConditionProblems>; emptyRules: string[] }>({ problems: {}, emptyRules: [] });
  const allKeys = [...new Set([...features.map((f) => f.key), ...featureKeys])];
  const featureName = new Map(features.map((f) => [f.key, f.name]));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof problems = {};
    if (!KEY.test(key) || key.length > 100) found.key = t.t('operator.problem.key');
    if (!name.trim()) found.name = t.t('operator.problem.name');
    if (description.length > 1000) found.description = t.t('operator.problem.description');
    const checked = rulesFromDrafts(rules);
    setProblems(found);
    setRuleProblems({ problems: checked.problems, emptyRules: checked.emptyRules });
    if (Object.keys(found).length > 0 || !checked.rules) return;
    const body = { key, name: name.trim(), description, on, offTreatment, defaultTreatment, featureKeys, rules: checked.rules };
    await saving.run(() => save(body));
  }

  const treatmentSelect = (which: 'off' | 'default', value: Treatment, set: (value: Treatment) => void) => (
    <div className="gh-ap-field">
      <label className="gh-ap-label" htmlFor={`${id}-${which}`}>{t.t(`operator.flags.${which}Treatment`)}</label>
      <select id={`${id}-${which}`} className="gh-ap-input" value={value} disabled={saving.busy} aria-describedby={`${id}-${which}-hint`} onChange={(e) => set(e.target.value as Treatment)}>
        <option value="true">{t.t('operator.treatment.true')}</option>
        <option value="false">{t.t('operator.treatment.false')}</option>
      </select>
      <p id={`${id}-${which}-hint`} className="gh-ap-hint">{t.t(`operator.flags.${which}TreatmentHint`)}</p>
    </div>
  );

  return (
    <Modal title={flag ? t.t('operator.flags.editTitle', { name: flag.name }) : t.t('operator.flags.add')} onClose={onClose} busy={saving.busy}>
      <form className="gh-ap-form gh-ap-op-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="gh-ap-op-row">
          <TextField id={`${id}-key`} label={t.t('operator.field.key')} value={key} busy={saving.busy} problem={problems.key} code autofocus hint={t.t('operator.field.keyHint')} onChange={setKey} />
          <TextField id={`${id}-name`} label={t.t('operator.field.name')} value={name} busy={saving.busy} problem={problems.name} onChange={setName} />
        </div>
        <TextField id={`${id}-description`} label={t.t('operator.field.description')} value={description} busy={saving.busy} problem={problems.description} onChange={setDescription} />
        <label className="gh-ap-check gh-ap-op-switch" htmlFor={`${id}-on`}>
          <input id={`${id}-on`} type="checkbox" role="switch" checked={on} disabled={saving.busy} onChange={(e) => setOn(e.target.checked)} />
          <span>{t.t('operator.flags.on')}<span className="gh-ap-hint"> {t.t('operator.flags.onHint')}</span></span>
        </label>
        <div className="gh-ap-op-row">
          {treatmentSelect('off', offTreatment, setOffTreatment)}
          {treatmentSelect('default', defaultTreatment, setDefaultTreatment)}
        </div>
        <fieldset className="gh-ap-fieldset" disabled={saving.busy}>
          <legend className="gh-ap-label">{t.t('operator.flags.features')}</legend>
          {allKeys.length === 0 && <p className="gh-ap-hint">{t.t('operator.plans.noFeatures')}</p>}
          {allKeys.map((featureKey) => (
            <label key={featureKey} className="gh-ap-check" htmlFor={`${id}-feature-${featureKey}`}>
              <input id={`${id}-feature-${featureKey}`} type="checkbox" checked={featureKeys.includes(featureKey)}
                onChange={(e) => setFeatureKeys((old) => (e.target.checked ? [...old, featureKey] : old.filter((k) => k !== featureKey)))} />
              <span>{featureName.get(featureKey) ?? featureKey} <code className="gh-ap-hint">{featureKey}</code></span>
            </label>
          ))}
        </fieldset>
        <RuleEditor idPrefix={`${id}-rules`} rules={rules} problems={ruleProblems.problems}
          onChange={(next) => {
            setRuleProblems((found) => ({ problems: problemsAfterEdit(found.problems, rules, next), emptyRules: found.emptyRules.filter((key) => next.some((rule) => rule.key === key && rule.conditions.length === 0)) }));
            setRules(next);
          }} emptyRules={ruleProblems.emptyRules} busy={saving.busy} />
        <DialogFooter error={saving.error} busy={saving.busy} label={flag ? t.t('operator.flags.save') : t.t('operator.flags.add')} onClose={onClose} />
      </form>
    </Modal>
  );
}
