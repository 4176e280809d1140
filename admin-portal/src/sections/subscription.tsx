import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { BILLING_CHANGED_EVENT } from '@gatehouse/shared';
import type { Invoice, PublicPlan } from '@gatehouse/shared/wire';
import { holdsPermission } from '../access';
import { Permissions } from '../contract';
import { adoptCss } from '../host-styles';
import { errorText, useErrorText } from '../i18n/errors';
import { useT } from '../i18n/i18n-context';
import { Toast } from '../toast';
import { useLatestLoad } from './dialogs/use-latest-load';
import type { SectionProps } from './section-props';
import { createBillingApi } from './subscription/billing-api';
import { BillingDetailsForm } from './subscription/billing-details-form';
import { CancelDialog } from './subscription/cancel-dialog';
import { CurrentPlan } from './subscription/current-plan';
import { InvoicesTable } from './subscription/invoices-table';
import { loadBilling } from './subscription/load-billing';
import { PaymentMethodCard } from './subscription/payment-method-card';
import { PlanCards } from './subscription/plan-cards';
import { cancelRule, changeRule, invoiceFileName, renewRule, type Rule } from './subscription/rules';
import css from './users/users.css?inline';
import ownCss from './subscription/subscription.css?inline';

/**
 * The Subscription section (issue 13; seed 001 sections 3 "Billing", 4 "Subscription", 7, 8, 9):
 * the current plan and status, the vendor's plans (Change opens the checkout), cancel and renew by
 * the seed's rules, invoices with their PDF, the default card with "Replace card", and the billing
 * details. Readers (fe.subscriptions.read) see it all; writers (fe.subscriptions.write) act. After a
 * confirmed checkout (the `gatehouse:billing-changed` window event) everything is read again.
 */
