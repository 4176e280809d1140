/// <reference types="node" />
/**
 * A missing or broken translation fails here, not in front of a user: German, Spanish and Hebrew
 * have every English key, with the same ICU arguments, in messages that parse; and every key the
 * login box's source asks for exists in English.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTranslator, SUPPORTED_LOCALES } from '@gatehouse/shared';
import { checkCatalogs } from '@gatehouse/shared/i18n';
import { en } from './en';
import { enFirst } from './en-first';
import de from './de';
import es from './es';
import he from './he';

const translations = { de, es, he };
const PREFIXES = [...new Set(Object.keys(en).map((key) => key.split('.')[0]!))];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'i18n' || name === 'test' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The source files `entry` imports statically, transitively (relative imports; `import()` is lazy and left out). */
function staticImports(entry: string): string[] {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const [, spec] of code.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'(\.[^']+)'/gm)) {
      const base = resolve(dirname(file), spec!);
      const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((f) => existsSync(f) && statSync(f).isFile());
      if (found) stack.push(found);
    }
  }
  return [...seen];
}

describe('login box catalogs', () => {
  it('has a catalog for every supported locale', () => {
    expect(Object.keys({ en, ...translations }).sort()).toEqual([...SUPPORTED_LOCALES].sort());
  });

  it('translates every English message completely, with the same arguments, into German, Spanish and Hebrew', () => {
    const problems = checkCatalogs(en, translations).map((p) => `${p.locale}: ${p.key}: ${p.problem}`);
    expect(problems).toEqual([]);
  });

  it('really translates: no catalog is English copied over', () => {
    for (const [locale, messages] of Object.entries(translations)) {
      const same = Object.keys(en).filter((key) => messages[key as keyof typeof en] === en[key as keyof typeof en] && /[a-z]{4}/.test(en[key as keyof typeof en]));
      // Brand and product names (Google Authenticator, …) may stay as they are; sentences may not.
      expect(same.length, `${locale}: ${same.join(', ')}`).toBeLessThan(4);
    }
  });

  it('fills in plurals with each language’s forms', () => {
    expect(createTranslator('de', de, en).t('errors.rateLimitedFor', { minutes: 1 })).toBe('Zu viele Versuche. Versuchen Sie es in 1 Minute erneut.');
    expect(createTranslator('es', es, en).t('password.rule.minLength', { min: 12 })).toBe('Al menos 12 caracteres');
    const hebrew = createTranslator('he', he, en);
    expect(hebrew.dir).toBe('rtl');
    expect(hebrew.t('mfa.rememberDevice', { days: 2 })).toBe('לזכור את המכשיר הזה ליומיים');
    expect(hebrew.t('mfa.rememberDevice', { days: 30 })).toBe('לזכור את המכשיר הזה ל-30 ימים');
  });

  it('finds every key the source asks for in the English catalog', () => {
    const root = join(import.meta.dirname, '..') + '/';
    const pattern = new RegExp(`['"\`]((?:${PREFIXES.join('|')})\\.[\\w-]+(?:\\.[\\w-]+)*)['"\`]`, 'g');
    const used = new Map<string, string>();
    for (const file of sourceFiles(root)) {
      for (const match of readFileSync(file, 'utf8').matchAll(pattern)) used.set(match[1]!, file.slice(root.length));
    }
    expect(used.size).toBeGreaterThan(150);
    const missing = [...used].filter(([key]) => !(key in en)).map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });

  it('bundles with the sign-in form every English message its first chunk can render, and little else', () => {
    const root = join(import.meta.dirname, '..');
    const files = staticImports(join(root, 'mount.tsx'));
    const names = files.map((f) => f.slice(root.length + 1));
    expect(names).toEqual(expect.arrayContaining(['LoginBoxApp.tsx', 'screens/LoginScreen.tsx', 'components/ErrorAlert.tsx']));
    // The password step and the wording of server errors come later (lazy-step.ts).
    expect(names.filter((name) => /PasswordStep|server-errors|i18n\/en\.ts/.test(name))).toEqual([]);
    const pattern = new RegExp(`['"\`]((?:${PREFIXES.join('|')})\\.[\\w-]+(?:\\.[\\w-]+)*)['"\`]`, 'g');
    const used = new Set(files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(pattern)].map((m) => m[1]!)).filter((key) => key in en));
    expect([...used].filter((key) => !(key in enFirst))).toEqual([]);
    // Later steps' and other screens' messages stay in the lazily loaded rest.
    expect(Object.keys(enFirst).filter((key) => !used.has(key))).toEqual([]);
    expect(Object.keys(enFirst).length).toBeLessThan(Object.keys(en).length / 3);
  });
});
