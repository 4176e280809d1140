/** Money as the checkout shows it. */

/**
 * A price given in minor units (`10000` usd = $100.00) in `locale`: the currency's own number of
 * decimals decides the divisor, so zero-decimal currencies (jpy) are not divided by 100.
 */
export function formatMinorUnits(amount: number, currency: string, locale: string): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}
