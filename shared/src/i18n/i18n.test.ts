import { describe, expect, it } from 'vitest';
import { argumentsOf, checkCatalogs, createTranslator, directionOf, formatMessage, MessageSyntaxError, resolveLocale } from './index';

describe('formatMessage', () => {
  it('fills simple arguments and leaves a missing one visible', () => {
    expect(formatMessage('Hello {name}, welcome to {app}', { name: 'Ada', app: 'Acme' })).toBe('Hello Ada, welcome to Acme');
    expect(formatMessage('Hello {name}')).toBe('Hello {name}');
  });

  it('chooses plural cases by the locale’s rules, exact matches first, # as the localized number', () => {
    const message = '{count, plural, =0 {No sessions} one {# session} other {# sessions}}';
    expect(formatMessage(message, { count: 0 })).toBe('No sessions');
    expect(formatMessage(message, { count: 1 })).toBe('1 session');
    expect(formatMessage(message, { count: 1234 })).toBe('1,234 sessions');
    expect(formatMessage(message, { count: 1234 }, 'de')).toBe('1.234 sessions');
    // Hebrew has a "two" category that English lacks.
    expect(formatMessage('{n, plural, one {יום} two {יומיים} other {# ימים}}', { n: 2 }, 'he')).toBe('יומיים');
    expect(formatMessage('{n, plural, one {יום} two {יומיים} other {# ימים}}', { n: 5 }, 'he')).toBe('5 ימים');
  });

  it('applies an offset to the category and to #', () => {
    const message = '{n, plural, offset:1 =0 {nobody} =1 {{who}} one {{who} and # other} other {{who} and # others}}';
    expect(formatMessage(message, { n: 1, who: 'Ada' })).toBe('Ada');
    expect(formatMessage(message, { n: 2, who: 'Ada' })).toBe('Ada and 1 other');
    expect(formatMessage(message, { n: 4, who: 'Ada' })).toBe('Ada and 3 others');
  });

  it('selects by value with an other case, and keeps # of an enclosing plural', () => {
    const message = '{n, plural, other {{kind, select, app {# apps} other {# devices}}}}';
    expect(formatMessage(message, { n: 3, kind: 'app' })).toBe('3 apps');
    expect(formatMessage(message, { n: 3, kind: 'key' })).toBe('3 devices');
    expect(formatMessage('{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}', { n: 22 })).toBe('22nd');
  });

  it('formats numbers and dates with Intl', () => {
    expect(formatMessage('{n, number, percent}', { n: 0.5 })).toBe('50%');
    const date = new Date(Date.UTC(2026, 10, 26, 12));
    expect(formatMessage('{d, date, long}', { d: date }, 'en')).toBe(new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(date));
    expect(formatMessage('{d, date, long}', { d: date }, 'de')).toBe(new Intl.DateTimeFormat('de', { dateStyle: 'long' }).format(date));
  });

  it('reads apostrophes as ICU does: lone ones stay, doubled ones are one, quoted braces are text', () => {
    expect(formatMessage("We're facing some difficulties, Please try again")).toBe("We're facing some difficulties, Please try again");
    expect(formatMessage("It''s '{literal}' and {x}", { x: 1 })).toBe("It's {literal} and 1");
    expect(formatMessage("{n, plural, other {'#' is # here}}", { n: 2 })).toBe('# is 2 here');
  });

  it('refuses malformed messages with where the problem is', () => {
    expect(() => formatMessage('Hello {name')).toThrow(MessageSyntaxError);
    expect(() => formatMessage('{n, plural, one {x}}', { n: 1 })).toThrow(/no "other" case/);
    expect(() => formatMessage('{n, frobnicate, x}')).toThrow(/Unknown argument type frobnicate/);
    expect(() => formatMessage('oops }')).toThrow(/Unexpected }/);
  });

  it('lists the arguments a message uses, nested ones included', () => {
    expect(argumentsOf('{who} has {n, plural, one {# {kind}} other {# {kind}s}}')).toEqual(['kind', 'n', 'who']);
  });
});

describe('locales', () => {
  it('takes the locale option first, then the browser’s languages, then English', () => {
    expect(resolveLocale('de-AT', ['es'])).toBe('de');
    expect(resolveLocale('fr', ['fr-FR', 'es-MX', 'de'])).toBe('es');
    expect(resolveLocale(undefined, ['iw-IL'])).toBe('he');
    expect(resolveLocale(42, ['ja'])).toBe('en');
  });

  it('lays Hebrew out right to left', () => {
    expect(directionOf('he')).toBe('rtl');
    expect(directionOf('he-IL')).toBe('rtl');
    expect(directionOf('de')).toBe('ltr');
  });
});

describe('createTranslator', () => {
  const en = { 'login.title': 'Sign in', 'sessions.count': '{n, plural, one {# session} other {# sessions}}', 'only.english': 'English only' };
  const de = { 'login.title': 'Anmelden', 'sessions.count': '{n, plural, one {# Sitzung} other {# Sitzungen}}' };

  it('translates, falls back to English per key, and returns an unknown key as itself', () => {
    const t = createTranslator('de', de, en);
    expect(t.t('login.title')).toBe('Anmelden');
    expect(t.t('sessions.count', { n: 3 })).toBe('3 Sitzungen');
    expect(t.t('only.english')).toBe('English only');
    expect(t.t('no.such.key')).toBe('no.such.key');
    expect(t.has('only.english')).toBe(true);
    expect(t.has('no.such.key')).toBe(false);
  });

  it('formats numbers, money, dates and relative times for its locale', () => {
    const t = createTranslator('de', de, en);
    expect(t.formatNumber(1234.5)).toBe('1.234,5');
    expect(t.formatCurrency(100, 'EUR')).toBe(new Intl.NumberFormat('de', { style: 'currency', currency: 'EUR' }).format(100));
    const now = Date.UTC(2026, 10, 26);
    expect(createTranslator('en', en).formatRelative(now - 3 * 86_400_000, now)).toBe('3 days ago');
    expect(createTranslator('en', en).formatRelative(now + 2 * 3_600_000, now)).toBe('in 2 hours');
  });
});

describe('checkCatalogs', () => {
  it('reports missing and extra keys, broken messages and changed arguments', () => {
    const en = { a: 'Hello {name}', b: 'Bye', c: '{n, plural, other {# x}}' };
    const problems = checkCatalogs(en, { de: { a: 'Hallo {nom}', c: '{n, plural, one {# x}}', z: 'extra' } });
    expect(problems).toEqual(
      expect.arrayContaining([
        { locale: 'de', key: 'a', problem: 'arguments nom instead of name' },
        { locale: 'de', key: 'b', problem: 'missing' },
        expect.objectContaining({ locale: 'de', key: 'c', problem: expect.stringMatching(/no "other" case/) }),
        { locale: 'de', key: 'z', problem: 'not in the English catalog' },
      ]),
    );
    expect(checkCatalogs(en, { es: { a: 'Hola {name}', b: 'Adiós', c: '{n, plural, one {# x} other {# xs}}' } })).toEqual([]);
  });
});
