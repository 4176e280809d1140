/**
 * Puts the bundle's stylesheet into the root node of the mount element (shadow root or document)
 * as a constructed sheet, so no inline style element is needed under a strict CSP, and hands the
 * loader a themeSetter that writes the theme's `--gh-*` variables and `data-gh-scheme` on the mount
 * element, the host's `theme` option over it. Undone on unmount.
 */
import { useLayoutEffect, useSyncExternalStore } from 'react';
import { createThemeApplier, defaultTheme, type ResolvedTheme } from '@gatehouse/shared';

type SheetRoot = (Document | ShadowRoot) & { adoptedStyleSheets: CSSStyleSheet[] };

function adopt(element: HTMLElement, css: string, nonce: string | undefined): () => void {
  const root = element.getRootNode() as Partial<SheetRoot>;
  if (typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype && Array.isArray(root.adoptedStyleSheets)) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    const target = root as SheetRoot;
    target.adoptedStyleSheets = [...target.adoptedStyleSheets, sheet];
    return () => {
      target.adoptedStyleSheets = target.adoptedStyleSheets.filter((s) => s !== sheet);
    };
  }
  // Browsers without constructable sheets: a style element, carrying the page's CSP nonce if any.
  const style = element.ownerDocument.createElement('style');
  if (nonce) style.nonce = nonce;
  style.textContent = css;
  const parent = root instanceof ShadowRoot ? root : element.ownerDocument.head;
  parent.appendChild(style);
  return () => style.remove();
}

/** The stylesheet of later steps and screens (styles-later.css), once one of them has loaded it. */
let laterCss: string | null = null;
const laterListeners = new Set<() => void>();

/** Hands every mounted box the later stylesheet (lazy-step.ts calls it before the step renders). */
export function addLaterStyles(css: string): void {
  if (laterCss === css) return;
  laterCss = css;
  for (const listener of laterListeners) listener();
}

function subscribeLater(listener: () => void): () => void {
  laterListeners.add(listener);
  return () => laterListeners.delete(listener);
}

const currentLater = () => laterCss;

/**
 * Adopts the later stylesheet beside the first one, after it, as soon as any box has loaded it
 * (a synchronous store update, so it is in place before the lazy step that asked for it paints).
 */
export function useLaterStyles(element: HTMLElement, nonce?: string): void {
  const css = useSyncExternalStore(subscribeLater, currentLater, currentLater);
  useLayoutEffect(() => (css ? adopt(element, css, nonce) : undefined), [element, css, nonce]);
}

export function useAdoptedStyles(
  element: HTMLElement,
  css: string,
  setThemeSetter: (setter: (theme: ResolvedTheme) => void) => void,
  nonce?: string,
  hostTheme?: unknown,
): void {
  useLayoutEffect(() => {
    const remove = adopt(element, css, nonce);
    const theme = createThemeApplier(element, hostTheme);
    // The scheme holds from the first paint; the loader's call adds the tenant's metadata theme.
    theme.apply(defaultTheme);
    let active = true;
    setThemeSetter((resolved) => {
      if (active) theme.apply(resolved);
    });
    return () => {
      active = false;
      remove();
      theme.clear();
    };
  }, [element, css, setThemeSetter, nonce, hostTheme]);
}
