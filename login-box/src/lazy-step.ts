/**
 * Later steps and other screens of the login box: their code, and the rest of the English catalog
 * (i18n/en.ts) and of the stylesheet (styles-later.css) in one chunk (later.ts), load together, on demand, so the
 * first chunk carries only what the sign-in form's first paint needs (login bytes budget,
 * bench/budgets.test.ts).
 */
import { lazy, useEffect, useSyncExternalStore, type ComponentType, type LazyExoticComponent } from 'react';
import { addEnglish } from './use-i18n';
import { addLaterStyles } from './use-adopted-styles';
import type { describeError } from './components/server-errors';

export type DescribeError = typeof describeError;

let later: Promise<void> | undefined;
/** components/server-errors.ts `describeError` once the later chunk is there (the server's own words if it cannot load). */
let describer: { fn: DescribeError; worded: boolean } | null = null;
const describerListeners = new Set<() => void>();

function setDescriber(fn: DescribeError, worded: boolean): void {
  describer = { fn, worded };
  for (const listener of describerListeners) listener();
}

/** Without the catalog's wording: the server's message as it came. */
const asTheServerSaid: DescribeError = (_i18n, message, code) => (message ? { text: message, ...(code ? { code } : {}) } : null);

/** The English messages and the styles every later step or screen may need (loaded once; a failed load is tried again next time). */
export function loadLaterParts(): Promise<void> {
  later ??= import('./later').then(
    (m) => {
      addEnglish(m.en);
      addLaterStyles(m.laterCss);
      setDescriber(m.describeError, true);
    },
    (error: unknown) => {
      later = undefined;
      if (!describer?.worded) setDescriber(asTheServerSaid, false);
      throw error;
    },
  );
  return later;
}

/**
 * `React.lazy` for a later step or screen: its chunk and `loadLaterParts()` load in parallel, and
 * it renders once all are there. `load()` may be called ahead (on the click that leads to the step)
 * to start early.
 */
export function lazyStep<P>(load: () => Promise<ComponentType<P>>): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => Promise.all([load(), loadLaterParts()]).then(([component]) => ({ default: component })));
}

const subscribeDescriber = (listener: () => void) => {
  describerListeners.add(listener);
  return () => describerListeners.delete(listener);
};
const currentDescriber = () => describer;

/**
 * `describeError` for the first chunk (the identifier step, ErrorAlert): it is in the later chunk,
 * which Continue starts loading beside preLogin. While `failed` there is an error to word, the
 * chunk is asked for (if nothing did yet) and null returned until it is there; if it cannot load,
 * errors are shown as the server said them.
 */
export function useDescribeError(failed: boolean): DescribeError | null {
  const current = useSyncExternalStore(subscribeDescriber, currentDescriber, currentDescriber);
  const missing = failed && !current?.worded;
  useEffect(() => {
    if (missing) loadLaterParts().catch(() => undefined);
  }, [missing]);
  return current?.fn ?? null;
}
