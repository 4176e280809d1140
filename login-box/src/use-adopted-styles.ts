/**
 * Puts the bundle's stylesheet into the root node of the mount element (shadow root or document)
 * as a constructed sheet, so no inline style element is needed under a strict CSP, and hands the
 * loader a themeSetter that writes `--gh-*` variables on the mount element. Undone on unmount.
 */
import { useLayoutEffect } from 'react';
import { themeToCssVariables, type ThemeTokens } from '@gatehouse/shared';

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

export function useAdoptedStyles(
  element: HTMLElement,
  css: string,
  setThemeSetter: (setter: (theme: ThemeTokens) => void) => void,
  nonce?: string,
): void {
  useLayoutEffect(() => {
    const remove = adopt(element, css, nonce);
    const applied = new Set<string>();
    let active = true;
    setThemeSetter((theme) => {
      if (!active) return;
      for (const [name, value] of Object.entries(themeToCssVariables(theme))) {
        element.style.setProperty(name, value);
        applied.add(name);
      }
    });
    return () => {
      active = false;
      remove();
      for (const name of applied) element.style.removeProperty(name);
    };
  }, [element, css, setThemeSetter, nonce]);
}
