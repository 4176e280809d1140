import { useId } from 'react';
import type { PublicPlan } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { RuleButton } from './current-plan';
import { planPrice, type Rule } from './rules';

/**
 * The vendor's active plans as cards (seed 001 section 3 "Plan"): name, description, price per
 * month, trial, seats and features. The current plan is marked; every other offers Change (or
 * Choose, without a subscription), which opens the checkout, or says why it cannot be chosen.
 */
export function PlanCards({ plans, currentPlanId, hasSubscription, ruleFor, onChoose, busy }: {
  plans: PublicPlan[];
  currentPlanId: string | null;
  hasSubscription: boolean;
  ruleFor: (plan: PublicPlan) => Rule;
  onChoose: (plan: PublicPlan) => void;
  busy: boolean;
}) {
  const t = useT();
  const ids = useId();
  if (plans.length === 0) return <p className="gh-ap-sub-empty">{t.t('subscription.plans.empty')}</p>;
  return (
    <ul className="gh-ap-sub-plans">
      {plans.map((plan) => {
        const current = plan.id === currentPlanId;
        const titleId = `${ids}-${plan.id}`;
        return (
          <li key={plan.id} className={`gh-ap-sub-card gh-ap-sub-plan${current ? ' gh-ap-sub-plan-current' : ''}`} aria-labelledby={titleId}>
            <div className="gh-ap-sub-plan-head">
              <h4 id={titleId} className="gh-ap-sub-plan-name">{plan.name}</h4>
              {current && <span className="gh-ap-badge gh-ap-sub-status gh-ap-sub-status-good">{t.t('subscription.plans.current')}</span>}
            </div>
            <p className="gh-ap-sub-price">{t.t('subscription.perMonth', { price: planPrice(t, plan.price) })}</p>
            {plan.description && <p className="gh-ap-hint">{plan.description}</p>}
            <ul className="gh-ap-sub-features">
              {plan.trialDays ? <li>{t.t('subscription.plans.trialDays', { days: plan.trialDays })}</li> : null}
              {plan.seatLimit !== undefined && (
                <li>{plan.seatLimit === null ? t.t('subscription.plans.seatsUnlimited') : t.t('subscription.plans.seats', { count: plan.seatLimit })}</li>
              )}
              {(plan.features ?? []).map((feature) => (
                <li key={feature.key}>{feature.limit === null ? feature.name : t.t('subscription.plans.featureLimit', { name: feature.name, limit: feature.limit })}</li>
              ))}
            </ul>
            {!current && (
              <RuleButton
                rule={ruleFor(plan)}
                id={`${titleId}-choose`}
                label={t.t(hasSubscription ? 'subscription.plans.change' : 'subscription.plans.choose')}
                accessibleName={t.t(hasSubscription ? 'subscription.plans.changeTo' : 'subscription.plans.chooseNamed', { name: plan.name })}
                busy={busy}
                onClick={() => onChoose(plan)}
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}