export default function SubscriptionSection({ title, headingId, user, api, options, checkout }: SectionProps) {
  const t = useT();
  const toError = useErrorText();
  const billing = useMemo(() => createBillingApi(api), [api]);
  const canWrite = Boolean(user.superUser) || holdsPermission(user, Permissions.subscriptionsWrite);
  const fetch = useCallback(() => loadBilling(billing, user.tenantId), [billing, user.tenantId]);
  const { data, loading, error, reload } = useLatestLoad(fetch, toError, { keepDataOnError: true });
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  /** After cancel or renew the pressed button is disabled: focus goes to the one that undoes it, once it is enabled. */
  const [focusNext, setFocusNext] = useState<'cancel' | 'renew' | null>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const ids = useId();
  const report = options.callbacks?.subscription;

  useEffect(() => (sectionRef.current ? adoptCss(sectionRef.current, `${css}\n${ownCss}`) : undefined), []);
  // The checkout (another bundle) says when it changed the subscription or the card: read it all again.
  useEffect(() => {
    const onChange = () => void reload();
    window.addEventListener(BILLING_CHANGED_EVENT, onChange);
    return () => window.removeEventListener(BILLING_CHANGED_EVENT, onChange);
  }, [reload]);

  useEffect(() => {
    if (!focusNext || busy) return;
    const button = sectionRef.current?.querySelector<HTMLButtonElement>(`button[data-action="${focusNext}"]`);
    if (button && !button.disabled) {
      button.focus();
      setFocusNext(null);
    }
  }, [focusNext, busy, data]);

  /**
   * Runs an action: busy while it runs, its failure shown. A change of the subscription (`reports`)
   * tells the host's callback how it ended; opening the checkout or downloading a file does not.
   */
  const act = async (work: () => Promise<void>, done?: string, reports = false): Promise<boolean> => {
    setBusy(true);
    setActionError(null);
    setNotice(null);
    try {
      await work();
      if (done) setNotice(done);
      if (reports) report?.(true);
      return true;
    } catch (thrown) {
      setActionError(errorText(t, thrown));
      if (reports) report?.(false);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const openCheckout = (planId: string) =>
    act(async () => {
      if (!checkout) return;
      await checkout.show({ planId });
    });

  const download = async (invoice: Invoice) => {
    await act(async () => {
      const blob = await billing.invoicePdf(invoice.id);
      const url = URL.createObjectURL(blob.type === 'application/pdf' ? blob : new Blob([blob], { type: 'application/pdf' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = invoiceFileName(invoice);
      link.hidden = true;
      sectionRef.current?.append(link);
      link.click();
      link.remove();
      // The browser has the file once the click is handled; the URL is freed a little later to be safe.
      setTimeout(() => URL.revokeObjectURL(url), 30_000);
    }, t.t('subscription.invoices.downloaded', { file: invoiceFileName(invoice) }));
  };

  const heading = <h2 id={headingId} className="gh-ap-section-title" tabIndex={-1}>{title}</h2>;
  const shell = (body: ReactNode) => (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide gh-ap-sub" aria-labelledby={headingId} aria-busy={loading}>
      {heading}
      {body}
      <Toast message={notice} />
    </section>
  );

  if (!data) {
    if (error) {
      return shell(
        <div className="gh-ap-sub-stack">
          <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>
          <div><button type="button" className="gh-ap-button-secondary" onClick={() => void reload()}>{t.t('common.tryAgain')}</button></div>
        </div>,
      );
    }
    return shell(<SubscriptionSkeleton label={t.t('subscription.loading')} />);
  }

  if (data.kind === 'notConfigured') {
    return shell(
      <div className="gh-ap-empty">
        <svg className="gh-ap-empty-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="2.5" y="5" width="19" height="14" rx="2" /><path d="M2.5 9.5h19" /></svg>
        <p className="gh-ap-empty-title">{t.t('subscription.notConfigured.title')}</p>
        <p>{t.t('subscription.notConfigured.text')}</p>
      </div>,
    );
  }

  const { plans, subscription, configuration, currentPlanId, invoices, method } = data;
  const current = plans.find((plan) => plan.id === currentPlanId) ?? null;
  const cancel = cancelRule(subscription, configuration, canWrite);
  const renew = renewRule(subscription, canWrite);
  const ruleFor = (plan: PublicPlan) => changeRule(plan, current, subscription, configuration, { canWrite, checkout: Boolean(checkout) });
  const replace: Rule = !current ? { allowed: false, reason: 'subscription.reason.noPlanForCard' } : changeRule(current, current, subscription, configuration, { canWrite, checkout: Boolean(checkout) });

  return shell(
    <div className="gh-ap-sub-stack">
      {!canWrite && <p className="gh-ap-hint">{t.t('subscription.readOnly')}</p>}
      {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
      {actionError && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{actionError}</p>}
      <CurrentPlan
        plan={current}
        subscription={subscription}
        cancel={cancel}
        renew={renew}
        busy={busy}
        onCancel={() => setConfirmCancel(true)}
        onRenew={() => void act(async () => {
          await billing.renew(subscription!.id);
          await reload();
          setFocusNext('cancel');
        }, t.t('subscription.renew.done'), true)}
      />

      <div className="gh-ap-sub-block" role="group" aria-labelledby={`${ids}-plans`}>
        <h3 id={`${ids}-plans`} className="gh-ap-sub-heading">{t.t('subscription.plans.title')}</h3>
        <PlanCards plans={plans} currentPlanId={currentPlanId} hasSubscription={Boolean(subscription)} ruleFor={ruleFor} busy={busy} onChoose={(plan) => void openCheckout(plan.id)} />
      </div>

      <div className="gh-ap-sub-columns">
        <div className="gh-ap-sub-block" role="group" aria-labelledby={`${ids}-method`}>
          <h3 id={`${ids}-method`} className="gh-ap-sub-heading">{t.t('subscription.paymentMethod.title')}</h3>
          {data.methodError ? <p className="gh-ap-banner gh-ap-banner-error" role="alert">{errorText(t, data.methodError)}</p> : null}
          <PaymentMethodCard method={method} replace={replace} busy={busy} onReplace={() => current && void openCheckout(current.id)} />
        </div>
        {method && (
          <div className="gh-ap-sub-block" role="group" aria-labelledby={`${ids}-details`}>
            <h3 id={`${ids}-details`} className="gh-ap-sub-heading">{t.t('subscription.details.title')}</h3>
            <BillingDetailsForm
              key={method.id}
              method={method}
              canWrite={canWrite}
              save={async (body) => {
                try {
                  await billing.updateBillingDetails(method.id, body);
                  report?.(true);
                } catch (thrown) {
                  // Seed 001 section 8: a payment-method update failure is reported to the callback.
                  report?.(false);
                  throw thrown;
                }
              }}
            />
          </div>
        )}
      </div>

      <div className="gh-ap-sub-block" role="group" aria-labelledby={`${ids}-invoices`}>
        <h3 id={`${ids}-invoices`} className="gh-ap-sub-heading">{t.t('subscription.invoices.title')}</h3>
        <InvoicesTable invoices={invoices} loading={loading && !invoices} error={data.invoicesError ? errorText(t, data.invoicesError) : null} download={download} />
      </div>

      {confirmCancel && subscription && (
        <CancelDialog
          periodEnd={subscription.currentPeriodEnd}
          onClose={() => setConfirmCancel(false)}
          run={async () => {
            try {
              await billing.cancel(subscription.id);
            } catch (thrown) {
              report?.(false);
              throw thrown;
            }
            setConfirmCancel(false);
            setNotice(t.t('subscription.cancel.done'));
            report?.(true);
            await reload();
            setFocusNext('renew');
          }}
        />
      )}
    </div>,
  );
}

/** The section's shape while it loads: the plan card, three plan cards and a table. */
function SubscriptionSkeleton({ label }: { label: string }) {
  return (
    <div className="gh-ap-skeleton" aria-busy="true">
      <p className="gh-ap-visually-hidden" role="status">{label}</p>
      <div className="gh-ap-sub-card gh-ap-sub-skeleton-card"><div className="gh-ap-skeleton-bar gh-ap-skeleton-heading" /><div className="gh-ap-skeleton-bar gh-ap-skeleton-short" /></div>
      <div className="gh-ap-sub-plans" aria-hidden="true">
        {[0, 1, 2].map((i) => <div key={i} className="gh-ap-sub-card gh-ap-sub-skeleton-card"><div className="gh-ap-skeleton-bar gh-ap-skeleton-heading" /><div className="gh-ap-skeleton-bar" /><div className="gh-ap-skeleton-bar gh-ap-skeleton-short" /></div>)}
      </div>
    </div>
  );
}
