/**
 * The login box's one i18n layer (shared/src/i18n underneath): the locale from the host's `locale`
 * option, else the browser's languages, else English. English is the fallback per key: the messages
 * the sign-in form's first paint can show (i18n/en-first.ts) come with it, the rest of the catalog
 * (i18n/en.ts) is a chunk that every later step or screen waits for with its own code
 * (lazy-step.ts); German, Spanish and Hebrew are chunks of their own, only the active one
 * fetched. Screens read `useI18n()`: `t(key, values)` (ICU messages), the direction, `Intl` formats.
 */
import { createContext, useContext, useEffect, useState } from 'react';
import { createTranslator, resolveLocale, type Locale, type MessageValues, type Translator } from '@gatehouse/shared';
import { enFirst } from './i18n/en-first';
import type { MessageKey } from './i18n/en';

export type { MessageKey };

export interface LoginBoxI18n {
  locale: Locale;
  dir: 'ltr' | 'rtl';
  /** The message `key`, filled in; keys are checked against the English catalog at compile time. */
  t(key: MessageKey, values?: MessageValues): string;
  formatNumber: Translator['formatNumber'];
  formatDate: Translator['formatDate'];
}

type Catalog = Readonly<Record<MessageKey, string>>;

/** The English fallback every translator reads: the first-paint messages, then the whole catalog once loaded. */
const english: Record<string, string> = { ...enFirst };
/** Completes the English fallback with the rest of the catalog (lazy-step.ts loads it). */
export function addEnglish(messages: Readonly<Record<string, string>>): void {
  Object.assign(english, messages);
}

// One chunk per language, fetched only for the active locale.
const CATALOGS: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Catalog }>> = {
  de: () => import('./i18n/de'),
  es: () => import('./i18n/es'),
  he: () => import('./i18n/he'),
};

/**
 * In a right-to-left language, each filled-in text (an email, a phone number, a name) is isolated
 * (U+2068 ... U+2069), so its own direction cannot scramble the sentence around it.
 */
function isolated(values: MessageValues | undefined): MessageValues | undefined {
  if (!values) return values;
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, typeof value === 'string' && value ? `\u2068${value}\u2069` : value]));
}

function i18nOf(locale: Locale, messages: Catalog): LoginBoxI18n {
  const translator = createTranslator(locale, messages, english);
  const rtl = translator.dir === 'rtl';
  return { locale, dir: translator.dir, t: (key, values) => translator.t(key, rtl ? isolated(values) : values), formatNumber: translator.formatNumber, formatDate: translator.formatDate };
}

/** English, for anything rendered outside the app's provider (and the first paint of an English box). */
export const englishI18n: LoginBoxI18n = i18nOf('en', english as Catalog);

export const I18nContext = createContext<LoginBoxI18n>(englishI18n);

/** The active language of the login box. */
export function useI18n(): LoginBoxI18n {
  return useContext(I18nContext);
}

/** The browser's preferred languages (navigator.languages), if any. */
function browserLanguages(): readonly string[] {
  const nav = typeof navigator === 'undefined' ? undefined : navigator;
  return nav?.languages?.length ? nav.languages : nav?.language ? [nav.language] : [];
}

/**
 * The i18n of the locale `option` asks for, or null while its catalog loads (the box waits rather
 * than flashing English). A catalog that cannot load falls back to English.
 */
export function useLocaleI18n(option: unknown): LoginBoxI18n | null {
  const locale = resolveLocale(option, browserLanguages());
  const [loaded, setLoaded] = useState<LoginBoxI18n | null>(() => (locale === 'en' ? englishI18n : null));
  useEffect(() => {
    if (locale === 'en') {
      setLoaded(englishI18n);
      return;
    }
    let live = true;
    setLoaded((current) => (current?.locale === locale ? current : null));
    CATALOGS[locale]().then(
      (m) => live && setLoaded(i18nOf(locale, m.default)),
      () => live && setLoaded(englishI18n),
    );
    return () => {
      live = false;
    };
  }, [locale]);
  return loaded?.locale === locale || loaded === englishI18n ? loaded : null;
}
