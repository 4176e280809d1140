/**
 * The checkout dialog's effects: fetches the plan, subscription, card on file and Stripe's
 * publishable key when it opens; mounts Stripe's card Element when a card is needed; runs confirm;
 * announces a change of billing with BILLING_CHANGED_EVENT; Escape closes.
 */
import * as React from 'react';
import { BILLING_CHANGED_EVENT, type GatehouseApi, type Translator } from '@gatehouse/shared';
import { confirmCheckout, createSetupIntent, loadCheckout } from './checkout-api';
import { checkoutReducer, initialCheckoutState, needsCard } from './checkout-state';
import { CheckoutView, focusEdge } from './checkout-view';
import { mountCardField, type CardField } from './stripe-card';

/** The name of the slot the light-DOM card host is assigned to (see cardHostFor). */
export const CARD_SLOT = 'gatehouse-checkout-card';

export interface CheckoutDialogProps {
  api: GatehouseApi;
  planId: string;
  t: Translator;
  /** The mount element (inside the shadow root, or in the light DOM). */
  domElement: HTMLElement;
  onClose(): void;
}

/** The seed's texts come from the server as the error message; anything else is the generic one. */
function messageOf(error: unknown, t: Translator): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message ? message : t.t('checkout.genericError');
}

/**
 * Where Stripe's card Element goes. Inside a shadow root it goes into a div in the custom element's
 * light DOM, assigned to a `<slot>` in the dialog: Stripe.js looks its mount node and its iframe up
 * from `document` (and the emulator's stand-in queries `document` for its inputs), which never
 * sees into a shadow root; slotted, the field is still laid out, focused and read inside the dialog.
 */
function cardHostFor(domElement: HTMLElement): { host: HTMLElement; slotted: boolean; remove(): void } {
  const root = domElement.getRootNode();
  const host = document.createElement('div');
  host.className = 'gh-co-card-host';
  if (root instanceof ShadowRoot) {
    host.slot = CARD_SLOT;
    root.host.appendChild(host);
    return { host, slotted: true, remove: () => host.remove() };
  }
  return { host, slotted: false, remove: () => host.remove() };
}

export function CheckoutDialog({ api, planId, t, domElement, onClose }: CheckoutDialogProps) {
  const [state, dispatch] = React.useReducer(checkoutReducer, initialCheckoutState);
  const [attempt, setAttempt] = React.useState(0);
  const [useCardOnFile, setUseCardOnFile] = React.useState(true);
  const [cardReady, setCardReady] = React.useState(false);
  const card = React.useRef<CardField | null>(null);
  const dialog = React.useRef<HTMLDivElement | null>(null);
  const lightHost = React.useRef<HTMLDivElement | null>(null);
  const slotted = domElement.getRootNode() instanceof ShadowRoot;
  const wantsCard = Boolean(state.data && !state.confirmed && needsCard(state.data, useCardOnFile));

  // Fetching: on open and on retry.
  React.useEffect(() => {
    let live = true;
    dispatch({ type: 'fetch' });
    loadCheckout(api, planId).then(
      (data) => live && dispatch({ type: 'load', data }),
      (error) => live && dispatch({ type: 'error', error: messageOf(error, t) }),
    );
    return () => {
      live = false;
    };
  }, [api, planId, attempt, t]);

  // Focus goes into the dialog when it opens; Escape closes it, also from the light-DOM card inputs.
  // Escape and Tab stop here: a dialog under this one (the admin portal, which opens the checkout
  // from its plan cards) listens on the document and would close itself or pull focus back.
  React.useEffect(() => {
    const node = dialog.current;
    if (!node) return;
    node.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        onClose();
      } else if (event.key === 'Tab') {
        event.stopPropagation();
        // Shift+Tab from the dialog itself would leave it backwards: wrap to its last control.
        if (event.shiftKey && event.target === node) {
          event.preventDefault();
          focusEdge(node, 'last');
        }
      }
    };
    node.addEventListener('keydown', onKey);
    return () => node.removeEventListener('keydown', onKey);
  }, [onClose]);

  // Stripe's card Element, while a card is needed; destroyed (iframe, listeners) when not.
  const publishableKey = state.data?.publishableKey;
  React.useEffect(() => {
    if (!wantsCard || !publishableKey) return;
    let live = true;
    const place = slotted ? cardHostFor(domElement) : null;
    const host = place?.host ?? lightHost.current;
    if (!host) return;
    const styles = dialog.current ? getComputedStyle(dialog.current) : null;
    const token = (name: string, fallback: string) => styles?.getPropertyValue(name).trim() || fallback;
    mountCardField({
      publishableKey,
      host,
      locale: t.locale,
      style: { color: token('--_text', '#111827'), placeholder: token('--_muted', '#4b5563'), danger: token('--_danger', '#b42318'), fontFamily: token('--_font', 'system-ui, sans-serif') },
      onChange: (fieldError) => live && dispatch({ type: 'fieldChange', fieldError }),
    }).then(
      (field) => {
        if (!live) return field.destroy();
        card.current = field;
        setCardReady(true);
      },
      (error) => live && dispatch({ type: 'error', error: messageOf(error, t) }),
    );
    return () => {
      live = false;
      card.current?.destroy();
      card.current = null;
      place?.remove();
      setCardReady(false);
    };
  }, [wantsCard, publishableKey, slotted, domElement, t]);

  // A changed billing: the portal's Subscription section reloads.
  React.useEffect(() => {
    if (!state.confirmed) return;
    const announce = () => {
      window.dispatchEvent(new CustomEvent(BILLING_CHANGED_EVENT, { detail: { planId } }));
    };
    announce();
    // Once more when the dialog goes, so a section mounted meanwhile sees the final state too.
    return announce;
  }, [state.confirmed, planId]);

  const confirm = async () => {
    const data = state.data;
    if (!data || state.loading) return;
    dispatch({ type: 'submit' });
    try {
      let paymentMethodId: string | undefined;
      if (needsCard(data, useCardOnFile)) {
        if (!card.current) return dispatch({ type: 'error', error: t.t('checkout.cardInvalid'), field: true });
        const secret = await createSetupIntent(api);
        const outcome = await card.current.confirm(secret);
        if ('error' in outcome) return dispatch({ type: 'error', error: outcome.error ?? t.t('checkout.cardInvalid'), field: outcome.field });
        paymentMethodId = outcome.paymentMethodId;
      }
      dispatch({ type: 'confirmed', result: await confirmCheckout(api, data, paymentMethodId) });
    } catch (error) {
      dispatch({ type: 'error', error: messageOf(error, t) });
    }
  };

  return (
    <CheckoutView
      state={state}
      t={t}
      dialogRef={dialog}
      cardReady={cardReady}
      cardField={wantsCard ? slotted ? <slot name={CARD_SLOT} /> : <div className="gh-co-card-host" ref={lightHost} /> : null}
      useCardOnFile={useCardOnFile}
      onUseCardOnFile={setUseCardOnFile}
      onConfirm={() => void confirm()}
      onRetry={() => setAttempt((n) => n + 1)}
      onClose={onClose}
    />
  );
}
