/**
 * The checkout's state (seed 001 section 3: fetching, loading, error, confirmed) and its operations
 * (section 4: load, reset, submit, error), as a reducer the dialog runs; plus the confirm rule.
 */
import type { Invoice, PaymentMethod, PublicPlan, Subscription } from '@gatehouse/shared/wire';

/** What the dialog needs before it can take a card: fetched when it opens. */
export interface CheckoutData {
  plan: PublicPlan;
  /** The tenant's managed subscription (the first one), or null when it has none yet. */
  subscription: Subscription | null;
  /** The default payment method on file, or null. */
  paymentMethod: PaymentMethod | null;
  /** Stripe's publishable key from the vendor's public configuration. */
  publishableKey: string;
}

/** After a confirm: what the server now says (billing information, payment method, invoices). */
export interface CheckoutResult {
  subscription: Subscription | null;
  paymentMethod: PaymentMethod | null;
  latestInvoice: Invoice | null;
}

export interface CheckoutState {
  fetching: boolean;
  loading: boolean;
  /** A general error (the server's or the seed's message). */
  error: string | null;
  /** An error about the card itself, shown under the card field. */
  fieldError: string | null;
  confirmed: boolean;
  data: CheckoutData | null;
  result: CheckoutResult | null;
}

export type CheckoutAction =
  | { type: 'fetch' }
  | { type: 'load'; data: CheckoutData }
  | { type: 'reset' }
  | { type: 'submit' }
  | { type: 'error'; error: string; field?: boolean }
  | { type: 'fieldChange'; fieldError: string | null }
  | { type: 'confirmed'; result: CheckoutResult };

export const initialCheckoutState: CheckoutState = { fetching: true, loading: false, error: null, fieldError: null, confirmed: false, data: null, result: null };

export function checkoutReducer(state: CheckoutState, action: CheckoutAction): CheckoutState {
  switch (action.type) {
    case 'fetch':
      return { ...initialCheckoutState };
    // Seed: load leaves it not fetching, not loading, without error and not confirmed.
    case 'load':
      return { ...initialCheckoutState, fetching: false, data: action.data };
    case 'reset':
      return { ...state, loading: false, error: null, fieldError: null, confirmed: false, result: null };
    case 'submit':
      return { ...state, loading: true, error: null, fieldError: null };
    case 'error':
      return { ...state, fetching: false, loading: false, error: action.field ? null : action.error, fieldError: action.field ? action.error : null };
    case 'fieldChange':
      return { ...state, fieldError: action.fieldError };
    case 'confirmed':
      return { ...state, loading: false, error: null, fieldError: null, confirmed: true, result: action.result };
  }
}

/**
 * How confirm goes (seed 001 section 4): `local` when the tenant is trialing this very plan with a
 * payment method on file (no server call; the status becomes active locally); `update` the managed
 * subscription when there is one; `create` a subscription when the tenant has none yet. Choosing
 * another plan while trialing is a plan change, which only the server can make: `update`.
 */
export function confirmPath(data: CheckoutData): 'local' | 'update' | 'create' {
  const { subscription } = data;
  if (!subscription) return 'create';
  const cardOnFile = Boolean(data.paymentMethod ?? subscription.paymentMethodId);
  if (subscription.status === 'trialing' && cardOnFile && subscription.planId === data.plan.id) return 'local';
  return 'update';
}

/** Whether confirm must collect a card first: not for the local path, a free plan, or when the card on file is used. */
export function needsCard(data: CheckoutData, useCardOnFile: boolean): boolean {
  if (confirmPath(data) === 'local' || data.plan.price.amount === 0) return false;
  return !(useCardOnFile && data.paymentMethod);
}
