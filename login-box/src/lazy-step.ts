/**
 * Later steps and other screens of the login box: their code, and the rest of the English catalog
 * (i18n/en.ts) and of the stylesheet (styles-later.css) in one chunk (later.ts), load together, on demand, so the
 * first chunk carries only what the sign-in form's first paint needs (login bytes budget,
 * bench/budgets.test.ts).
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { addEnglish } from './use-i18n';
import { addLaterStyles } from './use-adopted-styles';

let later: Promise<void> | undefined;

/** The English messages and the styles every later step or screen may need (loaded once; a failed load is tried again next time). */
export function loadLaterParts(): Promise<void> {
  later ??= import('./later').then(
    (m) => {
      addEnglish(m.en);
      addLaterStyles(m.laterCss);
    },
    (error: unknown) => {
      later = undefined;
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
