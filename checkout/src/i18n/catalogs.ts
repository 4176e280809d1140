/**
 * The checkout's catalogs, all four bundled: together they are about 2 KB over the wire, less
 * than one more request to fetch a language lazily would cost.
 */
import { createTranslator, type Locale, type Translator } from '@gatehouse/shared';
import en from './en';
import de from './de';
import es from './es';
import he from './he';

export const catalogs = { en, de, es, he } as const;

/** The checkout's translator in `locale`, English for any key a catalog lacks. */
export function checkoutTranslator(locale: Locale): Translator {
  return createTranslator(locale, catalogs[locale], en);
}
