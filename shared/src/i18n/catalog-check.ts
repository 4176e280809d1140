import { argumentsOf } from './message-format';
import type { Messages } from './translator';

export interface CatalogProblem {
  locale: string;
  key: string;
  problem: string;
}

/**
 * What is wrong with translations against the English source: a missing or extra key, a message
 * that does not parse, or a message whose arguments differ from the English one ("{name}" left
 * out, or renamed). Empty when every catalog is complete.
 */
export function checkCatalogs(english: Messages, translations: Readonly<Record<string, Messages>>): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  const argsOf = (locale: string, key: string, message: string): string[] | undefined => {
    try {
      return argumentsOf(message);
    } catch (err) {
      problems.push({ locale, key, problem: (err as Error).message });
      return undefined;
    }
  };
  const englishArgs = new Map<string, string[] | undefined>(Object.entries(english).map(([key, message]) => [key, argsOf('en', key, message)]));
  for (const [locale, messages] of Object.entries(translations)) {
    for (const key of Object.keys(english)) {
      const message = messages[key];
      if (message === undefined) {
        problems.push({ locale, key, problem: 'missing' });
        continue;
      }
      const args = argsOf(locale, key, message);
      const expected = englishArgs.get(key);
      if (args && expected && args.join(',') !== expected.join(',')) problems.push({ locale, key, problem: `arguments ${args.join(',') || '(none)'} instead of ${expected.join(',') || '(none)'}` });
    }
    for (const key of Object.keys(messages)) if (!(key in english)) problems.push({ locale, key, problem: 'not in the English catalog' });
  }
  return problems;
}
