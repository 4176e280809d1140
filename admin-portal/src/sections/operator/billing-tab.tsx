import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { BillingPaths, TrialEndOptions, type TrialEndOption } from '@gatehouse/shared/admin-paths';
import type { BillingConfiguration, OperatorPlan } from '@gatehouse/shared/wire';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { Toast } from '../../toast';
import { CopyField } from '../api-tokens/token-created-dialog';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { useShownGeneration } from './tab-list';
import type { OperatorTabProps } from './tab-props';
import { stripeWebhookUrl } from './webhook-url';

type Secret = 'secretKey' | 'webhookSecret';
const SECRET_PREFIX: Readonly<Record<Secret, RegExp>> = { secretKey: /^(sk|rk)_[A-Za-z0-9_]+$/, webhookSecret: /^whsec_[A-Za-z0-9_+/=]+$/ };
const PUBLISHABLE = /^pk_[A-Za-z0-9_]+$/;

/**
 * The vendor billing configuration (issue 13; OperatorPaths.billingConfiguration): the Stripe
 * secret key and webhook secret are write-only (the page says whether each is set, never the value,
 * and never fills a field with it), the publishable key, whether tenants may downgrade or cancel,
 * what happens when a trial ends, the default plan given to new tenants, and the webhook address to
 * paste into Stripe.
 */
