/**
 * Stripe's card Element through @stripe/stripe-js. The `pure` entry injects Stripe's script only
 * when `loadStripe` is first called (when the dialog opens), never at import.
 */
import { loadStripe } from '@stripe/stripe-js/pure';
import type { Stripe, StripeCardElement, StripeCardElementChangeEvent, StripeElementLocale } from '@stripe/stripe-js';

/** The card field mounted in the page, and how to turn it into a payment method. */
export interface CardField {
  /** confirmCardSetup on the SetupIntent's secret: the payment method id, or Stripe's error (`field`: about the card itself). */
  confirm(setupIntentSecret: string): Promise<{ paymentMethodId: string } | { error: string | null; field: boolean }>;
  /** Unmounts and destroys the Element (its iframe and listeners). */
  destroy(): void;
}

/** The colours and font of the dialog, for the inside of Stripe's iframe, which our CSS cannot reach. */
export interface CardStyle {
  color: string;
  placeholder: string;
  danger: string;
  fontFamily: string;
}

/** Stripe's error codes that are about the card the user typed (shown under the card field). */
const CARD_CODES = new Set(['card_declined', 'expired_card', 'incorrect_cvc', 'incorrect_number', 'incorrect_zip', 'invalid_cvc', 'invalid_expiry_month', 'invalid_expiry_year', 'invalid_number', 'incomplete_number', 'incomplete_cvc', 'incomplete_expiry', 'incomplete_zip']);

/**
 * Whether a Stripe.js error is about the card itself: Stripe's `card_error` and `validation_error`
 * types, or a card error code (the emulator types every error `invalid_request_error` but keeps
 * Stripe's `card_declined` code).
 */
export function isCardProblem(error: { type?: string; code?: string } | null | undefined): boolean {
  if (!error) return false;
  return error.type === 'card_error' || error.type === 'validation_error' || CARD_CODES.has(error.code ?? '');
}

let stripeFor: { key: string; stripe: Promise<Stripe | null> } | null = null;

function stripeWith(publishableKey: string): Promise<Stripe | null> {
  if (stripeFor?.key !== publishableKey) stripeFor = { key: publishableKey, stripe: loadStripe(publishableKey) };
  return stripeFor.stripe;
}

/** Loads Stripe.js (once) and mounts a card Element into `host`; `onChange` gets its live validation error. */
export async function mountCardField(options: { publishableKey: string; host: HTMLElement; locale: string; style: CardStyle; onChange(error: string | null): void }): Promise<CardField> {
  const stripe = await stripeWith(options.publishableKey);
  if (!stripe) throw new Error('Stripe.js not available');
  const elements = stripe.elements({ locale: options.locale as StripeElementLocale });
  const card: StripeCardElement = elements.create('card', {
    hidePostalCode: false,
    style: {
      base: { color: options.style.color, fontFamily: options.style.fontFamily, fontSize: '16px', '::placeholder': { color: options.style.placeholder } },
      invalid: { color: options.style.danger },
    },
  });
  // The stand-in Stripe.js of the emulator calls handlers without an event.
  card.on('change', (event?: StripeCardElementChangeEvent) => options.onChange(event?.error?.message ?? null));
  card.mount(options.host);
  return {
    async confirm(secret) {
      const { setupIntent, error } = await stripe.confirmCardSetup(secret, { payment_method: { card } });
      if (error || !setupIntent) return { error: error?.message ?? null, field: isCardProblem(error) };
      const method = setupIntent.payment_method;
      const paymentMethodId = typeof method === 'string' ? method : method?.id;
      return paymentMethodId ? { paymentMethodId } : { error: null, field: false };
    },
    destroy() {
      card.destroy();
    },
  };
}
