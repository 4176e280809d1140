/**
 * Puts the portal's stylesheet into the root node it is mounted in (shadow root or document) and
 * applies theme tokens as `--gh-*` custom properties. Constructed stylesheets and CSSOM writes are
 * allowed under a strict style-src CSP, unlike inline `<style>` or `style=""` markup.
 */
import css from './styles.css?inline';
import type { ThemeTokens } from './contract';

type StyleRoot = Document | ShadowRoot;

function isStyleRoot(node: Node): node is StyleRoot {
  return 'adoptedStyleSheets' in node || node.nodeType === 9 || node.nodeType === 11;
}

/** Adopts the portal stylesheet into `root`; returns the function that removes it again. */
export function adoptStyles(node: Node, nonce?: string): () => void {
  return adoptCss(node, css, nonce);
}

/** Adopts `css` (the shell's, or a lazily loaded section's own) into the root node of `node`. */
export function adoptCss(node: Node, css: string, nonce?: string): () => void {
  const root = node.getRootNode();
  if (!isStyleRoot(root)) return () => {};
  if (typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype && Array.isArray(root.adoptedStyleSheets)) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return () => {
      root.adoptedStyleSheets = root.adoptedStyleSheets.filter((adopted) => adopted !== sheet);
    };
  }
  // Old engines without constructable stylesheets: a nonce-carrying <style> element.
  const style = document.createElement('style');
  if (nonce) style.nonce = nonce;
  style.textContent = css;
  (root.nodeType === 9 ? (root as Document).head : root).append(style);
  return () => style.remove();
}

const TOKEN_PROPERTIES: Record<keyof ThemeTokens, string> = {
  primaryColor: '--gh-primary',
  backgroundColor: '--gh-bg',
  textColor: '--gh-text',
  borderRadius: '--gh-radius',
  fontFamily: '--gh-font',
};

/** Sets (or clears, for missing tokens) the `--gh-*` properties on `element`. */
export function applyTheme(element: HTMLElement, theme: ThemeTokens): void {
  for (const [token, property] of Object.entries(TOKEN_PROPERTIES) as [keyof ThemeTokens, string][]) {
    const value = theme[token];
    if (typeof value === 'string' && value.trim()) element.style.setProperty(property, value.trim());
    else element.style.removeProperty(property);
  }
}

/** Removes every theme property `applyTheme` may have set. */
export function clearTheme(element: HTMLElement): void {
  for (const property of Object.values(TOKEN_PROPERTIES)) element.style.removeProperty(property);
}
