/** The languages Gatehouse ships complete translations for. English is the source and the fallback. */
export const SUPPORTED_LOCALES = ['en', 'de', 'es', 'he'] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(['he', 'ar', 'fa', 'ur']);

/** The supported locale a language tag asks for (`de-AT` -> `de`), or undefined. */
export function supportedLocale(tag: string | null | undefined): Locale | undefined {
  if (!tag) return undefined;
  const language = tag.trim().toLowerCase().split(/[-_]/)[0];
  // `iw` is Hebrew's old code, still sent by some systems.
  const normalized = language === 'iw' ? 'he' : language;
  return (SUPPORTED_LOCALES as readonly string[]).includes(normalized ?? '') ? (normalized as Locale) : undefined;
}

/**
 * The locale to show: the host's `locale` option when it names a supported language, else the
 * first supported one of the browser's preferred languages, else English.
 */
export function resolveLocale(option: unknown, preferred: readonly string[] = []): Locale {
  if (typeof option === 'string') {
    const chosen = supportedLocale(option);
    if (chosen) return chosen;
  }
  for (const tag of preferred) {
    const found = supportedLocale(tag);
    if (found) return found;
  }
  return DEFAULT_LOCALE;
}

/** The writing direction of a locale, for the `dir` attribute of a bundle's root. */
export function directionOf(locale: string): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.has(locale.toLowerCase().split(/[-_]/)[0] ?? '') ? 'rtl' : 'ltr';
}
