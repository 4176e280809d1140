/**
 * The checkout dialog as a function of its state: an accessible modal (role=dialog, aria-modal,
 * labelled by its title) with the seed's states: fetching (skeleton), loading (confirm in
 * progress), error (under the card field, or general) and confirmed. Effects live in
 * checkout-dialog.tsx.
 */
import * as React from 'react';
import type { Translator } from '@gatehouse/shared';
import type { CheckoutState } from './checkout-state';
import { confirmPath, needsCard } from './checkout-state';
import { formatMinorUnits } from './format';

export interface CheckoutViewProps {
  state: CheckoutState;
  t: Translator;
  /** The card field's place: a `<slot>` the light-DOM card host is assigned to, or the host itself. */
  cardField: React.ReactNode;
  cardReady: boolean;
  useCardOnFile: boolean;
  onUseCardOnFile(value: boolean): void;
  onConfirm(): void;
  onRetry(): void;
  onClose(): void;
  dialogRef: React.Ref<HTMLDivElement>;
}

/** Keeps Tab inside the dialog: focus reaching an edge sentinel moves to the other end. */
function Sentinel({ onFocus }: { onFocus(from: EventTarget | null): void }) {
  return <span tabIndex={0} className="gh-co-sentinel" aria-hidden="true" onFocus={(event) => onFocus(event.relatedTarget)} />;
}

/** Focuses the dialog's first or last control. */
export function focusEdge(dialog: HTMLElement | null, edge: 'first' | 'last') {
  const items = [...(dialog?.querySelectorAll<HTMLElement>('button:not([disabled]),input:not([disabled]),a[href]') ?? [])];
  (edge === 'first' ? items[0] : items[items.length - 1])?.focus();
}

export function CheckoutView(props: CheckoutViewProps) {
  const { state, t, onClose } = props;
  const ids = React.useId();
  const titleId = `${ids}-title`;
  const cardLabelId = `${ids}-card`;
  const cardErrorId = `${ids}-card-error`;
  const dialog = React.useRef<HTMLDivElement | null>(null);
  const setDialog = (node: HTMLDivElement | null) => {
    dialog.current = node;
    if (typeof props.dialogRef === 'function') props.dialogRef(node);
    else if (props.dialogRef) (props.dialogRef as React.MutableRefObject<HTMLDivElement | null>).current = node;
  };
  const { data } = state;
  const price = data && formatMinorUnits(data.plan.price.amount, data.plan.price.currency, t.locale);

  let body: React.ReactNode;
  if (state.fetching) {
    body = (
      <div className="gh-co-body" aria-busy="true">
        <p className="gh-co-sr">{t.t('checkout.fetching')}</p>
        <div className="gh-co-skeleton gh-co-skeleton-title" />
        <div className="gh-co-skeleton" />
        <div className="gh-co-skeleton gh-co-skeleton-field" />
        <div className="gh-co-skeleton gh-co-skeleton-button" />
      </div>
    );
  } else if (!data) {
    body = (
      <div className="gh-co-body">
        <p className="gh-co-error" role="alert">{state.error ?? t.t('checkout.genericError')}</p>
        <div className="gh-co-actions">
          <button type="button" className="gh-co-button" onClick={props.onRetry}>{t.t('checkout.retry')}</button>
        </div>
      </div>
    );
  } else if (state.confirmed) {
    const status = state.result?.subscription?.status;
    const invoice = state.result?.latestInvoice;
    body = (
      <div className="gh-co-body" role="status">
        <p className="gh-co-confirmed">{t.t('checkout.confirmed')}</p>
        <p>{t.t('checkout.confirmedPlan', { plan: data.plan.name, status: status ? t.t(`checkout.status.${status}`) : '-' })}</p>
        {invoice && <p className="gh-co-muted">{t.t('checkout.confirmedInvoice', { amount: t.formatCurrency(invoice.totalAmount, invoice.currency.toUpperCase()) })}</p>}
        <div className="gh-co-actions">
          <button type="button" className="gh-co-button" onClick={onClose}>{t.t('checkout.done')}</button>
        </div>
      </div>
    );
  } else {
    const card = needsCard(data, props.useCardOnFile);
    const onFile = data.paymentMethod;
    const local = confirmPath(data) === 'local';
    body = (
      <form
        className="gh-co-body"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          props.onConfirm();
        }}
      >
        <section className="gh-co-plan" aria-label={t.t('checkout.plan')}>
          <p className="gh-co-plan-name">{data.plan.name}</p>
          {data.plan.description && <p className="gh-co-muted">{data.plan.description}</p>}
          <p className="gh-co-price">{t.t('checkout.pricePerMonth', { price })}</p>
          {Boolean(data.plan.trialDays) && <p className="gh-co-muted">{t.t('checkout.trial', { days: data.plan.trialDays })}</p>}
        </section>
        {local && onFile && <p>{t.t('checkout.trialCardOnFile', { brand: onFile.brand ?? '', last4: onFile.last4 ?? '' })}</p>}
        {!local && data.plan.price.amount === 0 && <p>{t.t('checkout.noCardNeeded')}</p>}
        {!local && data.plan.price.amount > 0 && onFile && (
          <label className="gh-co-check">
            <input type="checkbox" checked={props.useCardOnFile} onChange={(event) => props.onUseCardOnFile(event.target.checked)} />
            <span>{t.t('checkout.useCardOnFile', { brand: onFile.brand ?? '', last4: onFile.last4 ?? '' })}</span>
          </label>
        )}
        {card && (
          <div className="gh-co-field">
            <p className="gh-co-label" id={cardLabelId}>{t.t('checkout.card')}</p>
            <div role="group" aria-labelledby={cardLabelId} aria-describedby={state.fieldError ? cardErrorId : undefined} aria-busy={!props.cardReady}>
              {!props.cardReady && <div className="gh-co-skeleton gh-co-skeleton-field" role="presentation"><span className="gh-co-sr">{t.t('checkout.cardLoading')}</span></div>}
              {props.cardField}
            </div>
            {state.fieldError && <p className="gh-co-field-error" id={cardErrorId} role="alert">{state.fieldError}</p>}
          </div>
        )}
        {state.error && <p className="gh-co-error" role="alert">{state.error}</p>}
        <div className="gh-co-actions">
          <button type="submit" className="gh-co-button" disabled={state.loading || (card && !props.cardReady)} aria-busy={state.loading}>
            {state.loading ? t.t('checkout.confirming') : t.t('checkout.confirm')}
          </button>
        </div>
      </form>
    );
  }

  return (
    <div className="gh-co" dir={t.dir} lang={t.locale}>
      <div className="gh-co-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} ref={setDialog}>
        {/* Tab from the dialog itself (focused when it opens) goes on to the first control; Shift+Tab from the first control wraps to the last. */}
        <Sentinel onFocus={(from) => focusEdge(dialog.current, from === dialog.current ? 'first' : 'last')} />
        <div className="gh-co-header">
          <h2 id={titleId}>{t.t('checkout.title')}</h2>
          <button type="button" className="gh-co-close" aria-label={t.t('checkout.close')} onClick={onClose}>
            <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path d="M3 3l10 10M13 3L3 13" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /></svg>
          </button>
        </div>
        {body}
        <Sentinel onFocus={() => focusEdge(dialog.current, 'first')} />
      </div>
    </div>
  );
}
