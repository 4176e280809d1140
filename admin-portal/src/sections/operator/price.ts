/**
 * Plan prices: the server keeps minor units (cents), operators type major units ("99.90"). Integer
 * arithmetic on the digits, so 0.29 becomes 29, never 28.999….
 */

/** The server's ceiling on a plan price (shared/src/wire/operator/operator.ts), in minor units. */
export const MAX_PRICE_MINOR = 100_000_000;

/** Minor units from a typed amount ("12", "12.5", "12.50", "1,299.00" with a comma or a space grouping thousands), or null when it is not a price. */
export function majorToMinor(text: string): number | null {
  const clean = text.trim().replace(/[\s\u00a0,](?=\d{3}(?:\D|$))/g, '');
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(clean);
  if (!match) return null;
  const minor = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return minor <= MAX_PRICE_MINOR ? minor : null;
}

/** The amount as an operator types it back: minor units to a plain "12.50". */
export function minorToMajorText(minor: number): string {
  const whole = Math.trunc(minor / 100);
  const cents = Math.abs(minor % 100);
  return cents === 0 ? String(whole) : `${whole}.${String(cents).padStart(2, '0')}`;
}
