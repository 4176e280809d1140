import { useCallback } from 'react';
import { minorToMajor } from '@gatehouse/shared/admin-paths';
import type { Feature, OperatorPlan } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { DeleteDialog } from '../dialogs/delete-dialog';
import { RowMenu } from '../dialogs/row-menu';
import { PlanDialog } from './plan-dialog';
import { TabList, useShownGeneration, useTabList } from './tab-list';
import type { OperatorTabProps } from './tab-props';

type Dialog = { kind: 'edit'; plan: OperatorPlan | null } | { kind: 'delete'; plan: OperatorPlan } | { kind: 'deactivate'; plan: OperatorPlan };

/** The Plans tab: every plan (active or not) with its price, trial, seat limit and state; add, edit, activate or deactivate, delete. */
export default function PlansTab({ api, generation }: OperatorTabProps) {
  const t = useT();
  const shown = useShownGeneration(generation);
  const fetchList = useCallback(async (): Promise<{ plans: OperatorPlan[]; features: Feature[] }> => {
    const [plans, features] = await Promise.all([api.plans(), api.features()]);
    return { plans, features };
  }, [api, shown]);
  const state = useTabList<{ plans: OperatorPlan[]; features: Feature[] }, Dialog>(fetchList);
  const { data, dialog, open, close, finish, act } = state;
  const col = { price: t.t('operator.plans.price'), trial: t.t('operator.plans.trialDays'), seats: t.t('operator.plans.seats'), state: t.t('operator.column.state') };
  const priceOf = (plan: OperatorPlan) => {
    try {
      return t.formatCurrency(minorToMajor(plan.price.amount), plan.price.currency.toUpperCase());
    } catch {
      return `${minorToMajor(plan.price.amount).toFixed(2)} ${plan.price.currency}`;
    }
  };

  return (
    <TabList
      state={state}
      intro={t.t('operator.plans.intro')}
      button={data && <button type="button" className="gh-ap-button" onClick={() => open({ kind: 'edit', plan: null })}>{t.t('operator.plans.add')}</button>}
      caption={t.t('operator.plans.caption')}
      columns={[t.t('operator.column.plan'), col.price, col.trial, col.seats, col.state]}
      items={data?.plans ?? null}
      itemKey={(plan) => plan.id}
      empty={t.t('operator.plans.empty')}
      row={(plan) => (
        <>
          <th scope="row">
            <div className="gh-ap-role-text">
              <span>{plan.name}</span>
              <code className="gh-ap-hint">{plan.slug}</code>
            </div>
          </th>
          <td data-label={col.price}>{t.t('operator.plans.perMonth', { price: priceOf(plan) })}</td>
          <td data-label={col.trial}>{t.t('operator.plans.days', { count: plan.trialDays })}</td>
          <td data-label={col.seats}>{plan.seatLimit == null ? t.t('operator.plans.unlimited') : t.formatNumber(plan.seatLimit)}</td>
          <td data-label={col.state}>
            <span className="gh-ap-badges">
              <span className={plan.isActive ? 'gh-ap-badge' : 'gh-ap-badge gh-ap-badge-muted'}>{t.t(plan.isActive ? 'operator.plans.isActive' : 'operator.plans.inactive')}</span>
              {plan.isDefault && <span className="gh-ap-badge">{t.t('operator.plans.default')}</span>}
            </span>
          </td>
        </>
      )}
      actions={(plan) => (
        <RowMenu
          label={t.t('operator.plans.actionsFor', { name: plan.name })}
          items={[
            { key: 'edit', label: t.t('operator.action.edit'), onSelect: () => open({ kind: 'edit', plan }) },
            {
              key: 'active',
              label: t.t(plan.isActive ? 'operator.plans.deactivate' : 'operator.plans.activate'),
              // Deactivating takes the plan off the offer: asked first. Activating again is immediate.
              onSelect: () => (plan.isActive ? open({ kind: 'deactivate', plan }) : void act(async () => void (await api.updatePlan(plan.id, { isActive: true })), t.t('operator.plans.done.activated', { name: plan.name }))),
            },
            { key: 'delete', label: t.t('common.delete'), danger: true, onSelect: () => open({ kind: 'delete', plan }) },
          ]}
        />
      )}
      dialogs={
        <>
          {dialog?.kind === 'edit' && data && (
            <PlanDialog
              plan={dialog.plan}
              features={data.features}
              onClose={close}
              save={async (body) => {
                if (dialog.plan) await api.updatePlan(dialog.plan.id, body);
                else await api.createPlan(body);
                await finish(t.t(dialog.plan ? 'operator.plans.done.saved' : 'operator.plans.done.added', { name: String(body.name) }));
              }}
            />
          )}
          {dialog?.kind === 'deactivate' && (
            <DeleteDialog
              title={t.t('operator.plans.deactivateTitle', { name: dialog.plan.name })}
              text={t.t('operator.plans.deactivateText', { name: dialog.plan.name })}
              confirmLabel={t.t('operator.plans.deactivate')}
              onClose={close}
              run={async () => {
                await api.updatePlan(dialog.plan.id, { isActive: false });
                await finish(t.t('operator.plans.done.deactivated', { name: dialog.plan.name }));
              }}
            />
          )}
          {dialog?.kind === 'delete' && (
            <DeleteDialog
              title={t.t('operator.plans.deleteTitle', { name: dialog.plan.name })}
              text={t.t('operator.plans.deleteText', { name: dialog.plan.name })}
              onClose={close}
              run={async () => {
                // A plan that subscriptions name is deactivated instead: the server answers it (200) rather than nothing (204).
                const kept = await api.deletePlan(dialog.plan.id);
                const deactivated = Boolean(kept && typeof kept === 'object' && 'id' in kept);
                await finish(t.t(deactivated ? 'operator.plans.done.deactivatedInstead' : 'operator.plans.done.deleted', { name: dialog.plan.name }));
              }}
            />
          )}
        </>
      }
    />
  );
}
