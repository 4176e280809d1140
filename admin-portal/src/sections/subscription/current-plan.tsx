import { useId } from 'react';
import type { PublicPlan, Subscription } from '@gatehouse/shared/wire';
import { shortDate } from '../../format';
import { useT } from '../../i18n/i18n-context';
import { planPrice, type Rule } from './rules';

/** Statuses drawn as good news, as a warning, or as neither (the seed's six, and nothing else). */
const TONE: Readonly<Record<Subscription['status'], 'good' | 'warn' | 'off'>> = {
  active: 'good',
  trialing: 'good',
  incomplete: 'warn',
  trialEnded: 'warn',
  canceled: 'off',
  expired: 'off',
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The tenant's plan and subscription (seed 001 sections 3, 4): name, price, status, trial end,
 * period end and a pending cancellation; Cancel and Renew, each disabled with the rule's reason
 * shown (and read with the button) when it is not allowed.
 */
export function CurrentPlan({ plan, subscription, cancel, renew, busy, onCancel, onRenew }: {
  plan: PublicPlan | null;
  subscription: Subscription | null;
  cancel: Rule;
  renew: Rule;
  busy: boolean;
  onCancel: () => void;
  onRenew: () => void;
}) {
  const t = useT();
  const ids = useId();
  const status = subscription?.status;
  const pending = Boolean(subscription?.cancellation);
  const periodEnd = iso(subscription?.currentPeriodEnd ?? null);
  const trialEnd = iso(subscription?.trialEnd ?? null);

  return (
    <div className="gh-ap-sub-card gh-ap-sub-current" aria-labelledby={`${ids}-title`} role="group">
      <div className="gh-ap-sub-current-head">
        <div>
          <p className="gh-ap-sub-eyebrow" id={`${ids}-title`}>{t.t('subscription.current.title')}</p>
          <p className="gh-ap-sub-plan-name">{plan?.name ?? t.t('subscription.current.noPlan')}</p>
          {plan && <p className="gh-ap-sub-price">{t.t('subscription.perMonth', { price: planPrice(t, plan.price) })}</p>}
        </div>
        <div className="gh-ap-badges">
          {status && <span className={`gh-ap-badge gh-ap-sub-status gh-ap-sub-status-${TONE[status]}`}>{t.t(`subscription.status.${status}`)}</span>}
          {pending && <span className="gh-ap-badge gh-ap-sub-status gh-ap-sub-status-warn">{t.t('subscription.current.cancellationPending')}</span>}
          {subscription?.externallyManaged && <span className="gh-ap-badge">{t.t('subscription.current.externallyManaged')}</span>}
        </div>
      </div>
      <dl className="gh-ap-sub-facts">
        {status === 'trialing' && trialEnd && (
          <div><dt>{t.t('subscription.current.trialEnds')}</dt><dd>{shortDate(t, trialEnd)}</dd></div>
        )}
        {periodEnd && (
          <div><dt>{t.t(pending ? 'subscription.current.endsOn' : 'subscription.current.renewsOn')}</dt><dd>{shortDate(t, periodEnd)}</dd></div>
        )}
        {!subscription && <div><dt>{t.t('subscription.current.billing')}</dt><dd>{t.t('subscription.current.noSubscription')}</dd></div>}
      </dl>
      {pending && periodEnd && <p className="gh-ap-hint">{t.t('subscription.current.pendingText', { date: shortDate(t, periodEnd) })}</p>}
      {subscription && (
        <div className="gh-ap-sub-actions">
          <RuleButton rule={cancel} label={t.t('subscription.cancel.button')} onClick={onCancel} busy={busy} id={`${ids}-cancel`} action="cancel" secondary />
          <RuleButton rule={renew} label={t.t('subscription.renew.button')} onClick={onRenew} busy={busy} id={`${ids}-renew`} action="renew" />
        </div>
      )}
    </div>
  );
}

/** A button that follows a rule: enabled when allowed, else disabled with its reason beside it and read with it. */
export function RuleButton({ rule, label, onClick, busy = false, id, secondary = false, accessibleName, action }: { rule: Rule; label: string; onClick: () => void; busy?: boolean; id: string; secondary?: boolean; accessibleName?: string; action?: string }) {
  const t = useT();
  return (
    <div className="gh-ap-sub-rule">
      <button
        type="button"
        className={secondary ? 'gh-ap-button-secondary' : 'gh-ap-button'}
        disabled={!rule.allowed || busy}
        aria-label={accessibleName}
        data-action={action}
        aria-describedby={rule.allowed ? undefined : `${id}-reason`}
        onClick={onClick}
      >
        {label}
      </button>
      {!rule.allowed && <p id={`${id}-reason`} className="gh-ap-hint gh-ap-sub-reason">{t.t(rule.reason)}</p>}
    </div>
  );
}
