/** Focus helpers that see through shadow roots (document.activeElement stops at the host). */

const FOCUSABLE = 'a[href],button:not([disabled]),input:not([disabled]):not([type="hidden"]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';

/** The element that really has focus, descending into open shadow roots. */
export function deepActiveElement(root: Document | ShadowRoot = document): Element | null {
  let active = root.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** Tabbable descendants of `container`, in document order, skipping ones not rendered. */
export function tabbables(container: HTMLElement): HTMLElement[] {
  // Without layout (no client rects even for the container) rendering can't be judged; keep all.
  const hasLayout = container.getClientRects().length > 0;
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => !element.closest('[hidden],[inert]') && (!hasLayout || element.getClientRects().length > 0),
  );
}

/**
 * Keeps Tab and Shift+Tab inside `container`: from the last tabbable to the first and back.
 * Returns true when it moved focus.
 */
export function trapTab(container: HTMLElement, event: KeyboardEvent): boolean {
  const items = tabbables(container);
  const root = container.getRootNode() as Document | ShadowRoot;
  const active = root.activeElement;
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) {
    event.preventDefault();
    container.focus();
    return true;
  }
  const inside = active instanceof Node && container.contains(active);
  if (event.shiftKey && (!inside || active === first || active === container)) {
    event.preventDefault();
    last.focus();
    return true;
  }
  if (!event.shiftKey && (!inside || active === last)) {
    event.preventDefault();
    first.focus();
    return true;
  }
  return false;
}
