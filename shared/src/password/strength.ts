/**
 * Password strength by @zxcvbn-ts, for the strength meters of the login box and the admin portal
 * (`@gatehouse/shared/password-strength`, never in the runtime's core): the common dictionaries and
 * keyboard graphs, plus the word lists of the user's language (English for Hebrew, which has no
 * pack). Each bundle loads it with its meter only, each language pack in a chunk of its own, so a
 * sign-in never fetches any of it.
 */
import { ZxcvbnFactory, type OptionsType } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import type { Locale } from '../i18n/locale';

export interface Strength {
  /** 0 (too guessable) to 4 (very unguessable). */
  score: 0 | 1 | 2 | 3 | 4;
  /** zxcvbn's warning key (straightRow, common, ...), or '' when there is none. */
  warning: string;
}

type Dictionary = NonNullable<OptionsType['dictionary']>;

const PACKS: Record<Locale, () => Promise<{ dictionary: Dictionary }>> = {
  en: () => import('@zxcvbn-ts/language-en'),
  he: () => import('@zxcvbn-ts/language-en'),
  de: () => import('@zxcvbn-ts/language-de'),
  es: () => import('@zxcvbn-ts/language-es-es'),
};

const factories = new Map<Locale, Promise<ZxcvbnFactory>>();

function factoryFor(locale: Locale): Promise<ZxcvbnFactory> {
  let factory = factories.get(locale);
  if (!factory) {
    factory = PACKS[locale]().then(
      (pack) => new ZxcvbnFactory({ dictionary: { ...common.dictionary, ...pack.dictionary }, graphs: common.adjacencyGraphs, useLevenshteinDistance: true }),
      // The language pack failed to load: the common lists alone still catch the worst passwords.
      () => new ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs }),
    );
    factories.set(locale, factory);
  }
  return factory;
}

/** How guessable `password` is; `userInputs` (name, email, company) count as guessable words. */
export async function estimateStrength(locale: Locale, password: string, userInputs: readonly string[] = []): Promise<Strength> {
  const zxcvbn = await factoryFor(locale);
  // zxcvbn's cost grows with length; beyond 100 characters the score is at its top anyway.
  const result = zxcvbn.check(password.slice(0, 100), userInputs.filter(Boolean).map(String));
  return { score: result.score as Strength['score'], warning: result.feedback.warning ?? '' };
}

/** What a warning is about, for the few sentences a meter says: zxcvbn's warning keys grouped. */
export type StrengthTopic = 'keyboard' | 'repeat' | 'sequence' | 'dates' | 'common' | 'words' | 'personal';

const TOPICS: Partial<Record<string, StrengthTopic>> = {
  straightRow: 'keyboard',
  keyPattern: 'keyboard',
  simpleRepeat: 'repeat',
  extendedRepeat: 'repeat',
  sequences: 'sequence',
  recentYears: 'dates',
  dates: 'dates',
  topTen: 'common',
  topHundred: 'common',
  common: 'common',
  similarToCommon: 'common',
  pwned: 'common',
  wordByItself: 'words',
  namesByThemselves: 'words',
  commonNames: 'words',
  userInputs: 'personal',
};

/** The topic of zxcvbn's `warning` key, or undefined for none (or one we do not word). */
export function strengthTopic(warning: string): StrengthTopic | undefined {
  return TOPICS[warning];
}
