import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { trapTab } from '../../focus';
import { useKeepFocusWhileBusy } from '../dialogs/keep-focus';

/**
 * A dialog over the users section: labelled by its title, focus moved into it and kept there (Tab
 * wraps), Escape closes it (without closing the portal behind it), and focus goes back to what had
 * it before. While `busy` (a save) and after a failed save, focus stays in the dialog (keep-focus.ts).
 */
export function Modal({ title, onClose, children, busy = false }: { title: string; onClose: () => void; children: ReactNode; busy?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  // A layout effect: focus is inside the dialog the moment it is in the page, before anything can
  // read or move it (a passive effect left a window where the dialog showed with focus behind it).
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const root = dialog.getRootNode() as Document | ShadowRoot;
    const before = root.activeElement as HTMLElement | null;
    (dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog).focus();
    return () => before?.focus?.();
  }, []);
  useKeepFocusWhileBusy(ref, busy);

  return (
    <div className="gh-ap-modal-backdrop">
      <div
        ref={ref}
        className="gh-ap-modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-busy={busy}
        tabIndex={-1}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            // Handled here: the portal's own Escape handler (on the document) must not close the portal.
            event.preventDefault();
            event.stopPropagation();
            if (!busy) onCloseRef.current();
          } else if (event.key === 'Tab' && ref.current) {
            trapTab(ref.current, event.nativeEvent);
          }
        }}
      >
        <h3 id={titleId} className="gh-ap-modal-title">{title}</h3>
        {children}
      </div>
    </div>
  );
}
