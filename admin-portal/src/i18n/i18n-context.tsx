/** The portal's translator in React: one context, the locale's direction, and section catalogs that suspend until loaded. */
import { createContext, useContext } from 'react';
import { DEFAULT_LOCALE, type Translator } from '../contract';
import type { Namespace } from './namespaces';
import { loadNamespaces, namespacesReady, translatorFor } from './registry';

const I18nContext = createContext<Translator>(translatorFor(DEFAULT_LOCALE));

export const I18nProvider = I18nContext.Provider;

/** The translator of the portal's locale (English outside a provider). */
export function useT(): Translator {
  return useContext(I18nContext);
}

/**
 * Suspends (throws the pending load to the nearest Suspense) until the active locale's catalogs
 * for `namespaces` are in, so a screen never flashes keys or English before its own language.
 */
export function useNamespaces(namespaces: readonly Namespace[]): Translator {
  const t = useT();
  if (!namespacesReady(t.locale, namespaces)) throw loadNamespaces(t.locale, namespaces);
  return t;
}
