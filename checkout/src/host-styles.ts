/**
 * Puts the checkout's stylesheet into the root node it is mounted in (shadow root or document):
 * a constructed stylesheet, which a strict style-src CSP allows, else a nonce-carrying `<style>`.
 */
import css from './styles.css?inline';

/** Adopts the checkout stylesheet into the root node of `node`; returns the function that removes it. */
export function adoptStyles(node: Node, nonce?: string): () => void {
  const found = node.getRootNode();
  // A node not (yet) in a document or shadow tree has nowhere to put styles.
  if (found.nodeType !== 9 && found.nodeType !== 11) return () => {};
  const root = found as Document | ShadowRoot;
  if (typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype && Array.isArray(root.adoptedStyleSheets)) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return () => {
      root.adoptedStyleSheets = root.adoptedStyleSheets.filter((adopted) => adopted !== sheet);
    };
  }
  const style = document.createElement('style');
  if (nonce) style.nonce = nonce;
  style.textContent = css;
  (root.nodeType === 9 ? (root as Document).head : root).append(style);
  return () => style.remove();
}
