/**
 * What the Subscription section may offer, and why not (seed 001 section 4 "Subscription"), and how
 * it writes money. Pure functions: the section and its tests share them.
 */
import { CANCELLATION_AT_PERIOD_END } from '@gatehouse/shared/admin-paths';
import type { PublicPlan, Subscription, TenantBillingConfiguration } from '@gatehouse/shared/wire';
import type { Translator } from '../../contract';

/** An action is allowed, or refused with the catalog key of its reason. */
export type Rule = { allowed: true } | { allowed: false; reason: string };

const allow: Rule = { allowed: true };
const refuse = (reason: string): Rule => ({ allowed: false, reason });

/**
 * Seed 001 section 4: cancel only when no cancellation is pending and the status is active; the
 * vendor must allow cancellation (allowPlanCancellation); "Billing is externally managed" refuses it.
 */
export function cancelRule(subscription: Subscription | null, configuration: TenantBillingConfiguration | null, canWrite: boolean): Rule {
  if (!subscription) return refuse('subscription.reason.noSubscription');
  if (subscription.externallyManaged) return refuse('subscription.reason.externallyManaged');
  if (!canWrite) return refuse('subscription.reason.noPermission');
  if (subscription.cancellation) return refuse('subscription.reason.cancellationPending');
  if (subscription.status !== 'active') return refuse('subscription.reason.cancelNotActive');
  if (!configuration?.allowPlanCancellation) return refuse('subscription.reason.cancellationNotAllowed');
  return allow;
}

/** Seed 001 section 4: renew only while a cancellation with policy atPeriodEnd is pending; "Billing is externally managed" refuses it. */
export function renewRule(subscription: Subscription | null, canWrite: boolean): Rule {
  if (!subscription) return refuse('subscription.reason.noSubscription');
  if (subscription.externallyManaged) return refuse('subscription.reason.externallyManaged');
  if (!canWrite) return refuse('subscription.reason.noPermission');
  if (subscription.cancellation?.policy !== CANCELLATION_AT_PERIOD_END) return refuse('subscription.reason.nothingToRenew');
  return allow;
}

/**
 * Whether `plan` may be chosen instead of `current`: a cheaper plan is a downgrade, refused unless
 * the vendor allows it (allowPlanDowngrade); the checkout must be available; externally managed
 * billing is changed elsewhere. Prices compare only within one currency (else no downgrade is assumed).
 */
export function changeRule(plan: PublicPlan, current: PublicPlan | null, subscription: Subscription | null, configuration: TenantBillingConfiguration | null, options: { canWrite: boolean; checkout: boolean }): Rule {
  if (subscription?.externallyManaged) return refuse('subscription.reason.externallyManaged');
  if (!options.canWrite) return refuse('subscription.reason.noPermission');
  if (isDowngrade(plan, current) && !configuration?.allowPlanDowngrade) return refuse('subscription.reason.downgradeNotAllowed');
  if (!options.checkout) return refuse('subscription.reason.checkoutUnavailable');
  return allow;
}

/** A plan priced below the current one, in the same currency. */
export function isDowngrade(plan: PublicPlan, current: PublicPlan | null): boolean {
  return Boolean(current && plan.id !== current.id && plan.price.currency.toLowerCase() === current.price.currency.toLowerCase() && plan.price.amount < current.price.amount);
}

/** The digits after the decimal point of `currency` (2 for usd, 0 for jpy), or 2 for a code Intl does not know. */
function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** An amount in major units as money in the portal's language; an unknown currency code is written after the number. */
function money(t: Translator, major: number, currency: string, digits: number): string {
  try {
    return t.formatNumber(major, { style: 'currency', currency: currency.toUpperCase(), minimumFractionDigits: digits, maximumFractionDigits: digits });
  } catch {
    return `${t.formatNumber(major, { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${currency.toUpperCase()}`;
  }
}

/** A plan's price from minor units (10000 usd -> "$100.00" in English), with its currency's own decimals. */
export function planPrice(t: Translator, price: PublicPlan['price']): string {
  const digits = currencyDigits(price.currency);
  return money(t, price.amount / 10 ** digits, price.currency, digits);
}

/** An invoice total: already in major units (seed 001 section 9: minor / 100), always 2 decimals. */
export function invoiceAmount(t: Translator, totalAmount: number, currency: string): string {
  return money(t, totalAmount, currency, 2);
}

/** The downloaded file's name: invoice-<receipt number or id>.pdf, with only safe characters. */
export function invoiceFileName(invoice: { id: string; receiptNumber: string | null }): string {
  const base = (invoice.receiptNumber || invoice.id).replace(/[^\w.-]+/g, '-');
  return `invoice-${base}.pdf`;
}
