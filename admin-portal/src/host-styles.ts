/**
 * Puts the portal's stylesheet into the root node it is mounted in (shadow root or document).
 * Constructed stylesheets and CSSOM writes are allowed under a strict style-src CSP, unlike inline
 * `<style>` or `style=""` markup.
 */
import css from './styles.css?inline';

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
