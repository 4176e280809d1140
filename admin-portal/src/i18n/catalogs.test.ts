/// <reference types="node" />
/**
 * A missing or broken translation fails here, not in front of a user: every catalog file of every
 * locale matches English (same keys, same arguments, messages that parse), every key sits in the
 * file its prefix names, and every `t('…')` key the portal's source uses exists in English.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCatalogs, SUPPORTED_LOCALES, type Messages } from '@gatehouse/shared/i18n';
import { NAVIGATION } from '../navigation';
import { NAMESPACES, namespaceOf } from './namespaces';

const files = import.meta.glob<Messages>('./*/*.ts', { eager: true, import: 'default' });
const catalog = (locale: string, namespace: string): Messages | undefined => files[`./${locale}/${namespace}.ts`];
const english: Record<string, string> = Object.assign({}, ...NAMESPACES.map((ns) => catalog('en', ns) ?? {}));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'i18n' || name === 'test' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('admin portal catalogs', () => {
  it('has a file per namespace in English, German, Spanish and Hebrew, and no other', () => {
    for (const locale of SUPPORTED_LOCALES) {
      for (const ns of NAMESPACES) expect(catalog(locale, ns), `${locale}/${ns}.ts`).toBeTypeOf('object');
    }
    expect(Object.keys(files).sort()).toEqual(SUPPORTED_LOCALES.flatMap((l) => NAMESPACES.map((ns) => `./${l}/${ns}.ts`)).sort());
  });

  it('translates every English message completely, with the same arguments, into every locale', () => {
    const problems = NAMESPACES.flatMap((ns) =>
      checkCatalogs(catalog('en', ns)!, Object.fromEntries(SUPPORTED_LOCALES.filter((l) => l !== 'en').map((l) => [l, catalog(l, ns)!]))).map((p) => `${p.locale}/${ns}: ${p.key}: ${p.problem}`),
    );
    expect(problems).toEqual([]);
  });

  it('keeps each key in the file its prefix names, so a section loads every string it shows', () => {
    const misplaced = NAMESPACES.flatMap((ns) => Object.keys(catalog('en', ns)!).filter((key) => namespaceOf(key) !== ns).map((key) => `${ns}: ${key}`));
    expect(misplaced).toEqual([]);
  });

  it('finds every key the source asks for in the English catalog', () => {
    const root = join(import.meta.dirname, '..') + '/';
    const used = new Map<string, string>();
    for (const file of sourceFiles(root)) {
      const text = readFileSync(file, 'utf8');
      // Every quoted string shaped like a key of a known file: t('users.invite'), and keys kept in tables.
      for (const match of text.matchAll(/['"`]((?:shell|common|errors|nav|profile|privacy|account|users|groups|roles|audits|apiTokens|allAccounts|security|restrictions|securityCenter|operator|subscription|usage|provisioning|sso|connectivity)\.[\w-]+(?:\.[\w-]+)*)['"`]/g)) used.set(match[1]!, file.slice(root.length));
    }
    // Keys built at run time: the navigation labels and groups.
    for (const entry of NAVIGATION) used.set(`nav.${entry.key}`, 'navigation.ts');
    for (const group of new Set(NAVIGATION.map((entry) => entry.group))) used.set(`shell.group.${group}`, 'admin-portal-app.tsx');
    expect(used.size).toBeGreaterThan(40);
    const missing = [...used].filter(([key]) => !(key in english)).map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });
});
