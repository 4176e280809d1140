/**
 * The portal's loaded messages, per locale, and the translator over them. English is the source
 * and the fallback: its shell catalog is in the shell chunk, every other catalog (each section's
 * English, and every file of German, Spanish and Hebrew) is a chunk of its own, fetched the first
 * time a section of that locale needs it. Only the active locale's files are ever fetched.
 */
import { createTranslator, DEFAULT_LOCALE, type Locale, type Messages, type Translator } from '../contract';
import shellEnglish from './en/shell';
import type { Namespace } from './namespaces';

type Loader = () => Promise<Messages>;

// Literal patterns so the bundler makes one chunk per file; English's shell is imported above instead.
const loaders = import.meta.glob<Messages>(['./de/*.ts', './es/*.ts', './he/*.ts', './en/*.ts', '!./en/shell.ts', '!./**/*.test.ts'], { import: 'default' }) as Record<string, Loader>;

interface LocaleState {
  /** Grows as files load; the translator reads it on every call, so it sees later files too. */
  messages: Record<string, string>;
  loaded: Map<Namespace, Promise<void>>;
  done: Set<Namespace>;
  translator: Translator;
}

const english: Record<string, string> = { ...shellEnglish };
const englishLoaded = new Map<Namespace, Promise<void>>([['shell', Promise.resolve()]]);
const englishDone = new Set<Namespace>(['shell']);
const states = new Map<Locale, LocaleState>();

function stateOf(locale: Locale): LocaleState {
  let state = states.get(locale);
  if (!state) {
    const messages: Record<string, string> = locale === DEFAULT_LOCALE ? english : {};
    state = { messages, loaded: new Map(), done: new Set(), translator: createTranslator(locale, messages, english) };
    if (locale === DEFAULT_LOCALE) {
      state.loaded = englishLoaded;
      state.done = englishDone;
    }
    states.set(locale, state);
  }
  return state;
}

function loadInto(target: Record<string, string>, started: Map<Namespace, Promise<void>>, done: Set<Namespace>, locale: Locale, namespace: Namespace): Promise<void> {
  let loading = started.get(namespace);
  if (!loading) {
    const loader = loaders[`./${locale}/${namespace}.ts`];
    loading = (loader ? loader() : Promise.reject(new Error(`No ${locale} catalog for ${namespace}`))).then(
      (messages) => {
        Object.assign(target, messages);
        done.add(namespace);
      },
      (error: unknown) => {
        // A failed fetch may be retried (the section boundary's "Try again").
        started.delete(namespace);
        throw error;
      },
    );
    started.set(namespace, loading);
  }
  return loading;
}

/** True when `locale`'s files for `namespaces` (and English's) are in. */
export function namespacesReady(locale: Locale, namespaces: readonly Namespace[]): boolean {
  const state = stateOf(locale);
  return namespaces.every((ns) => englishDone.has(ns) && state.done.has(ns));
}

/** Loads `locale`'s files for `namespaces`, and English's as the fallback; resolves when all are in. */
export function loadNamespaces(locale: Locale, namespaces: readonly Namespace[]): Promise<void> {
  const state = stateOf(locale);
  const work: Promise<void>[] = [];
  for (const ns of namespaces) {
    work.push(loadInto(english, englishLoaded, englishDone, DEFAULT_LOCALE, ns));
    if (locale !== DEFAULT_LOCALE) work.push(loadInto(state.messages, state.loaded, state.done, locale, ns));
  }
  return Promise.all(work).then(() => undefined);
}

/** The translator of `locale`; it sees every file loaded so far, now and later. */
export function translatorFor(locale: Locale): Translator {
  return stateOf(locale).translator;
}

/** Test support: puts catalogs in as if loaded (the component tests render sections directly). */
export function registerMessages(locale: Locale, namespace: Namespace, messages: Messages): void {
  const state = stateOf(locale);
  Object.assign(state.messages, messages);
  state.done.add(namespace);
  state.loaded.set(namespace, Promise.resolve());
}
