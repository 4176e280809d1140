/**
 * What shows the moment the page asks for a bundle whose code is still on its way (the admin
 * portal): a text-free frame where the bundle will appear, named for assistive technology, in the
 * page's scheme. Styled through the CSSOM (allowed under a strict CSP, no stylesheet needed); the
 * bundle's own skeleton takes over once it runs.
 */
type Scheme = 'light' | 'dark' | 'system';

function box(doc: Document, parent: Node, style: Partial<CSSStyleDeclaration>): HTMLElement {
  const el = doc.createElement('div');
  Object.assign(el.style, style);
  parent.appendChild(el);
  return el;
}

/** Shows the placeholder in `root`; the returned function removes it. */
export function showPlaceholder(root: ShadowRoot | HTMLElement, label: string, scheme: Scheme): () => void {
  const doc = root.ownerDocument;
  const frame = box(doc, root, {
    position: 'fixed', inset: '0', zIndex: '2147483000', display: 'flex', justifyContent: 'center', padding: '24px',
    colorScheme: scheme === 'system' ? 'light dark' : scheme,
    // The portal's own dimming: its darkest token, see-through, in both schemes.
    background: 'rgb(17 24 39 / 0.5)',
  });
  frame.setAttribute('role', 'progressbar');
  frame.setAttribute('aria-label', label);
  frame.setAttribute('aria-busy', 'true');
  frame.setAttribute('data-gh-placeholder', '');
  const panel = box(doc, frame, { width: 'min(1200px, 100%)', borderRadius: '8px', background: 'Canvas', padding: '24px', display: 'grid', gap: '16px', alignContent: 'start' });
  for (const width of ['30%', '70%', '55%', '62%']) box(doc, panel, { height: '14px', width, borderRadius: '4px', background: 'color-mix(in srgb, CanvasText 12%, Canvas)' });
  return () => frame.remove();
}
