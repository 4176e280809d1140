import { formatMessage, type MessageValues } from './message-format';
import { DEFAULT_LOCALE, directionOf, type Locale } from './locale';

/** A catalog: message keys to ICU messages. Keys are dotted and name the screen (`login.title`). */
export type Messages = Readonly<Record<string, string>>;

export interface Translator {
  readonly locale: Locale;
  readonly dir: 'ltr' | 'rtl';
  /** The message `key` in this locale (or in English when this locale lacks it), filled in. */
  t(key: string, values?: MessageValues): string;
  /** True when `key` exists in this locale or in English. */
  has(key: string): boolean;
  formatNumber(value: number, options?: Intl.NumberFormatOptions): string;
  /** An amount of money in `currency` (ISO 4217), e.g. 100.5 USD. */
  formatCurrency(value: number, currency: string): string;
  formatDate(value: Date | number | string, options?: Intl.DateTimeFormatOptions): string;
  /** "3 days ago", "in 2 hours": the largest unit that fits. */
  formatRelative(value: Date | number | string, now?: number): string;
}

const RELATIVE_UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/**
 * A translator over `messages` in `locale`, falling back to `fallback` (the English catalog) per
 * key. A key missing from both comes back as itself, so a screen still renders; the catalog tests
 * make that a failing test rather than a runtime surprise.
 */
export function createTranslator(locale: Locale, messages: Messages, fallback: Messages = messages): Translator {
  const lookup = (key: string): [string, string] | undefined => {
    const own = messages[key];
    if (own !== undefined) return [own, locale];
    const english = fallback[key];
    return english !== undefined ? [english, DEFAULT_LOCALE] : undefined;
  };
  return {
    locale,
    dir: directionOf(locale),
    t(key, values) {
      const found = lookup(key);
      return found ? formatMessage(found[0], values, found[1]) : key;
    },
    has: (key) => lookup(key) !== undefined,
    formatNumber: (value, options) => new Intl.NumberFormat(locale, options).format(value),
    formatCurrency: (value, currency) => new Intl.NumberFormat(locale, { style: 'currency', currency }).format(value),
    formatDate: (value, options = { dateStyle: 'medium' }) => new Intl.DateTimeFormat(locale, options).format(value instanceof Date ? value : new Date(value)),
    formatRelative(value, now = Date.now()) {
      const diff = (value instanceof Date ? value.getTime() : new Date(value).getTime()) - now;
      const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
      for (const [unit, ms] of RELATIVE_UNITS) {
        if (Math.abs(diff) >= ms || unit === 'second') return format.format(Math.round(diff / ms), unit);
      }
      return format.format(0, 'second');
    },
  };
}