export default function BillingTab({ api, snapshot, generation }: OperatorTabProps) {
  const t = useT();
  const toError = useErrorText();
  const shown = useShownGeneration(generation);
  const fetchAll = useCallback(async () => {
    const [config, plans] = await Promise.all([api.billing(), api.plans()]);
    return { config, plans };
  }, [api, shown]);
  const { data, loading, error, replace } = useLatestLoad(fetchAll, toError, { keepDataOnError: true });

  return (
    <div className="gh-ap-op-billing">
      <p className="gh-ap-hint gh-ap-op-intro">{t.t('operator.billing.intro')}</p>
      {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
      {loading && !data && <div className="gh-ap-op-form-skeleton" aria-hidden="true"><div className="gh-ap-skeleton-bar" /><div className="gh-ap-skeleton-bar" /><div className="gh-ap-skeleton-bar gh-ap-skeleton-short" /></div>}
      {data && <BillingForm config={data.config} plans={data.plans} accessToken={snapshot.user?.accessToken} onSaved={(config) => replace({ config, plans: data.plans })} save={api.saveBilling} />}
    </div>
  );
}

function BillingForm({ config, plans, accessToken, save, onSaved }: {
  config: BillingConfiguration;
  plans: OperatorPlan[];
  accessToken: string | null | undefined;
  save: OperatorTabProps['api']['saveBilling'];
  onSaved: (config: BillingConfiguration) => void;
}) {
  const t = useT();
  const id = useId().replace(/:/g, '');
  const saving = useFormSave();
  const [notice, setNotice] = useState<string | null>(null);
  // Secrets start empty, always: the server never answers them, and an empty field keeps the stored one.
  const [secrets, setSecrets] = useState<Record<Secret, string>>({ secretKey: '', webhookSecret: '' });
  const [remove, setRemove] = useState<Record<Secret, boolean>>({ secretKey: false, webhookSecret: false });
  const [publishableKey, setPublishableKey] = useState(config.publishableKey ?? '');
  const [allowPlanDowngrade, setAllowDowngrade] = useState(config.allowPlanDowngrade);
  const [allowPlanCancellation, setAllowCancellation] = useState(config.allowPlanCancellation);
  const [trialEndOption, setTrialEndOption] = useState<TrialEndOption>(config.trialEndOption);
  const [defaultPlanId, setDefaultPlanId] = useState(config.defaultPlanId ?? '');
  const [problems, setProblems] = useState<Partial<Record<Secret | 'publishableKey', string>>>({});
  useEffect(() => setNotice(null), [secrets, publishableKey]);

  const webhookUrl = stripeWebhookUrl(accessToken);
  const isSet: Record<Secret, boolean> = { secretKey: config.secretKeySet, webhookSecret: config.webhookSecretSet };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof problems = {};
    for (const secret of ['secretKey', 'webhookSecret'] as const) {
      const value = secrets[secret].trim();
      if (value && !SECRET_PREFIX[secret].test(value)) found[secret] = t.t(`operator.billing.problem.${secret}`);
    }
    if (publishableKey.trim() && !PUBLISHABLE.test(publishableKey.trim())) found.publishableKey = t.t('operator.billing.problem.publishableKey');
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const secretOf = (secret: Secret) => (secrets[secret].trim() ? secrets[secret].trim() : remove[secret] ? '' : undefined);
    await saving.run(async () => {
      const saved = await save({
        secretKey: secretOf('secretKey'),
        webhookSecret: secretOf('webhookSecret'),
        publishableKey: publishableKey.trim() || null,
        allowPlanDowngrade,
        allowPlanCancellation,
        trialEndOption,
        defaultPlanId: defaultPlanId || null,
      });
      setSecrets({ secretKey: '', webhookSecret: '' });
      setRemove({ secretKey: false, webhookSecret: false });
      onSaved(saved);
      setNotice(t.t('operator.billing.saved'));
    });
  }

  const secretField = (secret: Secret) => {
    const fieldId = `${id}-${secret}`;
    const problem = problems[secret];
    return (
      <div className="gh-ap-field">
        <label className="gh-ap-label" htmlFor={fieldId}>
          {t.t(`operator.billing.${secret}`)}{' '}
          <span className={isSet[secret] ? 'gh-ap-badge' : 'gh-ap-badge gh-ap-badge-muted'}>{t.t(isSet[secret] ? 'operator.billing.set' : 'operator.billing.notSet')}</span>
        </label>
        <input id={fieldId} name={`gatehouse-${secret}`} className="gh-ap-input gh-ap-mono" dir="ltr" type="password" autoComplete="new-password" spellCheck={false} value={secrets[secret]}
          disabled={saving.busy || remove[secret]} data-lpignore="true" data-1p-ignore="true" aria-invalid={problem ? true : undefined}
          aria-describedby={`${fieldId}-hint${problem ? ` ${fieldId}-error` : ''}`} onChange={(e) => setSecrets((old) => ({ ...old, [secret]: e.target.value }))} />
        <p id={`${fieldId}-hint`} className="gh-ap-hint">{t.t(isSet[secret] ? 'operator.billing.keepHint' : `operator.billing.${secret}Hint`)}</p>
        {problem && <p id={`${fieldId}-error`} className="gh-ap-field-error" role="alert">{problem}</p>}
        {isSet[secret] && (
          <label className="gh-ap-check" htmlFor={`${fieldId}-remove`}>
            <input id={`${fieldId}-remove`} type="checkbox" checked={remove[secret]} disabled={saving.busy} onChange={(e) => setRemove((old) => ({ ...old, [secret]: e.target.checked }))} />
            <span>{t.t(`operator.billing.remove.${secret}`)}</span>
          </label>
        )}
      </div>
    );
  };

  return (
    <form className="gh-ap-form gh-ap-op-form" onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
      <Toast message={notice} />
      <p className={config.status === '1' ? 'gh-ap-banner gh-ap-banner-success' : 'gh-ap-banner gh-ap-banner-warning'} role="note">
        {t.t(config.status === '1' ? 'operator.billing.active' : 'operator.billing.inactive')}
      </p>
      <fieldset className="gh-ap-fieldset" disabled={saving.busy}>
        <legend className="gh-ap-label">{t.t('operator.billing.stripe')}</legend>
        {secretField('secretKey')}
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${id}-publishable`}>{t.t('operator.billing.publishableKey')}</label>
          <input id={`${id}-publishable`} className="gh-ap-input gh-ap-mono" dir="ltr" value={publishableKey} autoComplete="off" spellCheck={false} aria-invalid={problems.publishableKey ? true : undefined}
            aria-describedby={`${id}-publishable-hint${problems.publishableKey ? ` ${id}-publishable-error` : ''}`} onChange={(e) => setPublishableKey(e.target.value)} />
          <p id={`${id}-publishable-hint`} className="gh-ap-hint">{t.t('operator.billing.publishableKeyHint')}</p>
          {problems.publishableKey && <p id={`${id}-publishable-error`} className="gh-ap-field-error" role="alert">{problems.publishableKey}</p>}
        </div>
        {secretField('webhookSecret')}
        {webhookUrl ? (
          <CopyField label={t.t('operator.billing.webhookUrl')} copyLabel={t.t('operator.billing.copyWebhookUrl')} value={webhookUrl} />
        ) : (
          <p className="gh-ap-hint">{t.t('operator.billing.webhookPath', { path: BillingPaths.stripeWebhook })}</p>
        )}
        <p className="gh-ap-hint">{t.t('operator.billing.webhookHint')}</p>
      </fieldset>
      <fieldset className="gh-ap-fieldset" disabled={saving.busy}>
        <legend className="gh-ap-label">{t.t('operator.billing.rules')}</legend>
        <label className="gh-ap-check" htmlFor={`${id}-downgrade`}>
          <input id={`${id}-downgrade`} type="checkbox" checked={allowPlanDowngrade} onChange={(e) => setAllowDowngrade(e.target.checked)} />
          <span>{t.t('operator.billing.allowPlanDowngrade')}</span>
        </label>
        <label className="gh-ap-check" htmlFor={`${id}-cancel`}>
          <input id={`${id}-cancel`} type="checkbox" checked={allowPlanCancellation} onChange={(e) => setAllowCancellation(e.target.checked)} />
          <span>{t.t('operator.billing.allowPlanCancellation')}</span>
        </label>
      </fieldset>
      <fieldset className="gh-ap-fieldset" disabled={saving.busy}>
        <legend className="gh-ap-label">{t.t('operator.billing.trialEnd')}</legend>
        {TrialEndOptions.map((option) => (
          <label key={option} className="gh-ap-check" htmlFor={`${id}-trial-${option}`}>
            <input id={`${id}-trial-${option}`} type="radio" name={`${id}-trial`} value={option} checked={trialEndOption === option} onChange={() => setTrialEndOption(option)} />
            <span>{t.t(`operator.billing.trialEnd.${option}`)}</span>
          </label>
        ))}
      </fieldset>
      <div className="gh-ap-field">
        <label className="gh-ap-label" htmlFor={`${id}-default-plan`}>{t.t('operator.billing.defaultPlan')}</label>
        <select id={`${id}-default-plan`} className="gh-ap-input" value={defaultPlanId} disabled={saving.busy} aria-describedby={`${id}-default-plan-hint`} onChange={(e) => setDefaultPlanId(e.target.value)}>
          <option value="">{t.t('operator.billing.noDefaultPlan')}</option>
          {plans.filter((plan) => plan.isActive || plan.id === defaultPlanId).map((plan) => <option key={plan.id} value={plan.id}>{plan.name}</option>)}
        </select>
        <p id={`${id}-default-plan-hint`} className="gh-ap-hint">{t.t('operator.billing.defaultPlanHint')}</p>
      </div>
      {saving.error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{saving.error}</p>}
      <div className="gh-ap-modal-actions">
        <button type="submit" className="gh-ap-button" disabled={saving.busy} aria-busy={saving.busy}>
          {saving.busy && <span className="gh-ap-spinner" aria-hidden="true" />}
          {t.t('operator.billing.save')}
        </button>
      </div>
    </form>
  );
}

/** A form's save that stays on the page: busy while it runs, then usable again, with the failure's message. */
function useFormSave() {
  const toError = useErrorText();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(work: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (thrown) {
      setError(toError(thrown));
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, run };
}
