import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';

/** One action of a row's menu. */
export interface RowMenuItem {
  key: string;
  label: string;
  onSelect: () => void;
  danger?: boolean;
  /** Shown, but not available (the host's view-only visibility). */
  disabled?: boolean;
}

/**
 * A row's actions behind one "⋯" button: the WAI-ARIA menu button pattern. The button opens the
 * menu (Enter, Space, Down: first item; Up: last item); in the menu Up and Down move (wrapping),
 * Home and End jump, a letter jumps to the next item starting with it, Enter or Space chooses,
 * Escape closes it and gives focus back to the button, Tab closes it and moves on. The menu floats
 * over the page (fixed), so a scrolling table never clips it; a scroll or a resize closes it.
 */
export function RowMenu({ label, items }: { label: string; items: readonly RowMenuItem[] }) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const [place, setPlace] = useState<{ top: number; left: number } | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const id = useId();

  const itemsOf = () => [...(menuRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
  const close = (refocus: boolean) => {
    setOpen(false);
    setPlace(null);
    if (refocus) buttonRef.current?.focus();
  };

  // Placed under the button, its inline end on the button's (above it when there is no room below).
  useLayoutEffect(() => {
    if (!open || !buttonRef.current || !menuRef.current) return;
    const button = buttonRef.current.getBoundingClientRect();
    const menu = menuRef.current.getBoundingClientRect();
    const view = buttonRef.current.ownerDocument.defaultView;
    const height = view?.innerHeight ?? 0;
    const width = view?.innerWidth ?? 0;
    const rtl = getComputedStyle(buttonRef.current).direction === 'rtl';
    const top = button.bottom + menu.height + 4 <= height || button.top < menu.height ? button.bottom + 4 : button.top - menu.height - 4;
    const left = rtl ? button.left : button.right - menu.width;
    setPlace({ top: Math.max(4, top), left: Math.min(Math.max(4, left), Math.max(4, width - menu.width - 4)) });
  }, [open]);

  // Once placed (visible, so focusable): the first or last item takes focus.
  useLayoutEffect(() => {
    if (!open || !place) return;
    const list = itemsOf();
    (open === 'last' ? list[list.length - 1] : list[0])?.focus();
    // Only when the menu opens, not on every re-render while it is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [place === null, open]);

  // A press outside, a scroll or a resize closes the menu.
  useEffect(() => {
    if (!open) return;
    const doc = buttonRef.current?.ownerDocument;
    const view = doc?.defaultView;
    const outside = (event: Event) => {
      const path = event.composedPath();
      if (!path.includes(menuRef.current!) && !path.includes(buttonRef.current!)) close(false);
    };
    const dismiss = () => close(false);
    doc?.addEventListener('pointerdown', outside, true);
    view?.addEventListener('resize', dismiss);
    doc?.addEventListener('scroll', dismiss, true);
    return () => {
      doc?.removeEventListener('pointerdown', outside, true);
      view?.removeEventListener('resize', dismiss);
      doc?.removeEventListener('scroll', dismiss, true);
    };
  }, [open]);

  function onButtonKey(event: ReactKeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(event.key === 'ArrowUp' ? 'last' : 'first');
    }
  }

  function onMenuKey(event: ReactKeyboardEvent<HTMLDivElement>) {
    const list = itemsOf();
    const root = menuRef.current?.getRootNode() as Document | ShadowRoot | undefined;
    const at = list.indexOf(root?.activeElement as HTMLButtonElement);
    const focus = (index: number) => list[(index + list.length) % list.length]?.focus();
    if (event.key === 'ArrowDown') focus(at + 1);
    else if (event.key === 'ArrowUp') focus(at - 1);
    else if (event.key === 'Home') focus(0);
    else if (event.key === 'End') focus(list.length - 1);
    else if (event.key === 'Escape') {
      // Handled here: neither a dialog behind nor the portal may close.
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
      buttonRef.current?.focus();
      return;
    } else if (event.key.length === 1 && /\S/.test(event.key)) {
      const letter = event.key.toLocaleLowerCase();
      const order = [...list.slice(at + 1), ...list.slice(0, at + 1)];
      order.find((item) => item.textContent?.trim().toLocaleLowerCase().startsWith(letter))?.focus();
    } else return;
    event.preventDefault();
  }

  if (items.length === 0) return null;
  return (
    <span className="gh-ap-menu">
      <button
        ref={buttonRef}
        id={`${id}-button`}
        type="button"
        className="gh-ap-menu-button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open ? true : false}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={() => (open ? close(true) : setOpen('first'))}
        onKeyDown={onButtonKey}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="5" cy="12" r="1.8" /><circle cx="12" cy="12" r="1.8" /><circle cx="19" cy="12" r="1.8" /></svg>
      </button>
      {open && (
        <div
          ref={menuRef}
          id={`${id}-menu`}
          className="gh-ap-menu-list"
          role="menu"
          aria-labelledby={`${id}-button`}
          // Set through the CSSOM by React (allowed under a strict style-src, unlike style="" markup); hidden until measured.
          style={place ? { top: place.top, left: place.left } : { top: 0, left: 0, visibility: 'hidden' }}
          onKeyDown={onMenuKey}
        >
          {items.map((item) => (
            <button
              key={item.key}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={item.danger ? 'gh-ap-menu-item gh-ap-menu-item-danger' : 'gh-ap-menu-item'}
              aria-disabled={item.disabled ? true : undefined}
              onClick={() => {
                if (item.disabled) return;
                close(true);
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </span>
  );
}
