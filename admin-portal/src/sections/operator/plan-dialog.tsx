import { useId, useState, type FormEvent } from 'react';
import type { Feature, OperatorPlan } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { DialogFooter } from '../dialogs/dialog-footer';
import { TextField } from '../dialogs/text-field';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';
import { majorToMinor, minorToMajorText } from './price';
import { RuleEditor } from './rule-editor';
import { draftsFromRules, problemsAfterEdit, rulesFromDrafts, type ConditionProblems, type RuleDraft } from './rules';

const SLUG = /^[a-z0-9][a-z0-9-]*$/;
const WHOLE = /^\d{1,8}$/;

/** A slug from a name: lower case ASCII letters and digits joined by dashes. */
export function slugOf(name: string): string {
  return name.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64);
}

type Field = 'name' | 'slug' | 'price' | 'currency' | 'trialDays' | 'seatLimit' | 'description';

/**
 * Add or edit a plan (issue 13): name, description, slug, price typed in major units (sent in minor
 * units), currency, trial days, seat limit (empty: unlimited), the features it grants with an
 * optional limit each, whether it is active, and its targeting (default treatment and rules).
 * Every field is checked before the call; the server's refusal (a slug taken) shows in the dialog.
 */
export function PlanDialog({ plan, features, save, onClose }: { plan: OperatorPlan | null; features: Feature[]; save: (body: Record<string, unknown>) => Promise<void>; onClose: () => void }) {
  const t = useT();
  const id = useId().replace(/:/g, '');
  const saving = useSave();
  const [name, setName] = useState(plan?.name ?? '');
  const [description, setDescription] = useState(plan?.description ?? '');
  const [slug, setSlug] = useState(plan?.slug ?? '');
  const [slugTouched, setSlugTouched] = useState(Boolean(plan));
  const [price, setPrice] = useState(plan ? minorToMajorText(plan.price.amount) : '');
  const [currency, setCurrency] = useState(plan?.price.currency ?? 'usd');
  const [trialDays, setTrialDays] = useState(String(plan?.trialDays ?? 0));
  const [seatLimit, setSeatLimit] = useState(plan?.seatLimit == null ? '' : String(plan.seatLimit));
  const [isActive, setIsActive] = useState(plan?.isActive ?? true);
  const [grants, setGrants] = useState<Map<string, string>>(new Map((plan?.features ?? []).map((f) => [f.featureKey, f.limit == null ? '' : String(f.limit)])));
  const [defaultTreatment, setDefaultTreatment] = useState(plan?.defaultTreatment ?? 'true');
  const [rules, setRules] = useState<RuleDraft[]>(() => draftsFromRules(plan?.rules));
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const [limitProblems, setLimitProblems] = useState<Set<string>>(new Set());
  const [ruleProblems, setRuleProblems] = useState<{ problems: Record<string, ConditionProblems>; emptyRules: string[] }>({ problems: {}, emptyRules: [] });

  const featureKeys = [...new Set([...features.map((f) => f.key), ...grants.keys()])];
  const featureName = new Map(features.map((f) => [f.key, f.name]));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    const amount = majorToMinor(price);
    if (!name.trim()) found.name = t.t('operator.plans.problem.name');
    if (!SLUG.test(slug) || slug.length > 64) found.slug = t.t('operator.problem.slug');
    if (amount === null) found.price = t.t('operator.plans.problem.price');
    if (!/^[a-z]{3}$/.test(currency.trim().toLowerCase())) found.currency = t.t('operator.plans.problem.currency');
    if (!WHOLE.test(trialDays.trim()) || Number(trialDays) > 730) found.trialDays = t.t('operator.plans.problem.trialDays');
    if (seatLimit.trim() && (!WHOLE.test(seatLimit.trim()) || Number(seatLimit) < 1 || Number(seatLimit) > 10_000_000)) found.seatLimit = t.t('operator.plans.problem.seatLimit');
    if (description.length > 1000) found.description = t.t('operator.problem.description');
    const badLimits = new Set([...grants].filter(([, limit]) => limit.trim() !== '' && !WHOLE.test(limit.trim())).map(([key]) => key));
    const checked = rulesFromDrafts(rules);
    setProblems(found);
    setLimitProblems(badLimits);
    setRuleProblems({ problems: checked.problems, emptyRules: checked.emptyRules });
    if (Object.keys(found).length > 0 || badLimits.size > 0 || !checked.rules) return;
    const body = {
      name: name.trim(),
      description,
      slug,
      price: { amount, currency: currency.trim().toLowerCase() },
      recurringInterval: 'month',
      trialDays: Number(trialDays),
      seatLimit: seatLimit.trim() ? Number(seatLimit) : null,
      isActive,
      features: [...grants].map(([featureKey, limit]) => ({ featureKey, limit: limit.trim() ? Number(limit) : null })),
      defaultTreatment,
      rules: checked.rules.length > 0 ? checked.rules : null,
    };
    await saving.run(() => save(body));
  }

  const field = (key: Field) => problems[key];
  const title = plan ? t.t('operator.plans.editTitle', { name: plan.name }) : t.t('operator.plans.add');
  return (
    <Modal title={title} onClose={onClose} busy={saving.busy}>
      <form className="gh-ap-form gh-ap-op-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="gh-ap-op-row">
          <TextField id={`${id}-name`} label={t.t('operator.field.name')} value={name} busy={saving.busy} problem={field('name')} autofocus
            onChange={(value) => { setName(value); if (!slugTouched) setSlug(slugOf(value)); }} />
          <TextField id={`${id}-slug`} label={t.t('operator.field.slug')} value={slug} busy={saving.busy} problem={field('slug')} code hint={t.t('operator.field.slugHint')}
            onChange={(value) => { setSlug(value); setSlugTouched(true); }} />
        </div>
        <TextField id={`${id}-description`} label={t.t('operator.field.description')} value={description} busy={saving.busy} problem={field('description')} onChange={setDescription} />
        <div className="gh-ap-op-row">
          <TextField id={`${id}-price`} label={t.t('operator.plans.price')} value={price} busy={saving.busy} problem={field('price')} hint={t.t('operator.plans.priceHint')} onChange={setPrice} />
          <TextField id={`${id}-currency`} label={t.t('operator.plans.currency')} value={currency} busy={saving.busy} problem={field('currency')} code hint={t.t('operator.plans.currencyHint')} onChange={setCurrency} />
        </div>
        <div className="gh-ap-op-row">
          <TextField id={`${id}-trial`} label={t.t('operator.plans.trialDays')} value={trialDays} busy={saving.busy} problem={field('trialDays')} onChange={setTrialDays} />
          <TextField id={`${id}-seats`} label={t.t('operator.plans.seatLimit')} value={seatLimit} busy={saving.busy} problem={field('seatLimit')} hint={t.t('operator.plans.seatLimitHint')} onChange={setSeatLimit} />
        </div>
        <label className="gh-ap-check" htmlFor={`${id}-active`}>
          <input id={`${id}-active`} type="checkbox" checked={isActive} disabled={saving.busy} onChange={(e) => setIsActive(e.target.checked)} />
          <span>{t.t('operator.plans.active')}<span className="gh-ap-hint"> {t.t('operator.plans.activeHint')}</span></span>
        </label>
        <fieldset className="gh-ap-fieldset" disabled={saving.busy}>
          <legend className="gh-ap-label">{t.t('operator.plans.features')}</legend>
          {featureKeys.length === 0 && <p className="gh-ap-hint">{t.t('operator.plans.noFeatures')}</p>}
          <ul className="gh-ap-op-grants">
            {featureKeys.map((key) => {
              const granted = grants.has(key);
              const limitId = `${id}-limit-${key}`;
              return (
                <li key={key} className="gh-ap-op-grant">
                  <label className="gh-ap-check" htmlFor={`${id}-grant-${key}`}>
                    <input id={`${id}-grant-${key}`} type="checkbox" checked={granted}
                      onChange={(e) => setGrants((old) => { const next = new Map(old); if (e.target.checked) next.set(key, ''); else next.delete(key); return next; })} />
                    <span>{featureName.get(key) ?? key} <code className="gh-ap-hint">{key}</code></span>
                  </label>
                  {granted && (
                    <div className="gh-ap-op-limit">
                      <label className="gh-ap-label" htmlFor={limitId}>{t.t('operator.plans.limitFor', { feature: featureName.get(key) ?? key })}</label>
                      <input id={limitId} className="gh-ap-input gh-ap-days" inputMode="numeric" value={grants.get(key) ?? ''} autoComplete="off" placeholder={t.t('operator.plans.unlimited')}
                        aria-invalid={limitProblems.has(key) || undefined} aria-describedby={limitProblems.has(key) ? `${limitId}-error` : undefined}
                        onChange={(e) => setGrants((old) => new Map(old).set(key, e.target.value))} />
                      {limitProblems.has(key) && <p id={`${limitId}-error`} className="gh-ap-field-error" role="alert">{t.t('operator.plans.problem.limit')}</p>}
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        </fieldset>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${id}-default-treatment`}>{t.t('operator.plans.defaultTreatment')}</label>
          <select id={`${id}-default-treatment`} className="gh-ap-input" value={defaultTreatment} disabled={saving.busy} aria-describedby={`${id}-default-treatment-hint`} onChange={(e) => setDefaultTreatment(e.target.value as 'true' | 'false')}>
            <option value="true">{t.t('operator.treatment.true')}</option>
            <option value="false">{t.t('operator.treatment.false')}</option>
          </select>
          <p id={`${id}-default-treatment-hint`} className="gh-ap-hint">{t.t('operator.plans.defaultTreatmentHint')}</p>
        </div>
        <RuleEditor idPrefix={`${id}-rules`} rules={rules} problems={ruleProblems.problems}
          onChange={(next) => {
            setRuleProblems((found) => ({ problems: problemsAfterEdit(found.problems, rules, next), emptyRules: found.emptyRules.filter((key) => next.some((rule) => rule.key === key && rule.conditions.length === 0)) }));
            setRules(next);
          }} emptyRules={ruleProblems.emptyRules} busy={saving.busy} />
        <DialogFooter error={saving.error} busy={saving.busy} label={plan ? t.t('operator.plans.save') : t.t('operator.plans.add')} onClose={onClose} />
      </form>
    </Modal>
  );
}
